// The meaning side of the knowledge base (lib/knowledge/README.md, "Found by meaning"): passage
// vectors kept in step with the ready documents by a background job (one document's passages at a
// time, batched across documents), held in a VectorStore and the data folder's log (file.ts), and
// the query's vector at search time. Another model, address or dimension drops every vector and
// re-embeds all in the background; `status()` tells how far. A query the endpoint cannot embed
// answers undefined (the search falls back to BM25) and is logged once until it works again.
// Shared (vectors/shared.ts, PostgreSQL): a document is embedded by the instance that claimed it; the
// others take its vectors from the store's notices (README, "Several instances").
import { createHash } from 'node:crypto'
import type { Clock } from '../../core/clock.js'
import { errorText } from '../../core/errors.js'
import type { PluginLogger } from '../../core/logger.js'
import type { OutboundAccess } from '../../web/outbound.js'
import { EmbeddingClient, embeddingConfigured, type EmbeddingSettings } from './client.js'
import type { HeldMeta, VectorBackend } from './backend.js'
import { VectorFile } from './file.js'
import { fuse, type Fused, type FusionSettings, type Ranked } from './fusion.js'
import type { RerankSettings } from './rerank.js'
import { normalised } from './quantise.js'
import { VectorStore, type DocVectors } from './store.js'

/**
 * The embeddings endpoint and the vector parts as another domain uses them through the runtime
 * (lib/memory/vectors.ts; README, "Found by meaning"): the same client (its batch limit learned and
 * kept), the int8 index, the log file and `knowledge.fusion`, never a second copy of them.
 */
