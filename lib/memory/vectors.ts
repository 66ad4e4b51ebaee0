// Memories found by meaning (lib/memory/README.md, "Recall by meaning"): a vector of each live memory's text,
// made in the background through the knowledge domain's embeddings endpoint (its client, its batch limit
// learned, its int8 index and vectors log: `Embedder`, reached through the runtime), kept in the data folder
// (`memory-vectors.bin` + `.json`). A memory's vector is dropped as it is deleted, erased or rewritten,
// so a search never returns what is gone. A query the endpoint cannot embed, or embeddings off, answers
// undefined: the search is BM25 alone then (logged once until it works again).
import { createHash } from 'node:crypto'
import type { Clock } from '../core/clock.js'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import type { HeldMeta, VectorBackend } from '../knowledge/vectors/backend.js'
import type { Fused, Ranked } from '../knowledge/vectors/fusion.js'
import type { VectorStore } from '../knowledge/vectors/store.js'
import type { Embedder } from '../knowledge/vectors/vectors.js'
import type { MemoryRecord } from './types.js'

/** Texts sent in one request round (the client cuts it to the endpoint's batch size). */
const ROUND_TEXTS = 256
/** Wait before a failed background round is tried again. */
const RETRY_MS = 60_000
/** Longest wait for the message's vector in a chat turn (one attempt). */
const QUERY_TIMEOUT_MS = 8_000
/** Records looked at between two yields of the start's check (the event loop stays free). */
const SYNC_SLICE = 2_000

interface MemoryVectorDeps {
  clock: Clock
  log: PluginLogger
  /** the live memory (undefined: gone or deleted) */
  get: (id: number) => MemoryRecord | undefined
  /** every live memory (the start's check, another model) */
  live: () => Iterable<MemoryRecord>
  /** least cosine similarity of a memory found by meaning (memory.vectorMinScore) */
  minScore: () => number
}

/** What a memory's vector was made from: its text. */
const fingerprintOf = (text: string): string => createHash('sha1').update(text).digest('base64url')
const keyOf = (id: number): string => String(id)

export class MemoryVectors {
  private readonly index: VectorStore
  private readonly file: VectorBackend
  private meta: HeldMeta = { model: '', dims: 0 }
  private readonly pending = new Set<number>()
  private loaded = false
  private running = false
  private closed = false
  private retryTimer: NodeJS.Timeout | undefined
  /** the reason recall is BM25 alone, as last logged ('' once it works) */
  private fallback = ''
  private readonly idleWaiters: Array<() => void> = []
  private readonly loading: Promise<void>

  /** Opens the vectors kept in `file` (read in the background; searches meanwhile are BM25 alone). */
  constructor (private readonly kit: Embedder, file: string, metaFile: string, private readonly deps: MemoryVectorDeps) {
    this.index = kit.store()
    this.file = kit.file(file, metaFile)
    this.loading = this.load()
      .catch((err: unknown) => { deps.log.error('Reading the memory vectors failed; they are made again', {}, err) })
      .finally(() => { this.loaded = true })
      .then(() => this.sync())
  }

  /** Memories holding a vector. */
  get size (): number { return this.index.size }

  private async load (): Promise<void> {
    const meta = await this.file.readMeta()
    const key = this.kit.key()
    if (key !== undefined && meta?.key === key) {
      this.meta = meta
      for (const d of (await this.file.load(key)).values()) this.index.put(d)
    } else await this.file.clear() // off, or another model: a model set later embeds every memory
  }

