// The knowledge base (lib/knowledge/README.md): documents in a JournalStore (`knowledge.json` +
// journal), each cut into passages (chunk.ts) held in one BM25 index (passages.ts). Pasted text is
// cut and indexed as it is written; a file or URL is recorded `processing` and read by the queue
// (one at a time), then `ready` or `failed`. The index of the documents present at start is built in
// the background in slices of a few milliseconds: a search never waits for it (meanwhile a search
// within a preset whose documents are small enough scores them on their own, any other answers from
// the passages indexed so far).
// On the storage port (lib/storage/README.md): `openShared` takes the stores `knowledge` and
// `knowledge-bases` from openRecords (the same files as before, or PostgreSQL shared by every instance).
// Each instance keeps its own passage index, following the other instances' changes through onRemote;
// only the instance that took an upload processes and embeds it (README, "Several instances").
import { randomUUID } from 'node:crypto'
import { AppError, badRequest, notFound } from '../core/errors.js'
import type { Clock } from '../core/clock.js'
import { JournalStore } from '../core/journal-store.js'
import { Listeners } from '../core/listeners.js'
import { RecencyOrder } from '../core/recency-order.js'
import type { PluginLogger } from '../core/logger.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import { snippet } from '../search/snippet.js'
import type { OutboundAccess } from '../web/outbound.js'
import { chunkText, type Chunk } from './chunk.js'
import { baseTitle, ExtractError, extractFile, typeOfName } from './extract/index.js'
import { pack, unpack } from './packed-text.js'
import { checked, checkedContent, checkedPreset, checkedTitle } from './checks.js'
import { baseOf, DEFAULT_BASE, KnowledgeBases } from './bases.js'
import { PassageIndex, type DocPassages, type PassageDoc } from './passages.js'
import { hybridSearch } from './vectors/hybrid.js'
import { fingerprintOf, KnowledgeVectors, type EmbedSource, type Embedder, type SearchSettings, type VectorDeps } from './vectors/vectors.js'
import { openSharedVectors } from './vectors/shared.js'
import { ProcessingQueue } from './queue.js'
import { fetchUrl, Uploads } from './sources.js'
import { head, plain, rankOf, statusOf, stored, type StoredDoc } from './stored.js'
import { EXTRACTED_MAX_CHARS, LIMITS, LIST_CHARS, type KnowledgeDoc, type KnowledgeHit, type KnowledgeListItem, type KnowledgeView, type PassageView } from './types.js'

const now = (clock: Clock): string => new Date(clock.now()).toISOString()
/** A record as read: its content packed where that saves memory (packed-text.ts). */
function revive (d: StoredDoc): StoredDoc {
  if (typeof d.content === 'string') d.content = pack(d.content)
  return d
}

/** Characters a search scores directly while the index is being built (a few milliseconds of work). */
const SCAN_CHARS = 150_000
/** Processing attempts a document gets: a start that finds it still `processing` after this many gives up. */
const MAX_ATTEMPTS = 2
/**
 * Shared store: a URL document another instance claimed this long ago and left `processing` is taken over
 * at start (its instance died mid-way; a fetch takes 30 s at most). A file waits for the instance that
 * holds its upload (README, "Several instances").
 */
const PROCESS_LEASE_MS = 5 * 60_000

export interface KnowledgeSettings { chunkSize: number; chunkOverlap: number; maxFileBytes: number }
export interface KnowledgeDeps {
  clock: Clock
  log: PluginLogger
  /** where uploaded files wait until processed (the data folder's `knowledge-uploads`) */
  uploadsDir?: string
  /** the `knowledge` settings of the moment (passage size and overlap, size limit) */
  settings?: () => KnowledgeSettings
  /** who a URL may reach besides public addresses (`web.allowPrivateHosts`) */
  access?: () => OutboundAccess
  /** the bases a group's chats draw on (config `groups.<id>.knowledge`) */
  groupBases?: (groupId: string) => readonly string[]
  /** found by meaning (vectors/): where the vectors are kept (the data folder) and the embeddings, fusion and reranker settings */
  vectors?: { file: string; metaFile: string; settings: () => SearchSettings }
}

