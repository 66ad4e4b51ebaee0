// Makes a backup file (lib/backup/README.md, "What a backup holds"): the data folder's files, the ported
// stores read through the storage port (from the files or PostgreSQL: the same entries either way), the
// configuration as exported (secrets masked) and, only with a passphrase, the secrets sealed.
import { createHash } from 'node:crypto'
import { copyFile, lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { ensurePrivateDir } from '../core/private-file.js'
import { COPY_SLICE, openFiles, openPg, type AnyStore } from '../storage/copy.js'
import { ensureMigrated } from '../storage/pg/migrate.js'
import { acquirePool, releasePool } from '../storage/pg/pool.js'
import { PORTED_STORES, type PortedStore } from '../storage/ported.js'
import { BackupWriter, FORMAT, FORMAT_VERSION, type Manifest } from './container.js'
import { seal } from './crypto.js'
import { partOfFile, partOfStore, isStoreFile, type Part } from './parts.js'
import { configSecrets, type SecretsPayload } from './secrets.js'
import { unsafePath } from './check.js'

/** What a backup reads, from the running plugin or from the terminal command. */
export interface BackupSource {
  dataDir: string
  /** config.yaml's path: inside the data folder when LINGXI_DATA_DIR is set (then left out of the files: it is the config entry) */
  userConfig: string
  pluginVersion: string
  /** PostgreSQL's address when the ported stores live there */
  databaseUrl: string | undefined
  /** the configuration as exported (defaults' comments, secrets masked) */
  exportConfig(): string
  /** the configuration in force, for its secrets */
  currentConfig(): unknown
  now(): number
}

/** Data-folder files that are secrets: only in the sealed entry (the session secret; lib/auth/sessions.ts). */
const SECRET_FILES = ['jwt-secret']
/** Never backed up: the backups themselves, the logs, the session revocations (they end with the sessions). */
const SKIPPED_TOP = new Set(['backups', 'logs', 'sessions.json'])

/** The data folder's files to back up (relative, forward slashes), links never followed. */
export async function dataFiles (dataDir: string, userConfig: string): Promise<string[]> {
  const out: string[] = []
  const walk = async (dir: string): Promise<void> => {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, d.name)
      const rel = relative(dataDir, full).split(sep).join('/')
      if (!rel.includes('/') && (SKIPPED_TOP.has(rel) || SECRET_FILES.includes(rel))) continue
      if (full === userConfig || d.isSymbolicLink()) continue
      if (d.isDirectory()) await walk(full)
      // a name its restore would refuse (check.ts: a colon, a device name...) is left out rather than make the file unrestorable
      else if (d.isFile() && !isStoreFile(rel) && !/\.tmp(-[\w.-]*)?$/.test(rel) && unsafePath(rel) === undefined) out.push(rel)
    }
  }
  await walk(dataDir)
  return out.sort()
}

/** Reads a ported store's records and meta: from PostgreSQL, or from a copy of its files (the running plugin keeps writing the originals). */
async function readStore (src: BackupSource, s: PortedStore, scratch: string): Promise<{ records: Array<Record<string, unknown>>; meta: Record<string, unknown> }> {
  let store: AnyStore
  if (src.databaseUrl) store = await openPg(src.databaseUrl, s)
  else {
    const from = join(src.dataDir, dirname(s.name))
    const names = await readdir(from).catch(() => [] as string[])
    await ensurePrivateDir(join(scratch, dirname(s.name)))
    const base = s.name.split('/').pop() as string
    for (const n of names) {
      if (n === `${base}.json` || (n.startsWith(`${base}.journal.`) && n.endsWith('.jsonl'))) await copyFile(join(from, n), join(scratch, dirname(s.name), n))
    }
    store = await openFiles(scratch, s)
  }
  try { return { records: [...store.values()], meta: { ...store.meta } } } finally { await store.close() }
}

/** Writes a full backup to `file`; answers its manifest. */
export async function writeBackup (file: string, src: BackupSource, opts: { kind: Manifest['kind']; passphrase?: string }): Promise<Manifest> {
  const w = new BackupWriter(file)
  const parts = new Map<Part, { files: number; records: number; bytes: number }>()
  const add = (p: Part, files: number, records: number, bytes: number): void => {
    const c = parts.get(p) ?? { files: 0, records: 0, bytes: 0 }
    parts.set(p, { files: c.files + files, records: c.records + records, bytes: c.bytes + bytes })
  }
  const scratch = await mkdtemp(join(tmpdir(), 'lingxi-backup-'))
  const pool = src.databaseUrl ? await acquirePool(src.databaseUrl) : undefined
  try {
    if (pool) await ensureMigrated(pool)
    for (const rel of await dataFiles(src.dataDir, src.userConfig)) {
      const full = join(src.dataDir, ...rel.split('/'))
      if (!(await lstat(full)).isFile()) continue
      const data = await readFile(full).catch((err: NodeJS.ErrnoException) => { if (err.code === 'ENOENT') return undefined; throw err })
      if (!data) continue // removed meanwhile (a temp file of a store)
      const part = partOfFile(rel)
      await w.entry({ t: 'file', part, path: rel, size: data.length, sha256: createHash('sha256').update(data).digest('hex'), data: data.toString('base64') })
      add(part, 1, 0, data.length)
    }
    for (const s of PORTED_STORES) {
      const { records, meta } = await readStore(src, s, scratch)
      const part = partOfStore(s.name)
      for (let i = 0; i < records.length; i += COPY_SLICE) await w.entry({ t: 'records', part, store: s.name, records: records.slice(i, i + COPY_SLICE) })
      await w.entry({ t: 'store', part, store: s.name, count: records.length, meta })
      add(part, 0, records.length, 0)
    }
    const yaml = src.exportConfig()
    await w.entry({ t: 'config', part: 'config', yaml })
    add('config', 1, 0, Buffer.byteLength(yaml))
    if (opts.passphrase) {
      const files: SecretsPayload['files'] = []
      for (const name of SECRET_FILES) {
        const data = await readFile(join(src.dataDir, name)).catch(() => undefined)
        if (data) files.push({ path: name, data: data.toString('base64') })
      }
      const payload: SecretsPayload = { config: configSecrets(src.currentConfig()), files }
      await w.entry({ t: 'secrets', part: 'config', sealed: await seal(Buffer.from(JSON.stringify(payload)), opts.passphrase) })
    }
    return await w.finish({
      format: FORMAT,
      version: FORMAT_VERSION,
      pluginVersion: src.pluginVersion,
      createdAt: new Date(src.now()).toISOString(),
      engine: src.databaseUrl ? 'postgres' : 'files',
      secrets: opts.passphrase !== undefined,
      kind: opts.kind,
      parts: Object.fromEntries(parts)
    })
  } catch (err) {
    await w.abort()
    throw err
  } finally {
    await rm(scratch, { recursive: true, force: true })
    if (src.databaseUrl) await releasePool(src.databaseUrl)
  }
}