  /** At start and for another model: every live memory without a current vector is embedded (checked in slices). */
  private async sync (): Promise<void> {
    const key = this.kit.key()
    if (this.closed || key === undefined) return
    if (this.meta.key !== key) { this.reset(key); return }
    let n = 0
    for (const r of this.deps.live()) {
      if (this.index.fingerprint(keyOf(r.id)) !== fingerprintOf(r.content)) this.pending.add(r.id)
      else if (this.index.docPreset(keyOf(r.id)) !== r.userId) this.index.setPreset(keyOf(r.id), r.userId)
      if (++n % SYNC_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    }
    // vectors of memories gone meanwhile (a crash before their removal was written)
    for (const id of this.index.docIds()) if (!this.deps.get(Number(id))) this.removed(Number(id))
    this.kick()
  }

  /** Another model (or address, dimensions): every vector dropped, every memory embedded again. */
  private reset (key: string): void {
    this.index.reset()
    this.pending.clear()
    this.meta = { key, model: '', dims: 0 }
    void this.file.clear().then(() => this.file.writeMeta(this.meta)).catch((err: unknown) => this.deps.log.error('Clearing the memory vectors failed', {}, err))
    void this.sync()
  }

  /** knowledge.embedding changed: the vectors of another model are dropped; set again, the missing ones made. */
  settingsChanged (): void {
    if (!this.loaded || this.closed) return
    const key = this.kit.key()
    if (key === undefined) { this.pending.clear(); return }
    if (this.meta.key !== key) this.reset(key)
    else this.kick()
  }

  /** A memory was written: embedded again unless its text is the same (its user kept up to date). */
  changed (r: MemoryRecord): void {
    if (this.closed || !this.loaded || this.kit.key() === undefined) return // (the start's check finds it)
    const id = keyOf(r.id)
    if (this.index.fingerprint(id) === fingerprintOf(r.content)) { this.index.setPreset(id, r.userId); return }
    this.index.remove(id) // a rewritten memory's old vector is never served
    this.pending.add(r.id)
    queueMicrotask(() => this.kick()) // after the caller has written it
  }

  /** A memory was deleted or erased: its vector goes at once. */
  removed (id: number): void {
    this.pending.delete(id)
    if (!this.index.has(keyOf(id))) return
    this.index.remove(keyOf(id))
    void this.file.delete(keyOf(id)).catch((err: unknown) => this.deps.log.error('Writing the memory vectors failed', {}, err))
  }

  /**
   * The memories among `ids()` (the user's usable ones, asked after the wait for the message's vector)
   * nearest to `text`, best first, at least memory.vectorMinScore similar; undefined when there is no
   * vector side (BM25 alone then).
   */
  async query (text: string, userId: string, ids: () => ReadonlySet<string>, limit: number): Promise<Ranked[] | undefined> {
    const key = this.kit.key()
    if (key === undefined) { this.fellBack('knowledge.embedding is not set', 'info'); return undefined }
    if (!this.loaded || this.meta.key !== key || this.index.size === 0) { this.settingsChanged(); return undefined }
    let v: number[]
    try {
      [v] = await this.kit.embed([text], { timeoutMs: QUERY_TIMEOUT_MS, attempts: 1 }) as [number[]]
    } catch (err) {
      this.fellBack(`the embeddings endpoint failed: ${errorText(err)}`, 'warn')
      return undefined
    }
    if (this.fallback !== '') this.deps.log.info('Memory recall is hybrid again (BM25 and vectors)')
    this.fallback = ''
    const min = this.deps.minScore()
    const usable = ids()
    if (usable.size === 0) return []
    return this.index.search(v, { limit, presetId: userId, docs: usable }).filter((h) => h.score >= min).map((h) => ({ docId: h.docId, n: 0, score: h.score }))
  }

  /** The word and meaning rankings joined as the knowledge base joins them (knowledge.fusion). */
  fuse (words: readonly Ranked[], meaning: readonly Ranked[]): Fused[] { return this.kit.fuse(words, meaning) }

  /** Logged once per reason (the endpoint's error text may vary: one warning until it works again). */
  private fellBack (why: string, level: 'info' | 'warn'): void {
    if (this.fallback !== '' && (this.fallback === why || level === 'warn') && this.fallbackLevel === level) return
    this.fallback = why
    this.fallbackLevel = level
    this.deps.log[level]('Memory recall uses BM25 alone (no vectors)', { reason: why })
  }
  private fallbackLevel: 'info' | 'warn' = 'info'

  /** Resolves once the start's check is over and nothing is left to embed (a failing endpoint keeps it waiting). */
  async whenIdle (): Promise<void> {
    await this.loading
    if (this.pending.size === 0 && !this.running) return
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve))
  }

  async close (): Promise<void> {
    this.closed = true
    await this.loading
    if (this.retryTimer) this.deps.clock.clearTimeout(this.retryTimer)
    await this.file.close()
  }

  private kick (): void {
    if (this.running || this.closed || this.retryTimer || this.pending.size === 0) { this.settle(); return }
    void this.run()
  }

  private settle (): void {
    if (this.pending.size === 0 && !this.running) for (const fn of this.idleWaiters.splice(0)) fn()
  }

  /** Embeds pending memories, a round of texts at a time, until none is left. */
  private async run (): Promise<void> {
    this.running = true
    let round: Array<{ id: number; fp: string; text: string }> = []
    try {
      while (this.pending.size > 0 && !this.closed) {
        const key = this.kit.key()
        if (key === undefined) { this.pending.clear(); break }
        if (this.meta.key !== key) { this.running = false; this.reset(key); return }
        round = []
        for (const id of this.pending) {
          this.pending.delete(id)
          const r = this.deps.get(id)
          if (!r) continue
          const fp = fingerprintOf(r.content)
          if (this.index.fingerprint(keyOf(id)) === fp) continue
          round.push({ id, fp, text: r.content })
          if (round.length >= ROUND_TEXTS) break
        }
        if (round.length === 0) continue
        const vectors = await this.kit.embed(round.map((x) => x.text))
        if (this.meta.key !== key) continue // another model meanwhile: the next turn starts over
        const dims = vectors[0]?.length ?? 0
        if (this.index.dims !== 0 && dims !== this.index.dims) throw new Error(`the endpoint answered vectors of ${dims} dimensions, the memories' have ${this.index.dims}`)
        for (const [i, x] of round.entries()) {
          const now = this.deps.get(x.id)
          // deleted or rewritten while its vector was made: gone, or pending again
          if (!now || fingerprintOf(now.content) !== x.fp) continue
          const d = this.kit.quantise(keyOf(x.id), now.userId, x.fp, [vectors[i]!], dims)
          this.index.put(d)
          await this.file.put(d, key)
        }
        if (this.meta.dims !== dims) { this.meta.dims = dims; await this.file.writeMeta(this.meta) }
      }
      round = []
    } catch (err) {
      for (const x of round) this.pending.add(x.id)
      this.deps.log.warn('Embedding memories failed; tried again in a minute', { error: errorText(err) })
      this.retryTimer = this.deps.clock.setTimeout(() => { this.retryTimer = undefined; this.kick() }, RETRY_MS)
    } finally {
      this.running = false
    }
    this.kick()
  }
}