/** Which documents a search covers: a preset's (its own and its bound bases'), some bases', or both filters. */
export interface SearchScope { presetId?: string; baseIds?: readonly string[] }

const DEFAULT_SETTINGS: KnowledgeSettings = { chunkSize: 500, chunkOverlap: 50, maxFileBytes: 20 * 1024 * 1024 }

export class KnowledgeService {
  private readonly passages = new PassageIndex()
  private readonly indexReady: Promise<void>
  private indexed = false
  private readonly perPreset = new Map<string, Set<string>>()
  /** document ids per base (the default base's too) */
  private readonly perBase = new Map<string, Set<string>>()
  /** ids by creation time, kept on write: list pages never sort the store */
  private readonly order = new RecencyOrder<string>()
  private readonly settings: () => KnowledgeSettings
  private readonly uploads: Uploads | undefined
  private readonly queue = new ProcessingQueue((id) => this.process(id), async (id, err) => {
    this.deps.log.error('Processing a knowledge document failed', { id }, err)
    await this.fail(id, `处理失败：${err instanceof Error ? err.message : String(err)}`)
  })

  /**
   * Shared store only: the record each id's derived state (index, counts, order) was computed from: onRemote
   * hands the new record once the old one is gone from the store (as lib/memory/service.ts does).
   */
  private readonly derivedFrom: Map<string, StoredDoc> | undefined

  private constructor (private readonly store: RecordStore<StoredDoc, string>, readonly bases: KnowledgeBases, private readonly deps: KnowledgeDeps) {
    this.settings = deps.settings ?? (() => DEFAULT_SETTINGS)
    this.uploads = deps.uploadsDir ? new Uploads(deps.uploadsDir) : undefined
    this.derivedFrom = store instanceof JournalStore ? undefined : new Map()
    const resume: string[] = []
    for (const d of store.values()) {
      if (this.derivedFrom) { revive(d); this.derivedFrom.set(d.id, d) }
      this.count(d, 1)
      this.order.set(d.id, rankOf(d))
      if (statusOf(d) === 'processing') resume.push(d.id)
    }
    // documents written meanwhile are indexed by the write itself (and skipped here)
    const self = this
    const docs = (function * (): Generator<{ doc: PassageDoc; chunks: () => readonly Chunk[] }> {
      for (const d of store.values()) {
        if (statusOf(d) !== 'ready' || self.passages.has(d.id)) continue
        const doc = { id: d.id, title: d.title, presetId: d.presetId, content: unpack(d.content) }
        yield { doc, chunks: () => self.chunksOf(doc.content, d.pageStarts) }
      }
    })()
    this.indexReady = this.passages.addAllAsync(docs)
      .catch((err: unknown) => { deps.log.error('Building the knowledge search index failed', {}, err) })
      .finally(() => { this.indexed = true })
    void this.resume(resume)
    store.onRemote((id, r) => { this.remoteChange(id, r) })
  }

  /** The documents of one file (tests, benches); the plugin opens `openShared`. */
  static async open (file: string, deps: KnowledgeDeps): Promise<KnowledgeService> {
    const store = await JournalStore.open<StoredDoc, string>(file, { key: (d) => d.id, log: deps.log, now: () => deps.clock.now(), revive })
    // the bases beside the documents: knowledge.json → knowledge-bases.json
    const bases = await KnowledgeBases.open(file.replace(/(\.json)?$/, '-bases.json'), deps)
    const svc = new KnowledgeService(store, bases, deps)
    const v = deps.vectors
    if (v) svc.startVectors(KnowledgeVectors.open(v.file, v.metaFile, svc.vectorDeps(v.settings)))
    return svc
  }

