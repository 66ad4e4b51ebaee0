// Where the preset service keeps its data: the lowdb file presets.json (the embedded default, unchanged),
// or with PostgreSQL the store `presets` of the storage port (rows.ts), followed through onRemote so a
// preset or a choice made on another instance is served here (lib/storage/README.md).
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { dict, toDict } from '../core/dict.js'
import { JournalStore } from '../core/journal-store.js'
import { Store } from '../core/store.js'
import type { Runtime } from '../runtime.js'
import { openRecords } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import { databaseUrl } from '../storage/settings.js'
import { applyRow, dataOf, rowsOf, type PresetData, type PresetRow } from './rows.js'

/** What the service uses of its store (lowdb's Store fits). */
export interface PresetStore {
  /** The live data. Mutate only inside update(). */
  readonly data: PresetData
  /** Applies a change and resolves once it is durable. */
  update<R>(fn: (data: PresetData) => R): Promise<R>
  /** Calls `listener` with the record key (rows.ts) of each change another instance made, once applied here. */
  onRemote(listener: (key: string) => void): () => void
  close(): Promise<void>
}

/** Opens the presets' store: PostgreSQL when an address is set, else presets.json. */
export async function openPresetStore (rt: Runtime): Promise<PresetStore> {
  if (databaseUrl(process.env, rt.config.get().storage)) {
    return new RecordPresets(await openRecords<PresetRow, string>(rt, 'presets', { key: (r) => r.id }))
  }
  return await openPresetFile(rt)
}

async function openPresetFile (rt: Runtime): Promise<PresetStore> {
  const file = join(rt.paths.dataDir, 'presets.json')
  await fromMigratedFile(rt, file)
  const read = await Store.open<PresetData>(file, { presets: [], users: dict(), groups: dict() }, { log: rt.log, pretty: true })
  const d = read.data
  const str = (v: unknown): string => String(v)
  const store = Store.create<PresetData>(read.file, { ...d, presets: Array.isArray(d.presets) ? d.presets : [], users: toDict(d.users, str), groups: toDict(d.groups, str) }, { pretty: true })
  // the files are this instance's own: no other instance changes them
  return { get data () { return store.data }, update: (fn) => store.update(fn), onRemote: () => () => {}, close: async () => {} }
}

/**
 * The migration command (lib/storage/copy.ts) reads and writes presets.json as a journal store (records
 * `preset:<id>`, `user:<id>`, `group:<id>`, and a journal file beside it): such a file is read back into
 * the lowdb layout once, and its journals removed.
 */
async function fromMigratedFile (rt: Runtime, file: string): Promise<void> {
  const journals = (await readdir(rt.paths.dataDir).catch(() => [])).filter((f) => /^presets\.journal(\.\d+)?\.jsonl$/.test(f))
  if (journals.length === 0) return
  const journal = await JournalStore.open<PresetRow, string>(file, { key: (r) => r.id, log: rt.log, upgrade: upgradePresetFile })
  const data = dataOf(journal.values())
  await journal.close()
  await Store.create<PresetData>(file, data, { pretty: true }).write()
  for (const f of journals) await rm(join(rt.paths.dataDir, f), { force: true })
  rt.log.info(`presets.json was read back from the migration's layout (${data.presets.length} presets)`)
}

/** The lowdb layout of presets.json as records (lib/storage/ported.ts copies the file with the same rule). */
function upgradePresetFile (old: Record<string, unknown>): PresetRow[] {
  const str = (v: unknown): string => String(v)
  return [...rowsOf({ presets: Array.isArray(old.presets) ? old.presets : [], users: toDict(old.users, str), groups: toDict(old.groups, str) }).values()]
}

/** The presets in PostgreSQL: the data derived from the records, each change written as the rows it touched. */
class RecordPresets implements PresetStore {
  data: PresetData
  private readonly off: () => void
  private readonly listeners = new Set<(key: string) => void>()

  constructor (private readonly records: RecordStore<PresetRow, string>) {
    this.data = dataOf(records.values())
    this.off = records.onRemote((key, row) => {
      applyRow(this.data, key, row)
      for (const fn of this.listeners) fn(key)
    })
  }

  onRemote (listener: (key: string) => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  async update<R>(fn: (data: PresetData) => R): Promise<R> {
    const before = new Map([...rowsOf(this.data)].map(([k, r]) => [k, JSON.stringify(r)]))
    const result = fn(this.data)
    const after = rowsOf(this.data)
    const puts = [...after].filter(([k, r]) => before.get(k) !== JSON.stringify(r)).map(([, r]) => structuredClone(r))
    const gone = [...before.keys()].filter((k) => !after.has(k))
    await Promise.all([puts.length ? this.records.putMany(puts) : undefined, ...gone.map((k) => this.records.delete(k))])
    return result
  }

  async close (): Promise<void> {
    this.off()
    await this.records.close()
  }
}
