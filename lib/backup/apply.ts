// Applies a checked backup (check.ts) to a data folder and the ported stores, the chosen parts only
// (lib/backup/README.md, "Restoring"). The file is read a second time: its files are written to a staging
// folder, its records held, and only after the whole file read back clean again are the current files of
// those parts removed, the staged ones moved in, the stores replaced and the configuration imported.
import { createHash } from 'node:crypto'
import { mkdir, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { containedPath } from '../core/paths.js'
import { ensurePrivateDir } from '../core/private-file.js'
import { COPY_SLICE, openFiles, openPg, type AnyStore } from '../storage/copy.js'
import { journalPath } from '../core/journal-store.js'
import { ensureMigrated } from '../storage/pg/migrate.js'
import { acquirePool, releasePool } from '../storage/pg/pool.js'
import { PORTED_STORES } from '../storage/ported.js'
import { dataFiles } from './collect.js'
import { invalidBackup, readBackup } from './container.js'
import { unsafePath } from './check.js'
import { partOfFile, partOfStore, type Part } from './parts.js'
import { withSecrets, type SecretsPayload } from './secrets.js'

export interface RestoreTarget {
  dataDir: string
  userConfig: string
  databaseUrl: string | undefined
  /** applies the configuration's YAML (masked secrets keep the values in use) */
  importConfig(yaml: string): Promise<void>
}

export interface Applied { parts: Part[]; files: number; records: number }

/** Removes a store's files (snapshot, journal, rotated journals) so the store is written afresh. */
async function removeStoreFiles (dataDir: string, name: string): Promise<void> {
  const file = join(dataDir, `${name}.json`)
  await rm(file, { force: true })
  await rm(journalPath(file), { force: true })
  const base = name.split('/').pop() as string
  const names = await readdir(dirname(file)).catch(() => [] as string[])
  for (const n of names) if (n.startsWith(`${base}.journal.`) && n.endsWith('.jsonl')) await rm(join(dirname(file), n), { force: true })
}

export async function applyBackup (file: string, target: RestoreTarget, opts: { parts: readonly Part[]; maxUnpacked: number; secrets?: SecretsPayload }): Promise<Applied> {
  const chosen = new Set(opts.parts)
  const staging = join(target.dataDir, 'backups', `.restoring-${process.pid}`)
  await rm(staging, { recursive: true, force: true })
  await ensurePrivateDir(staging)
  const records = new Map<string, { records: Array<Record<string, unknown>>; meta: Record<string, unknown> }>()
  const staged: string[] = []
  let yaml: string | undefined
  try {
    await readBackup(file, opts.maxUnpacked, async (e) => {
      if (!chosen.has(e.part)) return
      if (e.t === 'file') {
        if (unsafePath(e.path) || e.part !== partOfFile(e.path)) throw invalidBackup(`the file path ${JSON.stringify(e.path.slice(0, 200))} is refused`)
        const data = Buffer.from(e.data, 'base64')
        if (createHash('sha256').update(data).digest('hex') !== e.sha256) throw invalidBackup(`the file ${e.path} does not match its checksum`)
        const to = containedPath(staging, e.path)
        await mkdir(dirname(to), { recursive: true, mode: 0o700 })
        await writeFile(to, data, { mode: 0o600 })
        staged.push(e.path)
      } else if (e.t === 'records') {
        const r = records.get(e.store) ?? { records: [], meta: {} }
        for (const x of e.records) r.records.push(x)
        records.set(e.store, r)
      } else if (e.t === 'store') {
        const r = records.get(e.store) ?? { records: [], meta: {} }
        r.meta = e.meta
        records.set(e.store, r)
      } else if (e.t === 'config') yaml = e.yaml
    })
    // the file read back clean: now the current state of the chosen parts is replaced
    for (const rel of await dataFiles(target.dataDir, target.userConfig)) {
      if (chosen.has(partOfFile(rel))) await unlink(containedPath(target.dataDir, rel)).catch(() => undefined)
    }
    for (const rel of staged) {
      const to = containedPath(target.dataDir, rel)
      await mkdir(dirname(to), { recursive: true, mode: 0o700 })
      await rename(containedPath(staging, rel), to)
    }
    let count = 0
    const pool = target.databaseUrl ? await acquirePool(target.databaseUrl) : undefined
    try {
      if (pool) await ensureMigrated(pool)
      for (const s of PORTED_STORES) {
        if (!chosen.has(partOfStore(s.name))) continue
        const r = records.get(s.name) ?? { records: [], meta: {} }
        if (!target.databaseUrl) await removeStoreFiles(target.dataDir, s.name)
        const store: AnyStore = target.databaseUrl ? await openPg(target.databaseUrl, s) : await openFiles(target.dataDir, s)
        try {
          await store.clear()
          for (let i = 0; i < r.records.length; i += COPY_SLICE) await store.putMany(r.records.slice(i, i + COPY_SLICE))
          if (Object.keys(r.meta).length) await store.setMeta(r.meta)
        } finally { await store.close() }
        count += r.records.length
      }
    } finally { if (target.databaseUrl) await releasePool(target.databaseUrl) }
    if (chosen.has('config')) {
      if (yaml !== undefined) await target.importConfig(opts.secrets ? withSecrets(yaml, opts.secrets.config) : yaml)
      for (const f of opts.secrets?.files ?? []) await writeFile(join(target.dataDir, f.path), Buffer.from(f.data, 'base64'), { mode: 0o600 })
    }
    return { parts: [...chosen], files: staged.length, records: count }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}
