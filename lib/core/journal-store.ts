// Keyed records held in memory and persisted as a snapshot (`<name>.json`: {meta, g, records}) plus an
// append-only journal (`<name>.journal.jsonl`, one JSON line per change). A change is acknowledged once
// its line is written and synced, so an acked write survives kill -9 and power loss, and a write costs
// one small append: a put of a record, a delete, a meta patch, or a delta (`appendTo`: items added to a
// record's list, trimmed to a bound; `patch`: a few fields set), never the whole store. Changes made
// while a write is in flight coalesce into the next single append.
//
// The snapshot holds one record per line, so it is read a chunk at a time, never as one string.
// Folding (the journal into the snapshot) never stops the store: when the journal has grown to about
// half the store (or 16 MiB), the journal is renamed to `<name>.journal.<g>.jsonl` and a new one started
// at once (its first line `{"g":g+1}` names its generation), so writes go on meanwhile; the records as
// they were at that moment are streamed to a temp file in small chunks (yielding to the event loop
// between chunks), synced and renamed over the snapshot, which records the generation `g` it covers;
// then the rotated journal is removed. At open, journals of a generation the snapshot covers are
// skipped (a crash between the rename and the removal replays nothing twice) and the others are replayed
// in order. Closing only waits for the pending append: a fold under way is abandoned (its rotated
// journal is replayed and folded again at the next open, in the background).
// A journal without a generation line (written before generations) is always replayed (its lines are
// puts, deletes and meta patches, which replay idempotently).
// A torn last line (crash mid-append, never acked) is dropped; unreadable lines elsewhere are kept in
// a copy set aside (`<name>.journal.corrupt-<time>.jsonl`) and logged, never silently discarded.
// Files are private (0600) and never followed through a symlink: a link planted as the journal is
// moved aside (its target untouched and unread), logged, and the store goes on from its snapshot.
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { open as openFile, readdir, rename, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { PluginLogger } from './logger.js'
import { FILE_MODE, moveAside, openPrivateAppend, readPrivateFile, UnsafeFileError, writePrivateFile } from './private-file.js'
import { Store } from './store.js'

export interface JournalStoreOptions<R, K, M> {
  key: (r: R) => K
  meta?: M
  log?: PluginLogger
  now?: () => number
  /** fdatasync each append (default true). */
  sync?: boolean
  /** Journal lines before a fold: max(this, half the record count). Default 2000. */
  compactAfter?: number
  /** Journal size before a fold, for stores of large records. Default 16 MiB. */
  compactBytes?: number
  /** Reads the records of a file written in an older layout (called when it has no `records`). */
  upgrade?: (old: Record<string, unknown>) => R[]
  /**
   * Called on each record read from the snapshot at open (answers the record to keep): a store of
   * many records can share common values here, while the parsed record is still young garbage-wise.
   */
  revive?: (r: R) => R
}

/** What the last completed fold did (for tests and benchmarks). */
export interface FoldReport {
  records: number
  chunks: number
  bytes: number
  ms: number
  /** The longest the fold held the event loop between two yields. */
  longestSliceMs: number
}

/** The fields of R holding a list (what appendTo may extend). */
export type ListField<R> = { [F in keyof R]-?: NonNullable<R[F]> extends unknown[] ? F : never }[keyof R] & string
/** The meta fields that hold a number (the counters `reserve` takes from). */
export type NumberField<M> = { [F in keyof M]-?: M[F] extends number ? F : never }[keyof M] & string

interface Snapshot<R, M> { meta: M; g?: number; records: R[] }
/** A delta: items appended to the list `f` of record `k` (keeping the last `n`), fields `s` set. */
interface Delta<K> { k: K; f?: string; i?: unknown[]; n?: number; s?: Record<string, unknown> }
/**
 * One journal line: clear all, a put, a delete, a delta and/or a meta patch (applied in that order);
 * `{"g":n}` alone is the generation line that opens a journal.
 */
interface Op<R, K, M> { c?: 1; p?: R; d?: K; a?: Delta<K>; m?: Partial<M>; g?: number }
interface Pending { line: string; resolve: () => void; reject: (err: unknown) => void }

// Captured at load: a test's fake timers must not stall a fold.
const realSetImmediate = globalThis.setImmediate
const yieldLoop = (): Promise<void> => new Promise((resolve) => realSetImmediate(resolve))
/** Characters of serialised records per snapshot chunk: well under a millisecond of JSON.stringify. */
const CHUNK_CHARS = 64 * 1024
/** Bytes of snapshot written between two syncs while folding. */
const SYNC_EVERY = 4 * 1024 * 1024
const NOFOLLOW = constants.O_NOFOLLOW ?? 0

export class JournalStore<R extends object, K extends string | number, M extends object = Record<string, never>> {
  private pending: Pending[] = []
  private scheduled = false
  private chain: Promise<void> = Promise.resolve()
  private journalLines = 0
  private journalBytes = 0
  private closed = false
  /** Generation of the current journal file. */
  private gen = 1
  private folding: Promise<void> | undefined
  private abortFold = false
  private report: FoldReport | undefined

  private constructor (
    private readonly file: string,
    private fh: FileHandle,
    private readonly opts: JournalStoreOptions<R, K, M>,
    private currentMeta: M,
    private readonly records: Map<K, R>
  ) {}

  static async open<R extends object, K extends string | number, M extends object = Record<string, never>>(
    file: string, opts: JournalStoreOptions<R, K, M>
  ): Promise<JournalStore<R, K, M>> {
    const metaDefaults = (opts.meta ?? {}) as M
    const records = new Map<K, R>()
    // The snapshot as this store writes it is read line by line (never one string of the whole file);
    // any other file (older layout, hand-made, corrupt, a symlink) goes through Store, which parses it
    // whole, moves a corrupt or refused file aside and starts from defaults.
    const streamed = await readSnapshotLines<R, K, M>(file, opts.key, records, opts.revive)
    let legacy = false
    let data: Snapshot<R, M> & Record<string, unknown>
    if (streamed) data = { meta: streamed.meta, g: streamed.g, records: [] }
    else {
      records.clear()
      const snapshot = await Store.open<Snapshot<R, M>>(file, { meta: metaDefaults, records: [] }, { log: opts.log, now: opts.now })
      data = snapshot.data as Snapshot<R, M> & Record<string, unknown>
      legacy = opts.upgrade !== undefined && data.records.length === 0 && Object.keys(data).some((k) => k !== 'meta' && k !== 'records' && k !== 'g')
      const initial = legacy && opts.upgrade ? opts.upgrade(data) : data.records
      for (const r of Array.isArray(initial) ? initial : []) records.set(opts.key(r), r)
      data.records = [] // the Map is the live copy; the Store instance is dropped with its parsed file
    }
    const covered = typeof data.g === 'number' ? data.g : -1
    const journal = journalPath(file)
    const rotated = await rotatedJournals(file)
    // read before anything is opened for writing (a refused link is moved aside here)
    const current = await readJournal(journal, opts)
    const fh = await openJournal(journal, opts)
    const store = new JournalStore<R, K, M>(file, fh, opts, { ...metaDefaults, ...(data.meta ?? {}) }, records)
    let maxGen = covered
    for (const { gen, path } of rotated) {
      if (gen <= covered) { await rm(path, { force: true }); continue } // folded; its removal was cut short
      for (const op of (await readJournal(path, opts)).ops) store.apply(op)
      maxGen = Math.max(maxGen, gen)
    }
    const stale = current.gen !== undefined && current.gen <= covered
    if (!stale) for (const op of current.ops) store.apply(op)
    const headerless = current.gen === undefined && current.ops.length > 0
    if (stale || current.gen === undefined) {
      // a stale journal (covered by the snapshot) or a torn/empty one starts over with a generation line
      if (stale || !headerless) {
        await fh.truncate(0)
        store.gen = Math.max(maxGen, current.gen ?? -1) + 1
        await store.writeGeneration()
      } else {
        if (current.torn) await fh.truncate(current.keepBytes)
        store.gen = maxGen + 1 // named so when rotated; its lines are replayed whatever the snapshot covers
        store.journalLines = current.ops.length
        store.journalBytes = current.keepBytes
      }
    } else {
      if (current.torn) await fh.truncate(current.keepBytes)
      store.gen = current.gen
      store.journalLines = current.ops.length
      store.journalBytes = current.keepBytes
    }
    if (legacy) await store.fold() // rewrite in the current layout once (the old keys go)
    else if (rotated.some((r) => r.gen > covered) || headerless) store.startFold() // in the background
    return store
  }

  get size (): number { return this.records.size }
  get meta (): Readonly<M> { return this.currentMeta }
  get (id: K): R | undefined { return this.records.get(id) }
  has (id: K): boolean { return this.records.has(id) }
  values (): IterableIterator<R> { return this.records.values() }
  /**
   * The storage port's change feed (lib/storage/records.ts): a store of one data folder has no other
   * writer, so the listener is never called.
   */
  onRemote (_listener: (key: K, record: R | undefined) => void): () => void { return () => undefined }
  /** The last completed fold (undefined before the first). */
  get lastFold (): FoldReport | undefined { return this.report }

  /** Stores the record whole (optionally with a meta patch in the same line); resolves once on disk. */
  put (rec: R, metaPatch?: Partial<M>): Promise<void> {
    const op: Op<R, K, M> = metaPatch ? { p: rec, m: metaPatch } : { p: rec }
    this.apply(op)
    return this.enqueue(op)
  }

  /**
   * Appends items to the list `field` of a record, keeping only the last `max` when given, and sets the
   * fields of `set`; journals only the new items. False (nothing written) when the record is unknown.
   */
  async appendTo<F extends ListField<R>>(id: K, field: F, items: NonNullable<R[F]>, opts: { max?: number; set?: Partial<R> } = {}): Promise<boolean> {
    if (!this.records.has(id)) return false
    const a: Delta<K> = { k: id, f: field, i: items as unknown[] }
    if (opts.max !== undefined) a.n = opts.max
    if (opts.set) a.s = opts.set as Record<string, unknown>
    const op: Op<R, K, M> = { a }
    this.apply(op)
    await this.enqueue(op)
    return true
  }

  /** Sets some fields of a record (a small journal line); false when the record is unknown. */
  async patch (id: K, set: Partial<R>): Promise<boolean> {
    if (!this.records.has(id)) return false
    const op: Op<R, K, M> = { a: { k: id, s: set as Record<string, unknown> } }
    this.apply(op)
    await this.enqueue(op)
    return true
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

  /**
   * Takes `count` consecutive numbers from the meta counter `field` (1 when unset): the first is answered.
   * Not waiting for the counter's line: it is written before (with) the record the caller puts next, so
   * no record can outlive it in a crash; a number taken and never used is only a gap.
   */
  reserve (field: NumberField<M>, count = 1): Promise<number> {
    const first = Math.max(Number(this.currentMeta[field] ?? 1), 1)
    const patch = Object.fromEntries([[field, first + count]]) as Partial<M>
    this.setMeta(patch).catch(() => undefined) // a failed write is logged by the store
    return Promise.resolve(first)
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

  /** Folds the journal into the snapshot now (after the pending writes); resolves with what it did. */
  async fold (): Promise<FoldReport | undefined> {
    await this.folding
    this.startFold()
    await this.chain
    await this.folding
    return this.report
  }

  /** Resolves once no write is pending and no fold is running. */
  async idle (): Promise<void> {
    do {
      await this.chain
      await this.folding
    } while (this.scheduled || this.folding !== undefined)
  }

  /**
   * Waits for pending writes and releases the file. Nothing is folded here: the journal is already
   * durable and is replayed at the next open; a fold under way is abandoned.
   */
  async close (): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.chain
    this.abortFold = true
    await this.folding
    await this.fh.close()
  }

  private apply (op: Op<R, K, M>): void {
    if (op.c === 1) this.records.clear()
    if (op.p !== undefined) this.records.set(this.opts.key(op.p), op.p)
    if (op.d !== undefined) this.records.delete(op.d)
    if (op.a !== undefined) this.applyDelta(op.a)
    if (op.m !== undefined) this.currentMeta = { ...this.currentMeta, ...op.m }
  }

  // A new record object (never changed in place: a fold under way may be writing the old one out).
  private applyDelta (a: Delta<K>): void {
    const rec = this.records.get(a.k)
    if (!rec) return // deleted meanwhile (or before, at replay)
    const next: Record<string, unknown> = { ...rec, ...(a.s ?? {}) }
    if (a.f !== undefined && Array.isArray(a.i)) {
      const old = (rec as Record<string, unknown>)[a.f]
      let list = (Array.isArray(old) ? old : []).concat(a.i)
      if (a.n !== undefined && list.length > a.n) list = list.slice(list.length - Math.max(0, a.n))
      next[a.f] = list
    }
    this.records.set(a.k, next as R)
  }

  private enqueue (op: Op<R, K, M>): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${basename(this.file)} is closed`))
    const done = new Promise<void>((resolve, reject) => { this.pending.push({ line: JSON.stringify(op) + '\n', resolve, reject }) })
    if (!this.scheduled) {
      this.scheduled = true
      this.chain = this.chain.then(() => this.drain())
    }
    return done
  }

  // Runs on the chain, so appends and journal rotations never overlap; everything queued meanwhile is one batch.
  private async drain (): Promise<void> {
    this.scheduled = false
    const batch = this.pending
    this.pending = []
    if (!(await this.write(batch))) return
    if (this.folding === undefined && !this.closed &&
      (this.journalLines >= Math.max(this.opts.compactAfter ?? 2000, this.records.size / 2) || this.journalBytes >= (this.opts.compactBytes ?? 16 * 1024 * 1024))) {
      await this.rotate().catch((err: unknown) => this.opts.log?.error(`Could not fold ${basename(this.file)}`, {}, err))
    }
  }

  /** Appends and syncs a batch, then settles its callers; false when it failed (callers rejected). */
  private async write (batch: Pending[]): Promise<boolean> {
    if (batch.length === 0) return true
    const chunk = batch.map((b) => b.line).join('')
    try {
      await this.fh.write(chunk)
      if (this.opts.sync !== false) await this.fh.datasync()
    } catch (err) {
      this.opts.log?.error(`Could not write ${basename(this.file)}`, {}, err)
      for (const b of batch) b.reject(err)
      return false
    }
    for (const b of batch) b.resolve()
    this.journalLines += batch.length
    this.journalBytes += Buffer.byteLength(chunk)
    return true
  }

  /** Queues a rotation on the chain (between appends); the snapshot is then written in the background. */
  private startFold (): void {
    this.chain = this.chain.then(() => this.rotate()).catch((err: unknown) => this.opts.log?.error(`Could not fold ${basename(this.file)}`, {}, err))
  }

  // Closes the journal of generation `g` as `<name>.journal.<g>.jsonl`, opens generation g+1, then
  // writes the records as they are now (the snapshot covers g) without holding up the appends.
  private async rotate (): Promise<void> {
    if (this.folding !== undefined || this.closed) return
    // The state captured here is exactly that of every line queued so far: those lines go to the old
    // journal (which the snapshot covers), every later change to the new one. Records are replaced on
    // change, never changed in place, so the array keeps the state of this moment.
    const batch = this.pending
    this.pending = []
    const records = Array.from(this.records.values())
    const meta = { ...this.currentMeta }
    if (!(await this.write(batch))) return
    const covers = this.gen
    const journal = journalPath(this.file)
    await this.fh.close()
    try { await rename(journal, rotatedPath(this.file, covers)) } finally { this.fh = await openJournal(journal, this.opts) }
    this.gen = covers + 1
    this.journalLines = 0
    this.journalBytes = 0
    await this.writeGeneration()
    this.abortFold = false
    this.folding = this.writeSnapshot(records, meta, covers)
      .catch((err: unknown) => this.opts.log?.error(`Could not fold ${basename(this.file)}`, {}, err))
      .finally(() => { this.folding = undefined })
  }

  private async writeGeneration (): Promise<void> {
    await this.fh.write(`{"g":${this.gen}}\n`)
    if (this.opts.sync !== false) await this.fh.datasync()
  }

  // Streams {meta, g, records} to a fresh temp file in chunks, syncs it and renames it over the snapshot.
  private async writeSnapshot (records: R[], meta: M, covers: number): Promise<void> {
    const started = performance.now()
    const tmp = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
    const out = await openFile(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, FILE_MODE)
    let chunks = 0
    let bytes = 0
    let done = false
    let longestSliceMs = 0
    let unsynced = 0
    let slice = performance.now()
    try {
      let buf = snapshotHead(meta, covers)
      for (let i = 0; i < records.length; i++) {
        buf += (i > 0 ? ',\n' : '') + JSON.stringify(records[i])
        if (buf.length >= CHUNK_CHARS) {
          const pending = out.write(buf)
          longestSliceMs = Math.max(longestSliceMs, performance.now() - slice)
          const written = (await pending).bytesWritten
          bytes += written
          unsynced += written
          buf = ''
          chunks++
          // flushed as it goes: one sync of the whole file at the end would hold up the journal's syncs
          if (unsynced >= SYNC_EVERY && this.opts.sync !== false) { await out.datasync(); unsynced = 0 }
          await yieldLoop()
          slice = performance.now()
          if (this.abortFold) return
        }
      }
      bytes += (await out.write(buf + SNAPSHOT_TAIL)).bytesWritten
      chunks++
      await out.datasync()
      await out.close()
      done = true
      await rename(tmp, this.file)
    } finally {
      if (!done) {
        await out.close().catch(() => undefined)
        await rm(tmp, { force: true }).catch(() => undefined)
      }
    }
    for (const r of await rotatedJournals(this.file)) if (r.gen <= covers) await rm(r.path, { force: true })
    this.report = { records: records.length, chunks, bytes, ms: performance.now() - started, longestSliceMs }
  }
}

// The snapshot layout: a head line, one record per line (JSON never holds a raw newline), a tail line.
// Still one JSON document, so the older reader (Store, a whole-file parse) reads it too.
const snapshotHead = (meta: object, covers: number): string => `{"meta":${JSON.stringify(meta)},"g":${covers},"records":[\n`
const SNAPSHOT_TAIL = '\n]}\n'
/** A head line longer than this is not one: the file is of another layout. */
const MAX_HEAD_BYTES = 4 * 1024 * 1024

/**
 * Reads a snapshot of the line layout into `into`, a chunk at a time; undefined (and `into` partly
 * filled) for anything else: no file, a symlink, another layout, a torn or corrupt file.
 */
async function readSnapshotLines<R, K, M> (file: string, key: (r: R) => K, into: Map<K, R>, revive?: (r: R) => R): Promise<{ meta: M; g: number } | undefined> {
  let fh: FileHandle
  try { fh = await openFile(file, constants.O_RDONLY | NOFOLLOW | constants.O_NONBLOCK) } catch { return undefined }
  try {
    if (!(await fh.stat()).isFile()) return undefined
    let head: { meta: M; g: number } | undefined
    let ended = false
    // The unfinished line's pieces, joined only once its newline arrives: a long line costs its length,
    // not its length times the number of chunks (a compact single-line file of the older layout).
    let pending: Buffer[] = []
    let pendingBytes = 0
    const chunk = Buffer.allocUnsafe(1024 * 1024)
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      const read = chunk.subarray(0, bytesRead)
      const firstNl = read.indexOf(0x0a)
      if (firstNl === -1) {
        pending.push(Buffer.from(read)) // a copy: `chunk` is reused by the next read
        pendingBytes += bytesRead
        // the head line is short: a file whose first line runs on is another layout (whole-file parse)
        if (head === undefined && pendingBytes > MAX_HEAD_BYTES) return undefined
        continue
      }
      const buf = pending.length ? Buffer.concat([...pending, read]) : read
      pending = []
      pendingBytes = 0
      let start = 0
      for (let nl = buf.indexOf(0x0a, start); nl !== -1; start = nl + 1, nl = buf.indexOf(0x0a, start)) {
        const line = buf.toString('utf8', start, nl)
        if (ended) { if (line.trim() !== '') return undefined; continue }
        if (head === undefined) {
          if (!line.startsWith('{"meta":') || !line.endsWith('"records":[')) return undefined
          const parsed = JSON.parse(line + ']}') as { meta?: M; g?: unknown }
          if (typeof parsed.g !== 'number' || typeof parsed.meta !== 'object' || parsed.meta === null) return undefined
          head = { meta: parsed.meta, g: parsed.g }
        } else if (line === ']}') ended = true
        else {
          const parsed = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as R
          const rec = revive ? revive(parsed) : parsed
          into.set(key(rec), rec)
        }
      }
      if (start < buf.length) { pending = [Buffer.from(buf.subarray(start))]; pendingBytes = buf.length - start } // a copy, as above
    }
    if (Buffer.concat(pending).toString('utf8').trim() !== '') return undefined
    return ended ? head : undefined
  } catch { return undefined } finally { await fh.close() }
}

export const journalPath = (file: string): string => file.replace(/\.json$/, '') + '.journal.jsonl'
const rotatedPath = (file: string, gen: number): string => `${file.replace(/\.json$/, '')}.journal.${gen}.jsonl`

/** Rotated journals still to be folded, oldest generation first. */
async function rotatedJournals (file: string): Promise<Array<{ gen: number; path: string }>> {
  const base = basename(file).replace(/\.json$/, '')
  let names: string[]
  try { names = await readdir(dirname(file)) } catch { return [] }
  const found: Array<{ gen: number; path: string }> = []
  for (const n of names) {
    if (!n.startsWith(base + '.journal.')) continue
    const m = /^\.journal\.(\d+)\.jsonl$/.exec(n.slice(base.length))
    if (m) found.push({ gen: Number(m[1]), path: join(dirname(file), n) })
  }
  return found.sort((a, b) => a.gen - b.gen)
}

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

interface JournalRead<R, K, M> { ops: Array<Op<R, K, M>>; gen: number | undefined; torn: boolean; keepBytes: number }

async function readJournal<R, K, M> (journal: string, opts: JournalStoreOptions<R, K, M>): Promise<JournalRead<R, K, M>> {
  let buf: Buffer | undefined
  try { buf = await readPrivateFile(journal) } catch (err) {
    if (!(err instanceof UnsafeFileError)) throw err
    await refuse(journal, opts, err)
  }
  if (!buf) return { ops: [], gen: undefined, torn: false, keepBytes: 0 }
  const end = buf.lastIndexOf(0x0a) + 1 // bytes after the last newline belong to an append that was never acked
  const ops: Array<Op<R, K, M>> = []
  let gen: number | undefined
  let bad = 0
  for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
    if (!line) continue
    let op: Op<R, K, M>
    try { op = JSON.parse(line) as Op<R, K, M> } catch { bad++; continue }
    if (typeof op.g === 'number' && ops.length === 0 && gen === undefined) gen = op.g
    else ops.push(op)
  }
  if (bad > 0) {
    const aside = `${journal.replace(/\.jsonl$/, '')}.corrupt-${(opts.now ?? Date.now)()}.jsonl`
    await writePrivateFile(aside, buf)
    opts.log?.error(`${bad} unreadable line(s) in ${basename(journal)} skipped; a copy was set aside as ${basename(aside)}`, { file: basename(journal) })
  }
  return { ops, gen, torn: end < buf.length, keepBytes: end }
}
