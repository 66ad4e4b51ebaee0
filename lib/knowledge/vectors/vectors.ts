// The meaning side of the knowledge base (lib/knowledge/README.md, "Found by meaning"): passage
// vectors kept in step with the ready documents by a background job (one document's passages at a
// time, batched across documents), held in a VectorStore and the data folder's log (file.ts), and
// the query's vector at search time. Another model, address or dimension drops every vector and
// re-embeds all in the background; `status()` tells how far. A query the endpoint cannot embed
// answers undefined (the search falls back to BM25) and is logged once until it works again.
import { createHash } from 'node:crypto'
import type { Clock } from '../../core/clock.js'
import { errorText } from '../../core/errors.js'
import type { PluginLogger } from '../../core/logger.js'
import type { OutboundAccess } from '../../web/outbound.js'
import { EmbeddingClient, embeddingConfigured, type EmbeddingSettings } from './client.js'
import { VectorFile, type VectorMeta } from './file.js'
import type { FusionSettings, Ranked } from './fusion.js'
import type { RerankSettings } from './rerank.js'
import { VectorStore } from './store.js'

export interface SearchSettings { embedding: EmbeddingSettings; fusion: FusionSettings; rerank: RerankSettings }
/** What a document gives to be embedded: its passages' texts (title and heading path included). */
export interface EmbedSource { presetId: string; texts: string[]; fingerprint: string }
export interface EmbeddingStatus {
  state: 'off' | 'loading' | 'idle' | 'embedding' | 'error'
  /** documents embedded in this run, and the run's documents in all */
  done: number
  total: number
  model: string
  /** passages with a vector */
  vectors: number
  dimensions: number
  batchSize: number
  error?: string
}
export interface VectorDeps {
  clock: Clock
  log: PluginLogger
  settings: () => SearchSettings
  access: () => OutboundAccess
  /** a ready document's passages to embed (undefined: gone or not ready) */
  source: (docId: string) => EmbedSource | undefined
  /** every ready document (a model change re-embeds them all) */
  readyIds: () => Iterable<string>
}

/** Texts gathered over documents before a request round (a few batches). */
const ROUND_TEXTS = 256
/** Wait before a failed background round is tried again. */
const RETRY_MS = 60_000
/** Longest wait for the query's vector in a chat turn. */
const QUERY_TIMEOUT_MS = 8_000

/** A stable fingerprint of a document's passages as embedded. */
export function fingerprintOf (texts: readonly string[]): string {
  const h = createHash('sha1')
  for (const t of texts) h.update(t).update('\u0000')
  return h.digest('base64url')
}

/** What vectors are comparable across: address, model, dimensions asked. */
const keyOf = (s: EmbeddingSettings): string => `${s.baseUrl.trim().replace(/\/+$/, '')}|${s.model.trim()}|${s.dimensions ?? ''}`

export class KnowledgeVectors {
  readonly store = new VectorStore()
  private meta: VectorMeta & { key?: string } = { model: '', dims: 0 }
  private readonly pending = new Set<string>()
  private done = 0
  private running = false
  private closed = false
  private error: string | undefined
  private retryTimer: NodeJS.Timeout | undefined
  private queryFailing = false
  private loaded = false

  private constructor (private readonly file: VectorFile, readonly deps: VectorDeps) {}

  /**
   * Opens the vectors kept in the data folder; those of another model are dropped. The file is read in
   * the background (`loading` resolves then): a start never waits for it, searches meanwhile use BM25.
   */
  static open (file: string, metaFile: string, deps: VectorDeps): KnowledgeVectors {
    const v = new KnowledgeVectors(new VectorFile(file, metaFile), deps)
    v.loading = v.load().catch((err: unknown) => { deps.log.error('Reading the knowledge vectors failed; they are made again', {}, err) })
      .finally(() => { v.loaded = true })
    return v
  }

  /** Resolves once the vectors file is read. */
  loading: Promise<void> = Promise.resolve()

  private async load (): Promise<void> {
    const meta = await this.file.readMeta()
    const s = this.deps.settings().embedding
    if (meta && embeddingConfigured(s) && (meta as { key?: string }).key === keyOf(s)) {
      this.meta = meta
      for (const d of (await this.file.load()).values()) this.store.put(d)
    } else await this.file.clear() // off, or another model: nothing held (a model set later embeds everything)
  }

  get configured (): boolean { return embeddingConfigured(this.deps.settings().embedding) }

