// A real PostgreSQL server for the storage tests (lib/storage/README.md): initdb + pg_ctl in a temp folder,
// trust auth on 127.0.0.1 and a free port, the unix socket in that folder. One server per test process
// (sharedPostgres), stopped at exit; each suite gets its own database (freshDatabase). When the binaries are
// missing (no `postgresql` package, Windows) or the server cannot start, `postgresOrSkip` skips the suite and
// says why: a skipped test, never a pass. Linux/macOS only; elsewhere it skips.
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'

interface Postgres { url: string; stop(): Promise<void> }

/**
 * Where initdb and pg_ctl are: LINGXI_PG_BIN when set (a folder; a missing one means none), else PATH, then
 * Debian's /usr/lib/postgresql/<version>/bin (newest first).
 */
function postgresBinDir (): string | undefined {
  const given = process.env.LINGXI_PG_BIN
  if (given) return existsSync(join(given, 'initdb')) ? given : undefined
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir
  const debian = '/usr/lib/postgresql'
  if (!existsSync(debian)) return undefined
  const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  for (const v of versions) if (existsSync(join(debian, v, 'bin', 'initdb'))) return join(debian, v, 'bin')
  return undefined
}

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const srv = createServer()
  srv.once('error', reject)
  srv.listen(0, '127.0.0.1', () => {
    const port = (srv.address() as { port: number }).port
    srv.close(() => resolve(port))
  })
})

/** postgres refuses to run as root: as root, run the tools as the `postgres` user. */
function runAs (): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    return { uid, gid }
  } catch { throw new Error('running as root and there is no `postgres` user to run the server as') }
}

function run (bin: string, args: string[], user: { uid: number; gid: number } | undefined): void {
  const r = spawnSync(bin, args, { encoding: 'utf8', ...(user ? { uid: user.uid, gid: user.gid } : {}), env: { ...process.env, LC_ALL: 'C' } })
  if (r.status !== 0) throw new Error(`${bin} ${args[0] ?? ''} failed: ${(r.error?.message ?? r.stderr ?? '').trim().slice(-600)}`)
}

/**
 * Starts a server of its own; throws with the reason when it cannot.
 * @public for a suite that needs to stop or restart its server (the others share sharedPostgres)
 */
export async function startPostgres (): Promise<Postgres> {
  if (process.platform === 'win32') throw new Error('the PostgreSQL test harness runs on Linux and macOS only')
  const bin = postgresBinDir()
  if (!bin) throw new Error('initdb/pg_ctl not found (install the Debian package `postgresql`; looked in LINGXI_PG_BIN, PATH and /usr/lib/postgresql/*/bin)')
  const user = runAs()
  const dir = mkdtempSync(join(tmpdir(), 'lingxi-pg-'))
  if (user) chownSync(dir, user.uid, user.gid)
  const data = join(dir, 'data')
  const port = await freePort()
  try {
    run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], user)
    // fsync off: the tests kill clients, never the server, so commits stay durable for what they check
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
    run(join(bin, 'pg_ctl'), ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'server.log'), '-o', opts], user)
  } catch (err) {
    let log = ''
    try { log = readFileSync(join(dir, 'server.log'), 'utf8').slice(-600) } catch { /* never started */ }
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`${(err as Error).message}${log ? `\n${log}` : ''}`)
  }
  let stopped = false
  const stopSync = (): void => {
    if (stopped) return
    stopped = true
    spawnSync(join(bin, 'pg_ctl'), ['stop', '-m', 'immediate', '-D', data], { ...(user ? { uid: user.uid, gid: user.gid } : {}), stdio: 'ignore' })
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stopSync)
  // a test run stopped by a signal stops its server too, then dies of the signal as it would have
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => { stopSync(); process.kill(process.pid, sig) })
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop () { stopSync() }
  }
}

let shared: Promise<Postgres> | undefined
/** One server for the whole test process (started on first use, stopped at exit). */
function sharedPostgres (): Promise<Postgres> {
  return (shared ??= startPostgres())
}

/** Creates an empty database on the server of `url`; answers its URL. */
export async function freshDatabase (url: string): Promise<string> {
  const { default: pg } = await import('pg')
  const name = `lx_test_${randomBytes(6).toString('hex')}`
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try { await client.query(`CREATE DATABASE ${name}`) } finally { await client.end() }
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/**
 * For a suite's `before`: a fresh database on the shared server, or the suite skipped with the reason
 * printed (the binaries are missing or the server did not start).
 */
export async function postgresOrSkip (ctx: Mocha.Context): Promise<string> {
  ctx.timeout(60_000)
  try {
    return await freshDatabase((await sharedPostgres()).url)
  } catch (err) {
    console.log(`      skipped: no PostgreSQL for this test: ${(err as Error).message}`)
    ctx.skip()
  }
}
