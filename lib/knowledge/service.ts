// The knowledge base: documents in a JournalStore (`knowledge.json` + journal) and a BM25 index over
// title (weighted twice) and content, built in the background at start in slices of a few
// milliseconds. A search never waits for that build: while it runs, a search within a preset whose
// documents are small enough scores them on their own (a bounded scan), any other answers from the
// documents indexed so far.
import { randomUUID } from 'node:crypto'
import { badRequest, notFound } from '../core/errors.js'
import type { Clock } from '../core/clock.js'
import { JournalStore } from '../core/journal-store.js'
import { Listeners } from '../core/listeners.js'
import { RecencyOrder } from '../core/recency-order.js'
import type { PluginLogger } from '../core/logger.js'
import { Bm25Index } from '../search/bm25.js'
import { snippet } from '../search/snippet.js'
import { pack, unpack, type StoredText } from './packed-text.js'
import { LIMITS, LIST_CHARS, type KnowledgeDoc, type KnowledgeHit, type KnowledgeListItem } from './types.js'

/** A document as held: its content packed where that saves memory (packed-text.ts). */
type StoredDoc = Omit<KnowledgeDoc, 'content'> & { content: StoredText }

const indexText = (d: StoredDoc): string => `${d.title}\n${d.title}\n${unpack(d.content)}`
const stored = (d: KnowledgeDoc): StoredDoc => ({ ...d, content: pack(d.content) })
const plain = (d: StoredDoc): KnowledgeDoc => ({ ...d, content: unpack(d.content) })

/** Characters a search scores directly while the index is being built (a few milliseconds of work). */
const SCAN_CHARS = 150_000

export class KnowledgeService {
  private readonly index = new Bm25Index<string>()
  private readonly indexReady: Promise<void>
  private indexed = false
  private readonly perPreset = new Map<string, Set<string>>()
  /** ids by creation time, kept on write: list pages never sort the store */
  private readonly order = new RecencyOrder<string>()

  private constructor (private readonly store: JournalStore<StoredDoc, string>, private readonly clock: Clock, log: PluginLogger) {
    for (const d of store.values()) {
      this.count(d, 1)
      this.order.set(d.id, rankOf(d))
    }
    // documents written meanwhile are indexed by the write itself (and skipped here)
    const index = this.index
    const docs = (function * (s: JournalStore<StoredDoc, string>): Generator<[string, string]> {
      for (const d of s.values()) if (!index.has(d.id)) yield [d.id, indexText(d)]
    })(store)
    this.indexReady = this.index.addManyAsync(docs)
      .catch((err: unknown) => { log.error('Building the knowledge search index failed', {}, err) })
      .finally(() => { this.indexed = true })
  }

  static async open (file: string, deps: { clock: Clock; log: PluginLogger }): Promise<KnowledgeService> {
    const store = await JournalStore.open<StoredDoc, string>(file, {
      key: (d) => d.id, log: deps.log, now: () => deps.clock.now(),
      revive: (d) => { if (typeof d.content === 'string') d.content = pack(d.content); return d }
    })
    return new KnowledgeService(store, deps.clock, deps.log)
  }

  /** Resolves once every document present at start is indexed (searches never wait for it). */
  ready (): Promise<void> { return this.indexReady }
  get indexComplete (): boolean { return this.indexed }
  close (): Promise<void> { return this.store.close() }
  get size (): number { return this.store.size }

  /** Newest first, content cut to its first 500 characters. */
  list (): KnowledgeListItem[] {
    return this.items(this.order.newest())
  }

  /** One page of the list (newest first) and the number of documents. */
  page (offset: number, limit: number): { items: KnowledgeListItem[]; total: number } {
    return { items: this.items(this.order.page(offset, limit)), total: this.order.size }
  }

  private items (ids: Iterable<string>): KnowledgeListItem[] {
    const out: KnowledgeListItem[] = []
    for (const id of ids) {
      const d = this.store.get(id)
      if (d) out.push({ ...d, content: head(typeof d.content === 'string' ? d.content : d.content.start(LIST_CHARS), LIST_CHARS), contentLength: d.content.length, truncated: d.content.length > LIST_CHARS })
    }
    return out
  }

  get (id: string): KnowledgeDoc { return plain(this.held(id)) }

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