export interface Embedder {
  /** what vectors are comparable across (address, model, dimensions); undefined: embeddings off */
  key(): string | undefined
  embed(texts: readonly string[], opts?: { timeoutMs?: number; attempts?: number }): Promise<number[][]>
  /** `knowledge.fusion` applied to a word and a meaning ranking */
  fuse(words: readonly Ranked[], meaning: readonly Ranked[]): Fused[]
  /** an empty int8 index, and float vectors in its record form */
  store(): VectorStore
  quantise: typeof VectorStore.quantise
  /** a vectors log in the data folder (file.ts) */
  file(file: string, metaFile: string): VectorBackend
}

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
  /** where the vectors are kept (the data folder, PostgreSQL records, pgvector) */
  storage: string
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
/** Shared: documents another instance claimed are looked at again after this (its claim then lapses if it died). */
const CLAIM_RECHECK_MS = 5 * 60_000

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
  private meta: HeldMeta = { model: '', dims: 0 }
  private readonly pending = new Set<string>()
  private done = 0
  private running = false
  private closed = false
  private error: string | undefined
  private retryTimer: NodeJS.Timeout | undefined
  private queryFailing = false
  private loaded = false
  private recheckTimer: NodeJS.Timeout | undefined
  private foreignWarned = false

  private constructor (private readonly file: VectorBackend, readonly deps: VectorDeps) {}

  /**
   * Opens the vectors kept in the data folder; those of another model are dropped. The file is read in
   * the background (`loading` resolves then): a start never waits for it, searches meanwhile use BM25.
   */
  static open (file: string, metaFile: string, deps: VectorDeps): KnowledgeVectors {
    return KnowledgeVectors.on(new VectorFile(file, metaFile), deps)
  }

  /** The vectors kept by `backend` (the data folder's files, or PostgreSQL: shared.ts). */
  static on (backend: VectorBackend, deps: VectorDeps): KnowledgeVectors {
    const v = new KnowledgeVectors(backend, deps)
    backend.onRemote?.((docId, d, key) => v.remote(docId, d, key))
    v.loading = v.load().catch((err: unknown) => { deps.log.error('Reading the knowledge vectors failed; they are made again', {}, err) })
      .finally(() => { v.loaded = true })
    return v
  }

  /** Resolves once the vectors file is read. */
  loading: Promise<void> = Promise.resolve()

  private async load (): Promise<void> {
    const meta = await this.file.readMeta()
    const s = this.deps.settings().embedding
    if (this.file.claim && embeddingConfigured(s)) {
      // shared: the vectors of the configured model, whoever made them (the meta is this instance's)
      const key = keyOf(s)
      this.meta = meta?.key === key ? meta : { key, model: s.model, dims: 0 }
      for (const d of (await this.file.load(key)).values()) this.store.put(d)
      return
    }
    if (meta && embeddingConfigured(s) && (meta as { key?: string }).key === keyOf(s)) {
      this.meta = meta
      for (const d of (await this.file.load(meta.key!)).values()) this.store.put(d)
    } else await this.file.clear() // off, or another model: nothing held (a model set later embeds everything)
  }

  get configured (): boolean { return embeddingConfigured(this.deps.settings().embedding) }

  /** For other domains' vectors (Embedder): this client and these settings. */
  readonly embedder: Embedder = {
    key: () => this.configured ? keyOf(this.deps.settings().embedding) : undefined,
    embed: (texts, opts) => this.client().embed(texts, opts),
    fuse: (words, meaning) => fuse(words, meaning, this.deps.settings().fusion),
    store: () => new VectorStore(),
    quantise: (...args) => VectorStore.quantise(...args),
    file: (file, metaFile) => new VectorFile(file, metaFile)
  }

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
    if (this.file.claim) { this.adopt(key); return }
    void this.file.clear().then(() => this.file.writeMeta(this.meta)).catch((err: unknown) => this.deps.log.error('Clearing the knowledge vectors failed', {}, err))
    for (const id of this.deps.readyIds()) this.pending.add(id)
    this.kick()
  }

  /** Shared, another model: the vectors other instances already made with it are taken, the rest embedded (claimed). */
  private adopt (key: string): void {
    this.loaded = false
    const writes = this.file.writeMeta(this.meta)
    this.loading = this.file.load(key).then(async (docs) => {
      await writes
      if (this.meta.key !== key) return
      for (const d of docs.values()) this.store.put(d)
    }).catch((err: unknown) => { this.deps.log.error('Reading the shared knowledge vectors failed; they are made again', {}, err) })
      .finally(() => { this.loaded = true; if (this.meta.key === key) this.sync() })
  }

  /** A document became ready or changed: embedded again unless its passages are the same (a preset change is applied in place). */
  changed (docId: string, src: EmbedSource): void {
    if (this.closed || !this.loaded || !this.configured) return // (sync() at the end of the start finds it)
    if (this.store.fingerprint(docId) === src.fingerprint) { this.store.setPreset(docId, src.presetId); return }
    this.removed(docId) // stale vectors are never served
    this.pending.add(docId)
    queueMicrotask(() => this.kick()) // after the caller has written the document
  }

  /** Shared: another instance's document is ready here; its vectors come from that instance (a preset change is applied in place). */
  seen (docId: string, src: EmbedSource): void {
    if (this.store.fingerprint(docId) === src.fingerprint) { this.store.setPreset(docId, src.presetId); return }
    this.store.remove(docId) // stale vectors are never served; the new ones follow (or came first: taken now)
    const key = this.meta.key
    if (!this.loaded || key === undefined || !this.file.current) return
    this.file.current(docId, key, src.fingerprint).then((d) => {
      const now = this.deps.source(docId)
      if (d && now?.fingerprint === d.fingerprint && this.meta.key === key && !this.closed) this.store.put({ ...d, presetId: now.presetId })
    }, (err: unknown) => { this.deps.log.warn(`Could not read another instance's knowledge vectors: ${errorText(err)}`) })
  }

  /** Shared: another instance removed a document (and its vectors): they leave the index here at once. */
  forget (docId: string): void {
    this.pending.delete(docId)
    this.store.remove(docId)
  }

  /** Shared: vectors another instance wrote or removed; those of another model are not comparable and not held. */
  private remote (docId: string, d: DocVectors | undefined, key: string | undefined): void {
    if (this.closed || !this.loaded) return // (load reads them)
    if (!d) { this.store.remove(docId); return }
    if (key !== this.meta.key) {
      this.store.remove(docId)
      if (!this.foreignWarned) this.deps.log.warn('Another instance embeds the knowledge base with another embedding model: set the same knowledge.embedding on every instance (its vectors are not used here)')
      this.foreignWarned = true
      return
    }
    const src = this.deps.source(docId)
    if (!src || src.fingerprint !== d.fingerprint) return // (the document changed meanwhile: newer vectors follow)
    this.store.put({ ...d, presetId: src.presetId })
    this.pending.delete(docId)
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
      if (!src) continue
      if (this.store.fingerprint(id) !== src.fingerprint) this.pending.add(id)
      else this.store.setPreset(id, src.presetId) // (shared: the preset may have changed elsewhere)
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
      vectors: this.store.size, dimensions: this.store.dims, batchSize: s.batchSize > 0 ? s.batchSize : (this.meta.key === keyOf(s) ? this.meta.batchSize ?? 0 : 0), storage: this.file.where,
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
      if (!this.file.search) return this.store.search(v!, opts)
      // pgvector: the database's index; only passages of documents held here, in the preset asked for
      const wanted = opts.presetId === undefined ? opts.limit : opts.limit * 4
      const hits = await this.file.search(normalised(v!), this.meta.key!, { ...opts, limit: wanted })
      return hits.filter((h) => this.store.has(h.docId) && (opts.presetId === undefined || this.store.docPreset(h.docId) === opts.presetId)).slice(0, opts.limit)
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
    if (this.recheckTimer) this.deps.clock.clearTimeout(this.recheckTimer)
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
        if (round.length > 0 && this.file.claim) round = await this.claimed(round, key)
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
          await this.file.put(d, key)
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

  /**
   * Shared: the documents of a round this instance may embed; those another instance claimed are counted
   * done (their vectors come by notice) and looked at again after CLAIM_RECHECK_MS, in case it died.
   */
  private async claimed (round: Array<{ id: string; src: EmbedSource }>, key: string): Promise<Array<{ id: string; src: EmbedSource }>> {
    const taken = await this.file.claim!(round.map((r) => ({ docId: r.id, fingerprint: r.src.fingerprint })), key)
    const elsewhere = round.filter((r) => !taken.has(r.id))
    this.done += elsewhere.length
    if (elsewhere.length > 0) this.recheck(elsewhere.map((r) => r.id))
    return round.filter((r) => taken.has(r.id))
  }

  private readonly rechecks = new Set<string>()
  private recheck (ids: string[]): void {
    for (const id of ids) this.rechecks.add(id)
    if (this.recheckTimer || this.closed) return
    this.recheckTimer = this.deps.clock.setTimeout(() => {
      this.recheckTimer = undefined
      const ids = [...this.rechecks]
      this.rechecks.clear()
      void Promise.all(ids.map(async (id) => {
        const src = this.deps.source(id)
        if (!src || this.store.fingerprint(id) === src.fingerprint) return
        // made by the other instance but not heard of here (a notice missed during a reload): taken, not paid again
        const made = this.meta.key === undefined ? undefined : await this.file.current?.(id, this.meta.key, src.fingerprint).catch(() => undefined)
        if (made && this.deps.source(id)?.fingerprint === made.fingerprint) this.store.put({ ...made, presetId: src.presetId })
        else this.pending.add(id)
      })).then(() => this.kick())
    }, CLAIM_RECHECK_MS)
  }

  /** Resolves once the start is over (file read, ready documents checked) and nothing is left to embed; a failing endpoint keeps it waiting. */
  async whenIdle (): Promise<void> {
    await this.synced
    await this.loading // (shared: another model's vectors being read, then checked)
    if (this.pending.size === 0 && !this.running) return
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve))
  }

  private syncedNow: () => void = () => {}
  /** the start's check of the ready documents is done (sync) */
  private readonly synced = new Promise<void>((resolve) => { this.syncedNow = resolve })
}