  /**
   * The stores `knowledge` and `knowledge-bases` on the port (`<dataDir>/knowledge.json` and
   * `knowledge-bases.json` as before, or PostgreSQL when set); the vectors in the data folder's files, or
   * in PostgreSQL beside the documents (vectors/shared.ts).
   */
  static async openShared (rt: RecordsDeps, deps: KnowledgeDeps): Promise<KnowledgeService> {
    const store = await openRecords<StoredDoc, string>(rt, 'knowledge', { key: (d) => d.id, revive })
    const bases = await KnowledgeBases.openShared({ ...rt, clock: deps.clock })
    const svc = new KnowledgeService(store, bases, deps)
    const v = deps.vectors
    if (v) {
      const shared = store instanceof JournalStore ? undefined : await openSharedVectors(rt, { file: v.file, metaFile: v.metaFile })
      svc.startVectors(shared ? KnowledgeVectors.on(shared, svc.vectorDeps(v.settings)) : KnowledgeVectors.open(v.file, v.metaFile, svc.vectorDeps(v.settings)))
    }
    return svc
  }

  private vectorDeps (settings: () => SearchSettings): VectorDeps {
    return {
      clock: this.deps.clock, log: this.deps.log, settings, access: () => this.deps.access?.() ?? {},
      source: (id) => this.embedSource(id), readyIds: () => this.readyIds()
    }
  }

  private startVectors (v: KnowledgeVectors): void {
    this.vectors = v
    void Promise.all([this.indexReady, v.loading]).then(() => this.vectors?.sync())
  }

  // Another instance added, changed or removed a document (the store already holds the new state): undo
  // what was derived from the old record, then derive from the new one. A document it is processing is
  // never processed here; its vectors come from the instance that made them (vectors/shared.ts).
  private remoteChange (id: string, r: StoredDoc | undefined): void {
    const known = this.derivedFrom
    if (!known) return
    const old = known.get(id)
    const wasEmpty = this.order.size === 0
    if (old) {
      if (statusOf(old) === 'ready') this.unindex(old)
      this.count(old, -1)
      this.order.delete(id)
      known.delete(id)
    }
    if (r) {
      revive(r)
      known.set(id, r)
      this.count(r, 1)
      this.order.set(id, rankOf(r))
      if (statusOf(r) === 'ready') {
        const d = plain(r)
        const p = this.passages.add({ id, title: d.title, presetId: d.presetId, content: d.content }, this.chunksOf(d.content, d.pageStarts))
        this.vectors?.seen(id, this.embedSource(id, { d, p })!)
      } else this.vectors?.forget(id)
    } else this.vectors?.forget(id)
    if (!r || statusOf(r) !== 'processing') this.queue.settle(id)
    if (wasEmpty !== (this.order.size === 0)) this.presence.emit()
  }

  /** Calls `listener` after another instance's change of a document is applied here (undefined: removed). */
  onRemote (listener: (id: string, d: KnowledgeDoc | undefined) => void): () => void {
    return this.store.onRemote((id, r) => listener(id, r && plain(r)))
  }

  /** Writes a document, keeping what its derived state was computed from (shared store). */
  private write (d: StoredDoc): Promise<void> {
    this.derivedFrom?.set(d.id, d)
    return this.store.put(d)
  }

  /** Passage vectors (README, "Found by meaning"); undefined without a vectors file. */
  vectors: KnowledgeVectors | undefined
  /** The embeddings endpoint for other domains (the memories' vectors); undefined without a vectors file. */
  get embedder (): Embedder | undefined { return this.vectors?.embedder }

  /** What a ready document gives to be embedded: its passages as indexed (title and heading path included). */
  private embedSource (id: string, given?: { d: KnowledgeDoc; p: DocPassages }): EmbedSource | undefined {
    const held = given ? undefined : this.store.get(id)
    if (!given && (!held || statusOf(held) !== 'ready')) return undefined
    const d = given?.d ?? plain(held!)
    const p = given?.p ?? this.passages.of(id)
    if (!p) return undefined
    const texts: string[] = []
    for (let n = 0; n < p.size; n++) texts.push([d.title, p.heading(n), p.text(d.content, n)].filter(Boolean).join('\n'))
    return { presetId: d.presetId, texts, fingerprint: fingerprintOf(texts) }
  }

  private * readyIds (): Generator<string> {
    for (const d of this.store.values()) if (statusOf(d) === 'ready') yield d.id
  }

