// The schema migrations (lib/storage/README.md, "Migrations"): the files of lib/storage/pg/migrations,
// `NNN_name.sql`, applied in order, each in its own transaction and recorded in `lx_migrations`. They run
// under a PostgreSQL advisory lock, so a second instance starting at the same moment waits for the first
// and then finds them applied: a migration is never applied twice.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { PLUGIN_DIR } from '../../core/paths.js'

const MIGRATIONS_DIR = join(PLUGIN_DIR, 'lib', 'storage', 'pg', 'migrations')
/** The advisory lock's key (any fixed number: it names "the plugin's migrations" on this database). */
const LOCK_KEY = 7_406_001

interface Migration { id: string; sql: string }

async function readMigrations (dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((n) => /^\d{3}_[\w-]+\.sql$/.test(n)).sort()
  return Promise.all(names.map(async (n) => ({ id: n.replace(/\.sql$/, ''), sql: await readFile(join(dir, n), 'utf8') })))
}

/** Applies the migrations not yet recorded; answers the ids it applied (empty: the schema was current). */
export async function migrate (pool: Pool, migrations?: Migration[]): Promise<string[]> {
  const list = migrations ?? await readMigrations()
  const client = await pool.connect()
  const applied: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY])
    try {
      await client.query('CREATE TABLE IF NOT EXISTS lx_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
      const done = new Set((await client.query<{ id: string }>('SELECT id FROM lx_migrations')).rows.map((r) => r.id))
      for (const m of list) {
        if (done.has(m.id)) continue
        await client.query('BEGIN')
        try {
          await client.query(m.sql)
          await client.query('INSERT INTO lx_migrations (id) VALUES ($1)', [m.id])
          await client.query('COMMIT')
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined)
          throw new Error(`The database migration ${m.id} failed: ${(err as Error).message}`, { cause: err })
        }
        applied.push(m.id)
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined)
    }
  } finally {
    client.release()
  }
  return applied
}

const current = new WeakMap<Pool, Promise<string[]>>()
/** migrate once per pool (every store of a process opens through it). */
export function ensureMigrated (pool: Pool): Promise<string[]> {
  let p = current.get(pool)
  if (!p) {
    p = migrate(pool)
    current.set(pool, p)
    p.catch(() => current.delete(pool))
  }
  return p
}
