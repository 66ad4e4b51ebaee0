// A copy of the unmodified TRSS-Yunzai snapshot in a temp folder, installed as tests/realhost/README.md
// says, with this working tree copied in as plugins/lingxi-plugin; then the host process itself
// (`node .` under Node 24), with the plugin's data folder and port set, and redis on a port of its own.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { installFromCache } from './host-cache.js'
import { REPO_ROOT, SNAPSHOT, type Toolchain } from './toolchain.js'

const run = promisify(execFile)
export const PLUGIN_KEY = 'lingxi-plugin'
/** The installed TRSS hosts, one per install key (installHost). */
const TRSS_CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'lingxi-realhost-trss')

export function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** redis-server on a free loopback port, no persistence, daemonized; stop() kills it by its pid. */
export async function startRedis (tc: Toolchain, dir: string): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort()
  const pidfile = join(dir, `redis-${port}.pid`)
  await run(tc.redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--daemonize', 'yes', '--pidfile', pidfile, '--dir', dir, '--logfile', join(dir, 'redis.log')])
  // the pidfile may exist before its number is written; a pid of 0 would signal our own process group
  const readPid = (): number => { try { return Number(readFileSync(pidfile, 'utf8').trim()) } catch { return 0 } }
  let pid = readPid()
  for (let i = 0; i < 100 && !(Number.isInteger(pid) && pid > 1); i++) { await sleep(100); pid = readPid() }
  if (!(Number.isInteger(pid) && pid > 1)) throw new Error(`redis-server wrote no pid to ${pidfile}`)
  const alive = (): boolean => { try { process.kill(pid, 0); return true } catch { return false } }
  return {
    port,
    async stop () {
      try { process.kill(pid, 'SIGTERM') } catch { return }
      for (let i = 0; i < 50 && alive(); i++) await sleep(100)
    }
  }
}

/** The project's tracked and untracked (not ignored) files: what a clone of the current work would hold. */
async function workingTreeFiles (): Promise<string[]> {
  try {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, maxBuffer: 64 << 20 })
    return stdout.split('\0').filter(Boolean)
  } catch {
    // not a git checkout: every file outside the folders git would ignore
    const skip = new Set(['node_modules', '.git', 'data', 'screenshots', '.standalone', '.scratch', '.tsx-cache'])
    return (readdirSync(REPO_ROOT, { recursive: true, encoding: 'utf8' }) as string[])
      .filter((rel) => !skip.has(rel.split(/[\\/]/)[0] ?? '') && !lstatSync(join(REPO_ROOT, rel)).isDirectory())
  }
}

/** Copies the working tree into `dest`, links the project's node_modules and copies the built dashboard. */
export async function copyPlugin (dest: string): Promise<void> {
  mkdirSync(dest, { recursive: true })
  for (const rel of await workingTreeFiles()) {
    if (rel.startsWith('tests/') || rel.startsWith('screenshots/')) continue
    const from = join(REPO_ROOT, rel)
    if (!existsSync(from) || lstatSync(from).isDirectory()) continue // deleted in the tree, or a submodule
    mkdirSync(dirname(join(dest, rel)), { recursive: true })
    cpSync(from, join(dest, rel))
  }
  // resources/dist is build output (ignored): copying it spares the plugin a dashboard build at start
  const dist = join(REPO_ROOT, 'resources', 'dist')
  if (existsSync(join(dist, 'index.html'))) cpSync(dist, join(dest, 'resources', 'dist'), { recursive: true })
  // The plugin's own install (`pnpm install` at the host root) would fetch the same packages again: the
  // project's node_modules holds them. Node resolves the link to its real path, so the plugin's imports
  // resolve there, and the bundle cache (node_modules/.cache/lingxi-plugin) is keyed per plugin folder.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dest, 'node_modules'), 'dir')
}

export interface HostConfig { botId: string; masterId: string; serverPort: number; redisPort: number }