  /**
   * Documents a crash left `processing` are processed again once, in their order; one that was
   * already tried MAX_ATTEMPTS times (it may be what crashed the process) is marked failed.
   */
  private async resume (ids: string[]): Promise<void> {
    for (const id of ids) {
      const d = this.store.get(id)
      if (!d) continue
      if (this.derivedFrom && !(await this.mayResume(d))) continue
      if ((d.attempts ?? 0) >= MAX_ATTEMPTS) await this.fail(id, '处理中断了两次（程序在处理这个文件时退出），已放弃；请检查文件后重新上传')
      else this.queue.push(id)
    }
    await this.uploads?.sweep((id) => { const d = this.store.get(id); return d !== undefined && statusOf(d) === 'processing' })
  }

  /**
   * Shared store: whether this instance takes up a document left `processing`: a file whose upload waits
   * in this data folder (this instance took it before a restart), a URL whose claim is older than the lease.
   */
  private async mayResume (d: StoredDoc): Promise<boolean> {
    const source = d.source
    if (source?.kind === 'file') return (await this.uploads?.has(d.id, source.type)) ?? false
    if (source?.kind !== 'url') return false
    return this.deps.clock.now() - (d.claimedAt ?? 0) >= PROCESS_LEASE_MS || ((await this.uploads?.marked(d.id)) ?? false)
  }

  /** Resolves once every document present at start is indexed (searches never wait for it). */
  ready (): Promise<void> { return this.indexReady }
  get indexComplete (): boolean { return this.indexed }
  async close (): Promise<void> {
    await this.queue.close()
    await this.store.close()
    await this.bases.close()
    await this.vectors?.close()
  }

  get size (): number { return this.store.size }

  /** Newest first (only a base's with `baseId`), content cut to its first 500 characters. */
  list (baseId?: string): KnowledgeListItem[] {
    return this.items(baseId === undefined ? this.order.newest() : this.order.sortNewest(this.perBase.get(baseId) ?? []))
  }

  /** One page of the list (newest first; only a base's with `baseId`) and the number of documents. */
  page (offset: number, limit: number, baseId?: string): { items: KnowledgeListItem[]; total: number } {
    if (baseId === undefined) return { items: this.items(this.order.page(offset, limit)), total: this.order.size }
    const ids = this.order.sortNewest(this.perBase.get(baseId) ?? [])
    return { items: this.items(ids.slice(offset, offset + limit)), total: ids.length }
  }

  /** Documents in a base. */
  baseSize (baseId: string): number { return this.perBase.get(baseId)?.size ?? 0 }

  private items (ids: Iterable<string>): KnowledgeListItem[] {
    const out: KnowledgeListItem[] = []
    for (const id of ids) {
      const d = this.store.get(id)
      if (d) out.push({ ...this.viewOf({ ...d, content: head(typeof d.content === 'string' ? d.content : d.content.start(LIST_CHARS), LIST_CHARS) }, false), contentLength: d.content.length, truncated: d.content.length > LIST_CHARS })
    }
    return out
  }

  /** The API's view; `whole`: `d.content` is the whole text (the passages of a document the start-up build has not reached are counted from it). */
  private viewOf (d: KnowledgeDoc, whole = true): KnowledgeView {
    const { attempts: _attempts, claimedAt: _claimedAt, ...rest } = d
    const ready = (d.status ?? 'ready') === 'ready'
    const chunks = this.passages.of(d.id)?.size ?? (ready && whole ? this.pendingChunks(d) : 0)
    return { ...rest, status: d.status ?? 'ready', source: d.source ?? { kind: 'text' }, baseId: baseOf(d), chunks }
  }

  /** The passages of a ready document the start-up build has not reached yet. */
  private pendingChunks (d: KnowledgeDoc): number {
    return this.chunksOf(d.content, d.pageStarts).length
  }

  get (id: string): KnowledgeView { return this.viewOf(plain(this.held(id))) }

