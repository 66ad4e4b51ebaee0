// Keyed records held in memory and persisted as a lowdb snapshot (`<name>.json`, written atomically by
// Store) plus an append-only journal (`<name>.journal.jsonl`, one JSON line per change). A change is
// acknowledged once its line is written and synced, so an acked write survives kill -9 and power
// loss, and a write costs one small append instead of rewriting a file of 100k records. Changes made
// while a write is in flight coalesce into the next single append. When the journal has grown to
// about half the store, the snapshot is rewritten and the journal emptied (replaying a journal over a
// newer snapshot gives the same state, so a crash between the two steps loses nothing).
// A torn last line (crash mid-append, never acked) is dropped; unreadable lines elsewhere are kept in
// a copy set aside (`<name>.journal.corrupt-<time>.jsonl`) and logged, never silently discarded.
// Both files are private (0600) and never followed through a symlink: a link planted as the journal is
// moved aside (its target untouched and unread), logged, and the store goes on from its snapshot.
import { type FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import type { PluginLogger } from './logger.js'
import { moveAside, openPrivateAppend, readPrivateFile, UnsafeFileError, writePrivateFile } from './private-file.js'
import { Store } from './store.js'

export interface JournalStoreOptions<R, K, M> {
  key: (r: R) => K
  meta?: M
  log?: PluginLogger
  now?: () => number
  /** fdatasync each append (default true). */
  sync?: boolean
  /** Journal lines before a compaction: max(this, half the record count). Default 2000. */
  compactAfter?: number
  /** Journal size before a compaction, for stores of large records. Default 16 MiB. */
  compactBytes?: number
  /** Reads the records of a file written in an older layout (called when it has no `records`). */
  upgrade?: (old: Record<string, unknown>) => R[]
}

interface Snapshot<R, M> { meta: M; records: R[] }
/** One journal line: clear all, a put, a delete and/or a meta patch (applied in that order). */
interface Op<R, K, M> { c?: 1; p?: R; d?: K; m?: Partial<M> }
interface Pending { line: string; resolve: () => void; reject: (err: unknown) => void }

export class JournalStore<R extends object, K extends string | number, M extends object = Record<string, never>> {
  private readonly records = new Map<K, R>()
  private pending: Pending[] = []
  private scheduled = false
  private chain: Promise<void> = Promise.resolve()
  private journalLines = 0
  private journalBytes = 0
  private closed = false

  private constructor (
    private readonly snapshot: Store<Snapshot<R, M>>,
    private readonly fh: FileHandle,
    private readonly opts: JournalStoreOptions<R, K, M>,
    private currentMeta: M
  ) {}

  static async open<R extends object, K extends string | number, M extends object = Record<string, never>>(
    file: string, opts: JournalStoreOptions<R, K, M>
  ): Promise<JournalStore<R, K, M>> {
    const metaDefaults = (opts.meta ?? {}) as M
    const snapshot = await Store.open<Snapshot<R, M>>(file, { meta: metaDefaults, records: [] }, { log: opts.log, now: opts.now })
    const journal = journalPath(file)
    const lines = await readJournal(journal, opts)
    const fh = await openJournal(journal, opts)
    if (lines.torn) await fh.truncate(lines.keepBytes)
    const store = new JournalStore<R, K, M>(snapshot, fh, opts, { ...metaDefaults, ...(snapshot.data.meta ?? {}) })
    const data = snapshot.data as Snapshot<R, M> & Record<string, unknown>
    const legacy = opts.upgrade && data.records.length === 0 && Object.keys(data).some((k) => k !== 'meta' && k !== 'records')
    const initial = legacy && opts.upgrade ? opts.upgrade(data) : data.records
    for (const r of Array.isArray(initial) ? initial : []) store.records.set(opts.key(r), r)
    if (legacy) { // rewrite in the current layout once (the old keys go)
      for (const k of Object.keys(data)) if (k !== 'meta' && k !== 'records') delete data[k]
      await store.compact()
    }
    for (const op of lines.ops) store.apply(op)
    store.journalLines = lines.ops.length
    store.journalBytes = lines.keepBytes
    return store
  }

  get size (): number { return this.records.size }
  get meta (): Readonly<M> { return this.currentMeta }
  get (id: K): R | undefined { return this.records.get(id) }
  has (id: K): boolean { return this.records.has(id) }
  values (): IterableIterator<R> { return this.records.values() }

  /** Stores the record whole (optionally with a meta patch in the same line); resolves once on disk. */
  put (rec: R, metaPatch?: Partial<M>): Promise<void> {
    const op: Op<R, K, M> = metaPatch ? { p: rec, m: metaPatch } : { p: rec }
    this.apply(op)
    return this.enqueue(op)
  }

  async delete (id: K): Promise<boolean> {
    if (!this.records.has(id)) return false
    const op: Op<R, K, M> = { d: id }
    this.apply(op)
    await this.enqueue(op)
    return true
  }

  setMeta (patch: Partial<M>): Promise<void> {
    const op: Op<R, K, M> = { m: patch }
    this.apply(op)
    return this.enqueue(op)
  }

  /** Removes every record (one journal line). */
  clear (): Promise<void> {
    const op: Op<R, K, M> = { c: 1 }
    this.apply(op)
    return this.enqueue(op)
  }

  /** Several changes acknowledged together (one line each, one append). */
  async putMany (recs: R[]): Promise<void> {
    await Promise.all(recs.map((r) => this.put(r)))
  }

  /** Waits for pending writes, folds the journal into the snapshot and releases the file. */
  async close (): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.chain
    if (this.journalLines > 0) await this.compact()
    await this.fh.close()
  }

  private apply (op: Op<R, K, M>): void {
    if (op.c === 1) this.records.clear()
    if (op.p !== undefined) this.records.set(this.opts.key(op.p), op.p)
    if (op.d !== undefined) this.records.delete(op.d)
    if (op.m !== undefined) this.currentMeta = { ...this.currentMeta, ...op.m }
  }

  private enqueue (op: Op<R, K, M>): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${basename(this.snapshot.file)} is closed`))
    const done = new Promise<void>((resolve, reject) => { this.pending.push({ line: JSON.stringify(op) + '\n', resolve, reject }) })
    if (!this.scheduled) {
      this.scheduled = true
      this.chain = this.chain.then(() => this.drain())
    }
    return done
  }

  // Runs on the chain, so appends and compactions never overlap; everything queued meanwhile is one batch.
  private async drain (): Promise<void> {
    this.scheduled = false
    const batch = this.pending
    this.pending = []
    const chunk = batch.map((b) => b.line).join('')
    try {
      await this.fh.write(chunk)
      if (this.opts.sync !== false) await this.fh.datasync()
      for (const b of batch) b.resolve()
    } catch (err) {
      this.opts.log?.error(`Could not write ${basename(this.snapshot.file)}`, {}, err)
      for (const b of batch) b.reject(err)
      return
    }
    this.journalLines += batch.length
    this.journalBytes += Buffer.byteLength(chunk)
    if (this.journalLines >= Math.max(this.opts.compactAfter ?? 2000, this.records.size / 2) || this.journalBytes >= (this.opts.compactBytes ?? 16 * 1024 * 1024)) {
      await this.compact().catch((err: unknown) => this.opts.log?.error(`Could not compact ${basename(this.snapshot.file)}`, {}, err))
    }
  }

  private async compact (): Promise<void> {
    this.snapshot.data.meta = { ...this.currentMeta }
    this.snapshot.data.records = [...this.records.values()]
    await this.snapshot.write()
    this.snapshot.data.records = [] // the Map is the live copy; don't hold two arrays of everything
    await this.fh.truncate(0)
    this.journalLines = 0
    this.journalBytes = 0
  }
}

export const journalPath = (file: string): string => file.replace(/\.json$/, '') + '.journal.jsonl'

/** A refused journal (symlink, not a file) is moved aside like a corrupt one; undefined = start empty. */
async function refuse<R, K, M> (journal: string, opts: JournalStoreOptions<R, K, M>, err: UnsafeFileError): Promise<void> {
  const aside = await moveAside(journal, 'refused', (opts.now ?? Date.now)())
  opts.log?.error(`Journal ${basename(journal)} refused (${err.message}); moved aside${aside ? ` to ${basename(aside)}` : ''}, going on from the snapshot`, { file: basename(journal) })
}

async function openJournal<R, K, M> (journal: string, opts: JournalStoreOptions<R, K, M>): Promise<FileHandle> {
  try { return await openPrivateAppend(journal) } catch (err) {
    if (!(err instanceof UnsafeFileError)) throw err
    await refuse(journal, opts, err) // planted between the read and the open
    return openPrivateAppend(journal)
  }
}

async function readJournal<R, K, M> (journal: string, opts: JournalStoreOptions<R, K, M>): Promise<{ ops: Array<Op<R, K, M>>; torn: boolean; keepBytes: number }> {
  let buf: Buffer | undefined
  try { buf = await readPrivateFile(journal) } catch (err) {
    if (!(err instanceof UnsafeFileError)) throw err
    await refuse(journal, opts, err)
  }
  if (!buf) return { ops: [], torn: false, keepBytes: 0 }
  const end = buf.lastIndexOf(0x0a) + 1 // bytes after the last newline belong to an append that was never acked
  const ops: Array<Op<R, K, M>> = []
  let bad = 0
  for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
    if (!line) continue
    try { ops.push(JSON.parse(line) as Op<R, K, M>) } catch { bad++ }
  }
  if (bad > 0) {
    const aside = `${journal.replace(/\.jsonl$/, '')}.corrupt-${(opts.now ?? Date.now)()}.jsonl`
    await writePrivateFile(aside, buf)
    opts.log?.error(`${bad} unreadable line(s) in ${basename(journal)} skipped; a copy was set aside as ${basename(aside)}`, { file: basename(journal) })
  }
  return { ops, torn: end < buf.length, keepBytes: end }
}