  async create (input: { title: string; content: string; presetId?: string }): Promise<KnowledgeDoc> {
    const now = new Date(this.clock.now()).toISOString()
    const doc: KnowledgeDoc = { id: randomUUID(), ...checked(input.title, input.content, input.presetId ?? ''), createdAt: now, updatedAt: now }
    const written = this.store.put(stored(doc))
    this.index.add(doc.id, indexText(doc))
    this.count(doc, 1)
    this.order.set(doc.id, rankOf(doc))
    if (this.store.size === 1) this.presence.emit()
    await written
    return doc
  }

  async update (id: string, patch: { title?: string; content?: string; presetId?: string }): Promise<KnowledgeDoc> {
    const old = this.get(id)
    const next: KnowledgeDoc = {
      ...old,
      ...checked(patch.title ?? old.title, patch.content ?? old.content, patch.presetId ?? old.presetId),
      updatedAt: new Date(this.clock.now()).toISOString()
    }
    const written = this.store.put(stored(next))
    // (a document the start-up build has not reached yet is indexed here; the build skips it)
    if (next.title !== old.title || next.content !== old.content || !this.index.has(id)) {
      this.index.remove(id, indexText(old))
      this.index.add(id, indexText(next))
    }
    this.count(old, -1)
    this.count(next, 1)
    await written
    return next
  }

  async remove (id: string): Promise<void> {
    const old = this.held(id)
    this.index.remove(id, indexText(old))
    this.count(old, -1)
    this.order.delete(id)
    const deleted = this.store.delete(id)
    if (this.store.size === 0) this.presence.emit()
    await deleted
  }

  /** Ranked documents for a query (BM25), optionally only those bound to a preset. */
  async search (query: string, opts: { presetId?: string; limit?: number; snippetChars?: number } = {}): Promise<KnowledgeHit[]> {
    const presetId = opts.presetId
    const index = (!this.indexed && presetId !== undefined && this.presetIndex(presetId)) || this.index
    const hits = index.search(query, {
      limit: opts.limit ?? 10,
      ...(presetId !== undefined ? { filter: (id: string) => this.store.get(id)?.presetId === presetId } : {})
    })
    const out: KnowledgeHit[] = []
    for (const h of hits) {
      const d = this.store.get(h.id)
      if (!d) continue
      const s = snippet(unpack(d.content), query, opts.snippetChars ?? 160)
      out.push({ id: d.id, title: d.title, presetId: d.presetId, score: Math.round(h.score * 1000) / 1000, snippet: s.snippet, highlighted: s.highlighted, contentLength: d.content.length, createdAt: d.createdAt })
    }
    return out
  }

  /** While the index is being built: a throwaway index of a preset's documents, if they are few enough. */
  private presetIndex (presetId: string): Bm25Index<string> | undefined {
    const docs: StoredDoc[] = []
    let chars = 0
    for (const id of this.perPreset.get(presetId) ?? []) {
      const d = this.store.get(id)
      if (!d) continue
      chars += d.content.length
      if (chars > SCAN_CHARS) return undefined
      docs.push(d)
    }
    const idx = new Bm25Index<string>()
    for (const d of docs) idx.add(d.id, indexText(d))
    return idx
  }

  private count (d: StoredDoc, delta: 1 | -1): void {
    if (!d.presetId) return
    let ids = this.perPreset.get(d.presetId)
    if (!ids) this.perPreset.set(d.presetId, (ids = new Set()))
    if (delta > 0) ids.add(d.id)
    else ids.delete(d.id)
    if (ids.size === 0) this.perPreset.delete(d.presetId)
  }
}

/** A document's place in the list: its creation time (an unparsable one sorts oldest). */
function rankOf (d: StoredDoc): number {
  const t = Date.parse(d.createdAt)
  return Number.isNaN(t) ? -Infinity : t
}

/** The first n UTF-16 units, never splitting a surrogate pair. */
function head (s: string, n: number): string {
  if (s.length <= n) return s
  const code = s.charCodeAt(n - 1)
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n)
}

function checked (title: string, content: string, presetId: string): Pick<KnowledgeDoc, 'title' | 'content' | 'presetId'> {
  const t = title.trim()
  if (!t) throw badRequest('title is required')
  if (t.length > LIMITS.title) throw badRequest(`title is longer than ${LIMITS.title} characters`)
  if (!content.trim()) throw badRequest('content is required')
  if (content.length > LIMITS.content) throw badRequest(`content is longer than ${LIMITS.content} characters`)
  if (presetId.length > LIMITS.presetId) throw badRequest(`presetId is longer than ${LIMITS.presetId} characters`)
  return { title: t, content, presetId: presetId.trim() }
}