/** The host's config files (it copies the defaults for any file missing in config/config). */
export function writeHostConfig (root: string, c: HostConfig): void {
  const dir = join(root, 'config', 'config')
  mkdirSync(dir, { recursive: true })
  const defaults = (name: string): string => readFileSync(join(root, 'config', 'default_config', `${name}.yaml`), 'utf8')
  writeFileSync(join(dir, 'redis.yaml'), defaults('redis').replace(/^port: .*$/m, `port: ${c.redisPort}`))
  writeFileSync(join(dir, 'server.yaml'), defaults('server')
    .replace(/^url: .*$/m, `url: http://127.0.0.1:${c.serverPort}`).replace(/^port: .*$/m, `port: ${c.serverPort}`))
  writeFileSync(join(dir, 'other.yaml'), defaults('other')
    .replace(/^masterQQ:\n(\s+- .*\n)+/m, `masterQQ:\n  - ${c.masterId}\n`)
    .replace(/^master:\n(\s+- .*\n)+/m, `master:\n  - "${c.botId}:${c.masterId}"\n`))
}

/** The host's own patch for compression does not apply to compression 1.8.2 (tests/realhost/README.md). */
const OVERRIDES = '\noverrides:\n  compression: 1.8.1\n'

/**
 * What decides the installed host: the snapshot's package.json, workspace and lockfile, the override, Node's and
 * pnpm's versions, where pnpm's store is. The snapshot has no lockfile: pnpm resolves the tree from the registry,
 * so the day is in the key too (a cached host is at most a day behind what a user's install resolves).
 */
function installKey (tc: Toolchain): string {
  const h = createHash('sha256')
  let locked = false
  for (const f of ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml']) {
    const p = join(SNAPSHOT, f)
    if (f === 'pnpm-lock.yaml') locked = existsSync(p)
    h.update(`${f}\0`).update(existsSync(p) ? readFileSync(p) : '-').update('\0')
  }
  h.update(OVERRIDES)
  const version = (pkg: string): string => { try { return (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version } catch { return '?' } }
  h.update(`node${version(join(tc.nodeBinDir, '..'))}-pnpm${version(join(dirname(tc.pnpm), '..'))}-${process.platform}-${process.arch}`)
  for (const k of ['npm_config_store_dir', 'PNPM_HOME', 'XDG_DATA_HOME', 'HOME']) h.update(`\0${k}=${process.env[k] ?? ''}`)
  if (!locked) h.update(`\0${new Date().toISOString().slice(0, 10)}`)
  return h.digest('hex').slice(0, 16)
}

/** Copies the snapshot to `root` and installs it (the compression override, then `pnpm i`). */
async function installSnapshot (tc: Toolchain, root: string): Promise<void> {
  cpSync(SNAPSHOT, root, { recursive: true })
  appendFileSync(join(root, 'pnpm-workspace.yaml'), OVERRIDES)
  await run(tc.node, [tc.pnpm, 'install', '--no-frozen-lockfile', '--reporter=append-only'], {
    cwd: root,
    timeout: 600_000,
    maxBuffer: 64 << 20,
    env: { ...process.env, PATH: `${tc.nodeBinDir}:${process.env.PATH ?? ''}`, CI: 'true', PUPPETEER_SKIP_DOWNLOAD: '1', npm_config_yes: 'true' }
  }).catch((err: Error & { stdout?: string; stderr?: string }) => {
    const out = `${err.stdout ?? ''}\n${err.stderr ?? ''}`
    const failure = new Error(`pnpm install of the host failed: ${err.message.split('\n')[0]}\n${out.slice(-4000)}`)
    // the registry out of reach is a missing tool like the others (the suite skips); anything else fails it
    if (/ERR_PNPM_(META_)?FETCH|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ERR_SOCKET/.test(out)) Object.assign(failure, { unreachable: true })
    throw failure
  })
}

/**
 * The installed snapshot in `root`: installed once per install key into node_modules/.cache/lingxi-realhost-trss
 * (support/host-cache.ts) and copied from there with its links, about 2 s instead of a `pnpm install` per suite.
 */
export async function installHost (tc: Toolchain, root: string): Promise<{ seconds: number; cached: boolean }> {
  return installFromCache({ dir: TRSS_CACHE, key: installKey(tc), keepDays: 2, install: (dir) => installSnapshot(tc, dir) }, root)
}

export interface HostProcess {
  child: ChildProcess
  /** everything the host printed so far (stdout and stderr) */
  output(): string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** SIGTERM (what a service manager sends) and wait for the exit */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** `node .` in the host folder with Node 24 first on PATH and the plugin's environment. */
export function spawnHost (tc: Toolchain, root: string, env: Record<string, string>): HostProcess {
  // as a user's process: none of the test process's own settings (tests/support/setup.ts) leak in
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LINGXI_') && k !== 'NODE_ENV'))
  const child = spawn(tc.node, ['.'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...base, PATH: `${tc.nodeBinDir}:${process.env.PATH ?? ''}`, ...env }
  })
  let out = ''
  const logFile = join(root, 'lingxi-realhost.log')
  const onData = (b: Buffer): void => { const s = b.toString(); out += s; appendFileSync(logFile, s) }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  return {
    child,
    output: () => out,
    exited,
    async stop (signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      try { return await exited } finally { clearTimeout(killer) }
    }
  }
}

/** Polls `url` until it answers (TRSS holds every request until the host is online). */
export async function waitForHttp (url: string, host: HostProcess, timeoutMs: number): Promise<Response> {
  const until = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < until) {
    if (host.child.exitCode !== null) throw new Error(`the host exited (${host.child.exitCode}) before ${url} answered:\n${pluginLines(host.output())}\n${host.output().slice(-2000)}`)
    try {
      // manual: before the plugin mounts, the host's catch-all redirects away (to a site not reachable here)
      const res = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'manual' })
      if (res.status === 200) return res
      // the host answers only once online: its catch-all redirect then means the plugin never mounted
      if (res.status >= 300 && res.status < 400) throw new Error(`${url} reached the host's catch-all redirect: the plugin is not mounted; the host's lines about the plugin:\n${pluginLines(host.output())}`)
      last = `HTTP ${res.status} ${res.headers.get('location') ?? ''}`
    } catch (err) {
      if ((err as Error).message.includes('catch-all')) throw err
      last = (err as Error).message
    }
    await sleep(250)
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last}); the host's lines about the plugin:\n${pluginLines(host.output())}`)
}