  /** A document's passages in order ([] until it is ready). */
  passagesOf (id: string): PassageView[] {
    const d = plain(this.held(id))
    if (statusOf(d) !== 'ready') return []
    const p = this.passages.of(id)
    if (!p) return this.chunksOf(d.content, d.pageStarts).map((c, index) => ({ index, heading: c.heading, ...(c.page !== undefined ? { page: c.page } : {}), text: d.content.slice(c.start, c.end) }))
    const out: PassageView[] = []
    for (let n = 0; n < p.size; n++) {
      const page = p.page(n)
      out.push({ index: n, heading: p.heading(n), ...(page !== undefined ? { page } : {}), text: p.text(d.content, n) })
    }
    return out
  }

  /** The `baseId` field a document is written with: absent for the default base, 404 BASE_NOT_FOUND for an unknown one. */
  private baseField (baseId: string | undefined): { baseId?: string } {
    if (baseId === undefined || baseId === DEFAULT_BASE) return {}
    this.bases.get(baseId)
    return { baseId }
  }

  /** Removes a base: 409 while it holds documents unless `withDocuments` (then they are removed first). */
  async removeBase (baseId: string, withDocuments: boolean): Promise<void> {
    this.bases.get(baseId)
    if (baseId === DEFAULT_BASE) throw new AppError('CONFLICT', 'The default knowledge base cannot be removed')
    const held = [...this.perBase.get(baseId) ?? []]
    if (held.length > 0 && !withDocuments) throw new AppError('CONFLICT', `The knowledge base holds ${held.length} documents: move or remove them first, or remove it with withDocuments=true`)
    for (const id of held) await this.remove(id)
    await this.bases.remove(baseId)
  }

  /**
   * What a chat turn draws on: the bases its group names (`groups.<id>.knowledge`) when it names one
   * that exists, else the preset's documents and the bases bound to the preset; undefined when that
   * holds no document (no search).
   */
  chatScope (presetId: string, groupId?: string): SearchScope | undefined {
    const named = groupId === undefined ? [] : (this.deps.groupBases?.(groupId) ?? []).filter((b) => this.bases.has(b))
    if (named.length > 0) return named.some((b) => this.baseSize(b) > 0) ? { baseIds: named } : undefined
    return this.hasPreset(presetId) || this.bases.boundTo(presetId).some((b) => this.baseSize(b) > 0) ? { presetId } : undefined
  }

  /**
   * The documents a scope covers, when that needs a document filter (bases named or bound to the
   * preset); undefined when the preset's own filter does (or nothing is filtered).
   */
  private scopeDocs (scope: SearchScope): Set<string> | undefined {
    const { presetId, baseIds } = scope
    const bound = presetId === undefined ? [] : this.bases.boundTo(presetId)
    if (baseIds === undefined && bound.length === 0) return undefined
    const inPreset = (id: string): boolean => {
      if (presetId === undefined) return true
      const d = this.store.get(id)
      return d !== undefined && (d.presetId === presetId || bound.includes(baseOf(d)))
    }
    const out = new Set<string>()
    if (baseIds !== undefined) {
      for (const b of baseIds) for (const id of this.perBase.get(b) ?? []) if (inPreset(id)) out.add(id)
      return out
    }
    for (const id of this.perPreset.get(presetId!) ?? []) out.add(id)
    for (const b of bound) for (const id of this.perBase.get(b) ?? []) out.add(id)
    return out
  }

  private held (id: string): StoredDoc {
    const d = this.store.get(id)
    if (!d) throw notFound('Document not found')
    return d
  }

  private readonly presence = new Listeners()
  /** Calls `fn` when the knowledge base turns empty or holds its first document (search_knowledge is offered then). */
  onPresenceChange (fn: () => void): () => void { return this.presence.add(fn) }

  /** Documents bound to a preset exist. */
  hasPreset (presetId: string): boolean { return (this.perPreset.get(presetId)?.size ?? 0) > 0 }

  private chunksOf (content: string, pageStarts: readonly number[] | undefined): ReturnType<typeof chunkText> {
    const s = this.settings()
    return chunkText(content, { size: s.chunkSize, overlap: s.chunkOverlap, ...(pageStarts ? { pageStarts } : {}) })
  }