  private client (): EmbeddingClient { return this.clientFor(this.deps.settings().embedding) }

  /** Checks the settings against the vectors held: another model (or address, dimensions) re-embeds everything. */
  settingsChanged (): void {
    if (!this.loaded || this.closed) return
    const s = this.deps.settings().embedding
    if (!embeddingConfigured(s)) { this.pending.clear(); return }
    const key = keyOf(s)
    if (this.meta.key === key) { this.kick(); return }
    this.store.reset()
    this.meta = { key, model: s.model, dims: 0 }
    this.done = 0
    this.finished = false
    this.error = undefined
    void this.file.clear().then(() => this.file.writeMeta(this.meta)).catch((err: unknown) => this.deps.log.error('Clearing the knowledge vectors failed', {}, err))
    for (const id of this.deps.readyIds()) this.pending.add(id)
    this.kick()
  }

  /** A document became ready or changed: embedded again unless its passages are the same (a preset change is applied in place). */
  changed (docId: string, src: EmbedSource): void {
    if (this.closed || !this.loaded || !this.configured) return // (sync() at the end of the start finds it)
    if (this.store.fingerprint(docId) === src.fingerprint) { this.store.setPreset(docId, src.presetId); return }
    this.removed(docId) // stale vectors are never served
    this.pending.add(docId)
    queueMicrotask(() => this.kick()) // after the caller has written the document
  }

  /** A document left (or is no longer ready): its vectors are dropped at once. */
  removed (docId: string): void {
    this.pending.delete(docId)
    if (!this.store.has(docId)) return
    this.store.remove(docId)
    void this.file.delete(docId).catch((err: unknown) => this.deps.log.error('Writing the knowledge vectors failed', {}, err))
  }

  /** The ready documents at start: those without current vectors are embedded in the background. */
  sync (): void {
    this.syncedNow()
    if (!this.configured) return
    if (this.meta.key !== keyOf(this.deps.settings().embedding)) { this.settingsChanged(); return }
    const ready = new Set(this.deps.readyIds())
    for (const id of ready) {
      const src = this.deps.source(id)
      if (src && this.store.fingerprint(id) !== src.fingerprint) this.pending.add(id)
    }
    // vectors of documents gone meanwhile (a crash before their removal was written)
    for (const id of this.store.docIds()) if (!ready.has(id)) this.removed(id)
    this.kick()
  }

  status (): EmbeddingStatus {
    const s = this.deps.settings().embedding
    const on = embeddingConfigured(s)
    const state = !on ? 'off' : !this.loaded ? 'loading' : this.error !== undefined ? 'error' : this.pending.size > 0 || this.running ? 'embedding' : 'idle'
    return {
      state, done: this.done, total: this.done + this.pending.size + (this.running ? this.inFlight : 0), model: s.model,
      vectors: this.store.size, dimensions: this.store.dims, batchSize: s.batchSize > 0 ? s.batchSize : (this.meta.key === keyOf(s) ? this.meta.batchSize ?? 0 : 0),
      ...(this.error !== undefined ? { error: this.error } : {})
    }
  }

  /** The passages nearest the query, or undefined (embedding off, or the endpoint failed: BM25 alone then). */
  async query (text: string, opts: { limit: number; presetId?: string; docs?: ReadonlySet<string> }): Promise<Ranked[] | undefined> {
    const s = this.deps.settings().embedding
    if (!this.loaded || !embeddingConfigured(s) || this.meta.key !== keyOf(s) || this.store.size === 0) return undefined
    try {
      const [v] = await this.client().embed([text], { timeoutMs: QUERY_TIMEOUT_MS, attempts: 1 })
      this.queryFailing = false
      return this.store.search(v!, opts)
    } catch (err) {
      if (!this.queryFailing) this.deps.log.warn('The embeddings endpoint failed: knowledge searches use BM25 alone until it answers again', { error: errorText(err) })
      this.queryFailing = true
      return undefined
    }
  }

  /**
   * Tries the configured endpoint, or `other` settings: dimension, batch limit (learned unless
   * configured; remembered for the configured endpoint), latency of one text.
   */
  probe (other?: EmbeddingSettings): Promise<{ dimensions: number; batchSize: number; latencyMs: number }> {
    const mine = this.deps.settings().embedding
    if (!other || keyOf(other) === keyOf(mine)) {
      if (this.meta.key !== keyOf(mine)) this.settingsChanged()
      return (other ? this.clientFor(other) : this.client()).probe()
    }
    return new EmbeddingClient(other, { access: this.deps.access, clock: this.deps.clock }).probe()
  }

