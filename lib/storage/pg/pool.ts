// The PostgreSQL connections of this process (lib/storage/README.md): `pg` is imported on first use
// (lib/core/packages.ts: an owner without a database never loads it), one Pool per address, shared by
// every store on it and ended when the last one closes. Connection failures are told in the owner's words;
// the address is never logged whole (its password): `describeUrl` is what a message may show.
import type { Client, Pool, PoolClient } from 'pg'
import { importOptional } from '../../core/packages.js'
import type { PluginLogger } from '../../core/logger.js'

type PgModule = (typeof import('pg'))['default']

let loaded: Promise<PgModule> | undefined
/** The `pg` module, imported once, on first use. */
export function loadPg (): Promise<PgModule> {
  return (loaded ??= importOptional('pg', async () => (await import('pg')).default).catch((err: unknown) => { loaded = undefined; throw err }))
}

/** The address with its password masked: postgres://user:****@host:5432/db. */
export function redactUrl (url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '****'
    return u.toString()
  } catch { return '(an address that does not parse)' }
}

/** user@host:port/database, for messages (never the password). */
function describeUrl (url: string): string {
  try {
    const u = new URL(url)
    return `${u.username ? decodeURIComponent(u.username) + '@' : ''}${u.hostname}:${u.port || '5432'}${u.pathname || '/'}`
  } catch { return '(an address that does not parse)' }
}

/** The password in an address (for the redactor), or undefined. */
export function urlPassword (url: string): string | undefined {
  try { return decodeURIComponent(new URL(url).password) || undefined } catch { return undefined }
}

/** An Error saying what is wrong with the connection in the owner's words (the cause kept, redacted). */
export function connectionError (url: string, err: unknown): Error {
  const e = err as { code?: string; message?: string }
  const where = describeUrl(url)
  const setting = 'storage.database.url or LINGXI_DATABASE_URL'
  let text: string
  switch (e.code) {
    case 'ECONNREFUSED': case 'ENOTFOUND': case 'EAI_AGAIN': case 'ETIMEDOUT': case 'EHOSTUNREACH': case 'ECONNRESET':
      text = `Cannot reach the PostgreSQL server at ${where} (${e.code}): is it running, and is the address in ${setting} right?`
      break
    case '28P01': case '28000':
      text = `PostgreSQL refused the login at ${where}: the user name or password in ${setting} is wrong`
      break
    case '3D000':
      text = `The database in ${setting} does not exist on ${where}: create it first (createdb)`
      break
    case '42501':
      text = `The PostgreSQL user at ${where} may not create the plugin's tables: grant it CREATE on the database`
      break
    default:
      text = `PostgreSQL at ${where} failed: ${(e.message ?? String(err)).split(url).join(redactUrl(url))}`
  }
  return Object.assign(new Error(text), { code: e.code })
}

interface Shared { pool: Promise<Pool>; users: number }
const pools = new Map<string, Shared>()

/** The pool of `url` (created, and checked with one query, on first use); release it with releasePool. */
export function acquirePool (url: string, log?: PluginLogger): Promise<Pool> {
  let shared = pools.get(url)
  if (!shared) {
    const pool = createPool(url, log)
    shared = { pool, users: 0 }
    pools.set(url, shared)
    pool.catch(() => { if (pools.get(url)?.pool === pool) pools.delete(url) })
  }
  shared.users++
  return shared.pool
}

export async function releasePool (url: string): Promise<void> {
  const shared = pools.get(url)
  if (!shared || --shared.users > 0) return
  pools.delete(url)
  await (await shared.pool).end()
}

async function createPool (url: string, log?: PluginLogger): Promise<Pool> {
  const pg = await loadPg()
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 })
  // an idle client losing its server must not bring the process down: the next query reconnects
  pool.on('error', (err) => log?.warn(`PostgreSQL connection lost: ${connectionError(url, err).message}`))
  try { await pool.query('SELECT 1') } catch (err) {
    await pool.end().catch(() => undefined)
    throw connectionError(url, err)
  }
  return pool
}

/** A client of its own (LISTEN holds one connection); the caller ends it. */
export async function connectClient (url: string): Promise<Client> {
  const pg = await loadPg()
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  try { await client.connect() } catch (err) {
    await client.end().catch(() => undefined)
    throw connectionError(url, err)
  }
  return client
}

/** Runs `fn` on one connection of `pool` inside BEGIN … COMMIT (ROLLBACK when it throws); the one transaction helper. */
export async function inTransaction<T> (pool: Pool, fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect()
  try {
    await c.query('BEGIN')
    const out = await fn(c)
    await c.query('COMMIT')
    return out
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally { c.release() }
}