/** The host's output as lines, without its colour codes. */
export function outputLines (output: string): string[] {
  // eslint-disable-next-line no-control-regex
  return output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')
}

/** The host's output lines that mention the plugin or an error (its request log is long). */
function pluginLines (output: string): string {
  return outputLines(output).filter((l) => /lingxi|灵犀|ERRO|error|Error|缺少依赖|插件/i.test(l) && !/HTTP (GET|POST|PUT) 请求/.test(l)).slice(0, 60).join('\n')
}

/** The errors and warnings the host logged about the plugin (a suite's last check: none). */
export function pluginProblems (output: string): string[] {
  return outputLines(output).filter((l) => /\[(ERRO|ERROR|WARN|FATAL)\]/.test(l) && /灵犀|lingxi/i.test(l))
}

/** The plugin's group log files in its data folder, as one text ('' before the first message). */
export function groupLogText (dataDir: string): string {
  const dir = join(dataDir, 'group-log')
  return existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n') : ''
}

/** Waits until the plugin's group log files hold `text` (the host handles events on its own schedule). */
export async function groupLogged (dataDir: string, text: string, host: HostProcess | undefined, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!groupLogText(dataDir).includes(text)) {
    if (Date.now() > until) throw new Error(`"${text}" never reached the group log; host output:\n${host?.output().slice(-2000)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Removes the bundle the plugin copy built into the shared node_modules/.cache/lingxi-plugin (named per
 * plugin folder by boot/load-plugin.mjs): every run's temp folder would otherwise leave one behind.
 */
export function removePluginBundles (pluginDir: string): void {
  const dir = join(REPO_ROOT, 'node_modules', '.cache', 'lingxi-plugin')
  if (!existsSync(dir)) return
  const prefix = `plugin-${createHash('sha256').update(pluginDir).digest('hex').slice(0, 8)}-`
  for (const f of readdirSync(dir)) if (f.startsWith(prefix)) rmSync(join(dir, f), { force: true })
}

export function removeTree (dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
}