  private clientFor (s: EmbeddingSettings): EmbeddingClient {
    const learnedBatch = this.meta.key === keyOf(s) ? this.meta.batchSize : undefined
    return new EmbeddingClient(s, {
      access: this.deps.access, clock: this.deps.clock, ...(learnedBatch ? { learnedBatch } : {}),
      learned: (batch) => { if (this.meta.key === keyOf(s)) { this.meta.batchSize = batch; void this.file.writeMeta(this.meta).catch(() => {}) } }
    })
  }

  async close (): Promise<void> {
    this.closed = true
    await this.loading
    if (this.retryTimer) this.deps.clock.clearTimeout(this.retryTimer)
    await this.file.close()
  }

  private inFlight = 0
  /** the last run ended with nothing pending: the next one counts from 0 */
  private finished = true
  private readonly idleWaiters: Array<() => void> = []
  private kick (): void {
    if (this.running || this.closed || this.pending.size === 0 || this.retryTimer || !this.configured) return
    if (this.finished) { this.done = 0; this.finished = false }
    void this.run()
  }

  /** Embeds pending documents, a round of several documents' passages at a time, until none is left. */
  private async run (): Promise<void> {
    this.running = true
    let round: Array<{ id: string; src: EmbedSource }> = []
    try {
      while (this.pending.size > 0 && !this.closed && this.configured) {
        const s = this.deps.settings().embedding
        const key = keyOf(s)
        if (this.meta.key !== key) { this.running = false; this.settingsChanged(); return }
        round = []
        let texts = 0
        for (const id of this.pending) {
          this.pending.delete(id)
          const src = this.deps.source(id)
          if (!src) { this.removed(id); this.done++; continue }
          if (this.store.fingerprint(id) === src.fingerprint) { this.store.setPreset(id, src.presetId); this.done++; continue }
          round.push({ id, src })
          texts += src.texts.length
          if (texts >= ROUND_TEXTS) break
        }
        if (round.length === 0) continue
        this.inFlight = round.length
        const vectors = await this.client().embed(round.flatMap((r) => r.src.texts))
        if (this.meta.key !== key) continue // settings changed meanwhile: the next turn of the loop starts over
        const dims = vectors[0]?.length ?? 0
        if (this.store.dims !== 0 && dims !== this.store.dims) throw new Error(`嵌入服务返回了 ${dims} 维的向量，已有的是 ${this.store.dims} 维：请换模型后重新嵌入`)
        let at = 0
        for (const { id, src } of round) {
          const mine = vectors.slice(at, at + src.texts.length)
          at += src.texts.length
          const now = this.deps.source(id)
          // changed or removed while its vectors were made: pending again (or gone)
          if (!now || now.fingerprint !== src.fingerprint) continue
          const d = VectorStore.quantise(id, now.presetId, src.fingerprint, mine, dims)
          this.store.put(d)
          await this.file.put(d)
          this.done++
        }
        if (this.meta.dims !== dims) { this.meta.dims = dims; await this.file.writeMeta(this.meta) }
        this.inFlight = 0
        this.error = undefined
      }
    } catch (err) {
      for (const r of round) this.pending.add(r.id)
      this.inFlight = 0
      this.error = errorText(err)
      this.deps.log.warn('Embedding knowledge passages failed; tried again in a minute', { error: this.error })
      this.retryTimer = this.deps.clock.setTimeout(() => { this.retryTimer = undefined; this.kick() }, RETRY_MS)
    } finally {
      this.running = false
    }
    if (this.pending.size > 0 && !this.retryTimer && !this.closed) this.kick()
    else if (this.pending.size === 0) { this.finished = true; for (const fn of this.idleWaiters.splice(0)) fn() }
  }

  /** Resolves once the start is over (file read, ready documents checked) and nothing is left to embed; a failing endpoint keeps it waiting. */
  async whenIdle (): Promise<void> {
    await this.synced
    if (this.pending.size === 0 && !this.running) return
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve))
  }

  private syncedNow: () => void = () => {}
  /** the start's check of the ready documents is done (sync) */
  private readonly synced = new Promise<void>((resolve) => { this.syncedNow = resolve })
}
