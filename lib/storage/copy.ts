// Copies the ported stores (ported.ts) between the files of a data folder and PostgreSQL, for the migration
// command (scripts/storage-migrate.ts, lib/storage/README.md "Moving the data"). Every target store is
// checked before anything is written: one that already holds records is refused unless `force`, which
// replaces its contents. The counts are read back from the target after writing, so a mismatch shows.
import { dirname, join } from 'node:path'
import { JournalStore } from '../core/journal-store.js'
import { ensurePrivateDirSync } from '../core/private-file.js'
import { ensureMigrated } from './pg/migrate.js'
import { acquirePool, redactUrl, releasePool } from './pg/pool.js'
import { PgRecordStore } from './pg/record-store.js'
import { PORTED_STORES, type PortedStore } from './ported.js'
import type { RecordStore } from './records.js'

type Rec = Record<string, unknown>
type Meta = Record<string, unknown>
/** A ported store opened without its domain's types (lib/backup reads and writes them so too). */
export type AnyStore = RecordStore<Rec, string | number, Meta>

/** Records written per transaction by the copy. */
export const COPY_SLICE = 2_000

export interface StoreCount { store: string; read: number; written: number }
export interface CopyOptions { force?: boolean; stores?: readonly PortedStore[] }

// a store in a folder of the data folder (`group-log/groups`) gets its folder, as its domain makes it
export const openFiles = (dataDir: string, s: PortedStore): Promise<AnyStore> => {
  const file = join(dataDir, `${s.name}.json`)
  ensurePrivateDirSync(dirname(file))
  return JournalStore.open<Rec, string | number, Meta>(file, { key: s.key, ...(s.upgrade ? { upgrade: s.upgrade } : {}) })
}
export const openPg = (url: string, s: PortedStore): Promise<AnyStore> => PgRecordStore.open<Rec, string | number, Meta>(url, s.name, { key: s.key })

/** Files of `dataDir` -> PostgreSQL at `url`. */
export async function copyToPostgres (dataDir: string, url: string, opts: CopyOptions = {}): Promise<StoreCount[]> {
  const pool = await acquirePool(url)
  try {
    await ensureMigrated(pool)
    return await copy(opts, (s) => openFiles(dataDir, s), (s) => openPg(url, s), `PostgreSQL (${redactUrl(url)})`)
  } finally { await releasePool(url) }
}

/** PostgreSQL at `url` -> files of `dataDir`. */
export async function copyFromPostgres (url: string, dataDir: string, opts: CopyOptions = {}): Promise<StoreCount[]> {
  return copy(opts, (s) => openPg(url, s), (s) => openFiles(dataDir, s), `the data folder ${dataDir}`)
}

async function copy (opts: CopyOptions, source: (s: PortedStore) => Promise<AnyStore>, target: (s: PortedStore) => Promise<AnyStore>, where: string): Promise<StoreCount[]> {
  const stores = opts.stores ?? PORTED_STORES
  if (!opts.force) {
    const full: string[] = []
    for (const s of stores) {
      const t = await target(s)
      if (t.size > 0) full.push(`${s.name} (${t.size})`)
      await t.close()
    }
    if (full.length) throw new Error(`Not copied: ${where} already holds records of ${full.join(', ')}. Run again with --force to replace them.`)
  }
  const counts: StoreCount[] = []
  for (const s of stores) {
    const from = await source(s)
    const records = [...from.values()]
    const meta = { ...from.meta }
    await from.close()
    const to = await target(s)
    try {
      await to.clear()
      // in slices, each committed before the next is made: a million records in one statement ran out of heap
      for (let i = 0; i < records.length; i += COPY_SLICE) await to.putMany(records.slice(i, i + COPY_SLICE))
      if (Object.keys(meta).length) await to.setMeta(meta)
    } finally { await to.close() }
    const check = await target(s) // read back: the count written is what the target now holds
    counts.push({ store: s.name, read: records.length, written: check.size })
    await check.close()
  }
  return counts
}