  private index (d: KnowledgeDoc): DocPassages {
    const p = this.passages.add({ id: d.id, title: d.title, presetId: d.presetId, content: d.content }, this.chunksOf(d.content, d.pageStarts))
    if (this.vectors?.configured) this.vectors.changed(d.id, this.embedSource(d.id, { d, p })!) // embedded again unless its passages are the same
    return p
  }

  private unindex (d: StoredDoc): void {
    this.passages.remove({ id: d.id, title: d.title, presetId: d.presetId, content: unpack(d.content) })
  }

  /** A pasted document: cut into passages and indexed as it is written (ready at once). */
  async create (input: { title: string; content: string; presetId?: string; baseId?: string }): Promise<KnowledgeView> {
    const at = now(this.deps.clock)
    const doc: KnowledgeDoc = { id: randomUUID(), ...checked(input.title, input.content, input.presetId ?? ''), ...this.baseField(input.baseId), createdAt: at, updatedAt: at, status: 'ready', source: { kind: 'text' } }
    return this.admit(doc)
  }

  private async admit (doc: KnowledgeDoc): Promise<KnowledgeView> {
    const written = this.write(stored(doc))
    if (doc.status === 'ready') this.index(doc)
    this.count(doc, 1)
    this.order.set(doc.id, rankOf(doc))
    if (this.store.size === 1) this.presence.emit()
    await written
    return this.viewOf(doc)
  }

  /**
   * An uploaded file: kept in the uploads folder, recorded `processing`, and read by the queue. The
   * type comes from the name's extension (400 naming the supported ones otherwise).
   */
  async addFile (input: { name: string; bytes: Uint8Array; presetId?: string; baseId?: string }): Promise<KnowledgeView> {
    const type = typeOfName(input.name)
    if (!type) throw badRequest(`Unsupported file type: ${input.name}`)
    if (!this.uploads) throw new AppError('SERVICE_UNAVAILABLE', 'This knowledge base takes no files (no uploads folder)')
    const name = input.name.slice(-LIMITS.title)
    const at = now(this.deps.clock)
    const doc: KnowledgeDoc = {
      id: randomUUID(), title: baseTitle(name).slice(0, LIMITS.title), content: '', presetId: checkedPreset(input.presetId ?? ''), ...this.baseField(input.baseId),
      createdAt: at, updatedAt: at, status: 'processing', source: { kind: 'file', name, type, bytes: input.bytes.byteLength }, attempts: 0, ...this.claim()
    }
    await this.uploads.save(doc.id, type, input.bytes)
    const view = await this.admit(doc)
    this.queue.push(doc.id)
    return view
  }

  /** A URL: recorded `processing`, fetched and read by the queue. */
  async addUrl (input: { url: string; presetId?: string; baseId?: string }): Promise<KnowledgeView> {
    const url = input.url.trim()
    let parsed: URL
    try { parsed = new URL(url) } catch { throw badRequest('url must be an absolute http(s) URL') }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest('url must be an absolute http(s) URL')
    if (url.length > LIMITS.url) throw badRequest(`url is longer than ${LIMITS.url} characters`)
    const at = now(this.deps.clock)
    const doc: KnowledgeDoc = {
      id: randomUUID(), title: `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`.slice(0, LIMITS.title), content: '',
      presetId: checkedPreset(input.presetId ?? ''), ...this.baseField(input.baseId), createdAt: at, updatedAt: at, status: 'processing', source: { kind: 'url', url: parsed.href }, attempts: 0, ...this.claim()
    }
    if (this.derivedFrom) await this.uploads?.mark(doc.id)
    const view = await this.admit(doc)
    this.queue.push(doc.id)
    return view
  }

  /** Resolves once the document is no longer `processing` (or is gone). */
  processed (id: string): Promise<void> {
    const d = this.store.get(id)
    if (!d || statusOf(d) !== 'processing') return Promise.resolve()
    return this.queue.wait(id)
  }

  private async process (id: string): Promise<void> {
    const start = this.store.get(id)
    const source = start?.source
    if (!start || statusOf(start) !== 'processing' || !source || source.kind === 'text') return
    // counted before the work: a file that crashes the process is given up after MAX_ATTEMPTS starts
    if (this.derivedFrom && source.kind === 'url') await this.uploads?.mark(id) // (taken over: this instance's now)
    await this.write({ ...start, attempts: (start.attempts ?? 0) + 1, ...this.claim() })
    let extracted: Awaited<ReturnType<typeof extractFile>>
    try {
      const input = source.kind === 'file'
        ? { type: source.type, bytes: await this.uploads!.read(id, source.type) }
        : await fetchUrl(source.url, { maxBytes: this.settings().maxFileBytes, access: this.deps.access?.() ?? {}, signal: this.queue.signal })
      extracted = await extractFile(input.type, input.bytes)
      if (!extracted.text.trim()) throw new ExtractError('文件中没有可提取的文字')
      if (extracted.text.length > EXTRACTED_MAX_CHARS) throw new ExtractError(`文件的文字超过 ${EXTRACTED_MAX_CHARS} 字符，请拆分后上传`)
    } catch (err) {
      if (this.queue.signal.aborted) return // stopped: processed again at the next start
      if (!(err instanceof ExtractError)) throw err
      await this.fail(id, err.message)
      if (source.kind === 'file') await this.uploads?.drop(id, source.type)
      return
    }
    const cur = this.store.get(id)
    if (!cur || statusOf(cur) !== 'processing') return // removed meanwhile
    // the file's own title replaces the one made from its name or address, unless the owner renamed it meanwhile
    const title = cur.title === start.title && extracted.title ? extracted.title.slice(0, LIMITS.title) : cur.title
    const done: KnowledgeDoc = {
      ...plain(cur), title, content: extracted.text, status: 'ready', updatedAt: now(this.deps.clock),
      ...(extracted.pageStarts ? { pageStarts: extracted.pageStarts } : {})
    }
    delete done.error
    delete done.attempts
    delete done.claimedAt
    this.index(done)
    await this.write(stored(done))
    if (source.kind === 'file') await this.uploads?.drop(id, source.type)
    else if (this.derivedFrom) await this.uploads?.unmark(id)
  }

  private async fail (id: string, error: string): Promise<void> {
    const cur = this.store.get(id)
    if (!cur) return
    const next: StoredDoc = { ...cur, status: 'failed', error, updatedAt: now(this.deps.clock) }
    delete next.attempts
    delete next.claimedAt
    await this.write(next)
    if (this.derivedFrom && cur.source?.kind === 'url') await this.uploads?.unmark(id)
    this.queue.settle(id)
  }

  async update (id: string, patch: { title?: string; content?: string; presetId?: string; baseId?: string }): Promise<KnowledgeView> {
    const old = this.held(id)
    if (patch.content !== undefined && statusOf(old) === 'processing') throw new AppError('CONFLICT', 'The document is still being processed: change its content once it is ready')
    const next: KnowledgeDoc = {
      ...plain(old),
      title: checkedTitle(patch.title ?? old.title),
      presetId: checkedPreset(patch.presetId ?? old.presetId),
      ...(patch.content !== undefined ? { content: checkedContent(patch.content) } : {}),
      updatedAt: now(this.deps.clock)
    }
    if (patch.baseId !== undefined) { delete next.baseId; Object.assign(next, this.baseField(patch.baseId)) }
    if (patch.content !== undefined) {
      // edited text: ready, without the pages of the file it came from
      next.status = 'ready'
      delete next.pageStarts
      delete next.error
    }
    const written = this.write(stored(next))
    // (a document the start-up build has not reached yet is indexed here; the build skips it)
    if (statusOf(old) === 'ready' || next.status === 'ready') {
      this.unindex(old)
      if (next.status === 'ready') this.index(next)
    }
    this.count(old, -1)
    this.count(next, 1)
    await written
    return this.viewOf(next)
  }

  /** Removes a document: its passages leave the index at once. */
  async remove (id: string): Promise<void> {
    const old = this.held(id)
    this.unindex(old)
    this.vectors?.removed(id)
    this.count(old, -1)
    this.order.delete(id)
    this.derivedFrom?.delete(id)
    const deleted = this.store.delete(id)
    if (this.store.size === 0) this.presence.emit()
    this.queue.settle(id)
    await deleted
    if (old.source?.kind === 'file' && statusOf(old) === 'processing') await this.uploads?.drop(id, old.source.type)
  }

  /** The best passages for a query (BM25, fused with the vectors' when embeddings are set), optionally only of the documents bound to a preset. */
  async search (query: string, opts: SearchScope & { limit?: number; snippetChars?: number } = {}): Promise<KnowledgeHit[]> {
    const docs = this.scopeDocs(opts)
    // the preset's own filter when no base is involved, else the scope's documents
    const presetId = docs === undefined ? opts.presetId : undefined
    const limit = opts.limit ?? 10
    const scoped = docs ?? (presetId !== undefined ? this.perPreset.get(presetId) ?? new Set<string>() : undefined)
    const scan = !this.indexed && scoped !== undefined ? this.scopeIndex(scoped) : undefined
    const index = scan ?? this.passages
    const filter = { ...(presetId !== undefined ? { presetId } : {}), ...(docs ? { docs } : {}) }
    // BM25, and with embeddings set the vectors fused with it and the optional reranker (vectors/hybrid.ts)
    const found = await hybridSearch(query, { ...filter, limit }, {
      bm25: (n) => index.search(query, { ...filter, limit: n }),
      vectors: this.vectors,
      textOf: (h) => { const d = this.store.get(h.docId); const p = index.of(h.docId); return d && p && h.n < p.size ? p.text(unpack(d.content), h.n) : undefined }
    })
    const out: KnowledgeHit[] = []
    const contents = new Map<string, string>()
    for (const h of found) {
      const d = this.store.get(h.docId)
      const p = index.of(h.docId)
      if (!d || !p || h.n >= p.size) continue
      let content = contents.get(d.id)
      if (content === undefined) contents.set(d.id, (content = unpack(d.content)))
      const text = p.text(content, h.n)
      const heading = p.heading(h.n)
      const page = p.page(h.n)
      const s = snippet(text, query, opts.snippetChars ?? 160)
      out.push({
        docId: d.id, id: d.id, title: d.title, presetId: d.presetId, text, score: Math.round(h.score * 10000) / 10000,
        ...(heading ? { heading } : {}), ...(page !== undefined ? { page } : {}), retrievers: h.retrievers, snippet: s.snippet, highlighted: s.highlighted
      })
    }
    return out
  }

  /** While the index is being built: a throwaway index of a scope's passages (a preset's, a base's), if its documents are few enough. */
  private scopeIndex (ids: Iterable<string>): PassageIndex | undefined {
    const docs: KnowledgeDoc[] = []
    let chars = 0
    for (const id of ids) {
      const d = this.store.get(id)
      if (!d || statusOf(d) !== 'ready') continue
      chars += d.content.length
      if (chars > SCAN_CHARS) return undefined
      docs.push(plain(d))
    }
    const idx = new PassageIndex()
    for (const d of docs) idx.add({ id: d.id, title: d.title, presetId: d.presetId, content: d.content }, this.chunksOf(d.content, d.pageStarts))
    return idx
  }

  /** Shared store: the claim of the instance that processes a document (the embedded store writes none, as before). */
  private claim (): { claimedAt?: number } {
    return this.derivedFrom ? { claimedAt: this.deps.clock.now() } : {}
  }

  private count (d: Pick<StoredDoc, 'id' | 'presetId' | 'baseId'>, delta: 1 | -1): void {
    const base = baseOf(d)
    let inBase = this.perBase.get(base)
    if (!inBase) this.perBase.set(base, (inBase = new Set()))
    if (delta > 0) inBase.add(d.id)
    else inBase.delete(d.id)
    if (inBase.size === 0) this.perBase.delete(base)
    if (!d.presetId) return
    let ids = this.perPreset.get(d.presetId)
    if (!ids) this.perPreset.set(d.presetId, (ids = new Set()))
    if (delta > 0) ids.add(d.id)
    else ids.delete(d.id)
    if (ids.size === 0) this.perPreset.delete(d.presetId)
  }
}
