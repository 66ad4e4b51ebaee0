// The passage index (lib/knowledge/README.md, "Passages"): every passage of every ready document in
// one BM25 index (lib/search: CJK bigrams), keyed by a number; per document only its passages'
// ranges, heading paths and pages (the text is a range of the document's content, never a copy).
// Removing a document removes its passages from the index at once: a search never meets them again.
// Memory: nothing per passage or per document lives as a JS object; a passage is a row of typed
// arrays by its key (range, heading number, page, document slot, preset number), and a document a
// slot (first key, count). `DocPassages` is a view made when asked for.
import { Bm25Index } from '../search/bm25.js'
import { grow } from '../search/grow.js'
import { weight } from '../search/maxscore.js'
import { TopDocs } from '../search/top-k.js'
import type { Chunk } from './chunk.js'

/** Share of a lacked term's weight in the document that counts (search(); 1 measured best: bench/knowledge.bench.ts, 0.5 gave less). */
const CONTEXT = 1
/** A start-up build yields to the event loop after this many milliseconds of work. */
const SLICE_MS = 4
/** The first stage: the best passages by BM25 whose documents get the context (at least this many, POOL_FACTOR per result wanted). */
const POOL = 40
const POOL_FACTOR = 4
/** Passages the second stage weighs at most (a long document past it counts its pooled passages only). */
const POOL_KEYS = 10_000

/** The packed rows: by key a passage, by slot a document (keys and slots are never reused). */
class Rows {
  start = new Int32Array(0)
  end = new Int32Array(0)
  heading = new Int32Array(0)
  /** 1-based page, 0 none */
  page = new Int32Array(0)
  slotOf = new Int32Array(0)
  presetOf = new Int32Array(0)
  /** heading paths by number (numbered per document; a removed document's are cleared) */
  readonly headings: string[] = []
  slotBase = new Int32Array(0)
  slotSize = new Int32Array(0)
  readonly slotId: Array<string | undefined> = []
  private readonly presetNumbers = new Map<string, number>()
  keys = 0

  /** The number of a preset some passage was added with, -1 when none was. */
  findPreset (presetId: string): number { return this.presetNumbers.get(presetId) ?? -1 }

  presetNumber (presetId: string): number {
    let n = this.presetNumbers.get(presetId)
    if (n === undefined) this.presetNumbers.set(presetId, (n = this.presetNumbers.size))
    return n
  }

  /** Adds a document's rows; returns its slot. */
  add (docId: string, presetId: string, chunks: readonly Chunk[]): number {
    const slot = this.slotId.length
    const base = this.keys
    const need = base + chunks.length
    this.keys = need
    this.start = grow(this.start, need)
    this.end = grow(this.end, need)
    this.heading = grow(this.heading, need)
    this.page = grow(this.page, need)
    this.slotOf = grow(this.slotOf, need)
    this.presetOf = grow(this.presetOf, need)
    this.slotBase = grow(this.slotBase, slot + 1)
    this.slotSize = grow(this.slotSize, slot + 1)
    this.slotId.push(docId)
    this.slotBase[slot] = base
    this.slotSize[slot] = chunks.length
    const preset = this.presetNumber(presetId)
    // heading paths numbered per document: a path repeats for most passages of a section
    let lastHeading: string | undefined
    let lastNumber = -1
    for (let n = 0; n < chunks.length; n++) {
      const c = chunks[n]!
      const key = base + n
      this.start[key] = c.start
      this.end[key] = c.end
      if (c.heading !== lastHeading) { lastHeading = c.heading; lastNumber = this.headings.length; this.headings.push(c.heading) }
      this.heading[key] = lastNumber
      this.page[key] = c.page ?? 0
      this.slotOf[key] = slot
      this.presetOf[key] = preset
    }
    return slot
  }

  /** Drops the spare capacity of the arrays (grown by doubling); they grow again on the next add. */
  trim (): void {
    this.start = this.start.slice(0, this.keys)
    this.end = this.end.slice(0, this.keys)
    this.heading = this.heading.slice(0, this.keys)
    this.page = this.page.slice(0, this.keys)
    this.slotOf = this.slotOf.slice(0, this.keys)
    this.presetOf = this.presetOf.slice(0, this.keys)
    this.slotBase = this.slotBase.slice(0, this.slotId.length)
    this.slotSize = this.slotSize.slice(0, this.slotId.length)
  }

  /** Forgets a document's slot (its keys stay unused). */
  drop (slot: number): void {
    this.slotId[slot] = undefined
    const base = this.slotBase[slot]!
    for (let key = base; key < base + this.slotSize[slot]!; key++) this.headings[this.heading[key]!] = ''
  }
}

/** One document's passages: a view of its rows. */
export class DocPassages {
  constructor (private readonly rows: Rows, readonly base: number, readonly size: number) {}
  text (content: string, n: number): string { return content.slice(this.rows.start[this.base + n]!, this.rows.end[this.base + n]!) }
  heading (n: number): string { return this.rows.headings[this.rows.heading[this.base + n]!] ?? '' }
  page (n: number): number | undefined { const p = this.rows.page[this.base + n]!; return p ? p : undefined }
}

/** What the index text of a passage is made of: title, heading path, passage. */
const passageIndexText = (title: string, heading: string, text: string): string => heading ? `${title}\n${heading}\n${text}` : `${title}\n${text}`

export interface PassageDoc { id: string; title: string; presetId: string; content: string }

export class PassageIndex {
  private readonly index = new Bm25Index<number>()
  private readonly rows = new Rows()
  /** document id → its slot */
  private readonly docs = new Map<string, number>()

  has (docId: string): boolean { return this.docs.has(docId) }
  of (docId: string): DocPassages | undefined {
    const slot = this.docs.get(docId)
    return slot === undefined ? undefined : this.view(slot)
  }

  get size (): number { return this.index.size }

  /** Registers a document's passages (their rows) before they are indexed. */
  private register (doc: PassageDoc, chunks: readonly Chunk[]): DocPassages {
    this.remove(doc)
    const slot = this.rows.add(doc.id, doc.presetId, chunks)
    this.docs.set(doc.id, slot)
    return this.view(slot)
  }

  /** Indexes a document's passages now. */
  add (doc: PassageDoc, chunks: readonly Chunk[]): DocPassages {
    const passages = this.register(doc, chunks)
    for (let n = 0; n < passages.size; n++) this.index.add(passages.base + n, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n)))
    return passages
  }

  /**
   * The start-up build: indexes documents in slices of a few milliseconds, yielding to the event loop
   * between slices (searches meanwhile see what is indexed so far). Each document's passages go in by
   * a plain loop, no object per passage (a generator of [key, text] pairs left more old-generation
   * garbage); `docs` is read lazily, so it can skip documents indexed meanwhile by a write. A document
   * removed or replaced while the build yields is left to that write. Then the build's spare capacity
   * is released (trim()).
   */
  async addAllAsync (docs: Iterable<{ doc: PassageDoc; chunks: () => readonly Chunk[] }>): Promise<void> {
    let slice = performance.now()
    for (const { doc, chunks } of docs) {
      const passages = this.register(doc, chunks())
      const slot = this.docs.get(doc.id)
      for (let n = 0; n < passages.size; n++) {
        if (this.docs.get(doc.id) !== slot) break // removed or replaced during a yield
        this.index.add(passages.base + n, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n)))
        if (performance.now() - slice >= SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve))
          slice = performance.now()
        }
      }
    }
    this.index.trim()
    this.rows.trim()
  }

  /** Removes a document's passages (given as indexed: its title and content then). */
  remove (doc: PassageDoc): void {
    const slot = this.docs.get(doc.id)
    if (slot === undefined) return
    const passages = this.view(slot)
    this.docs.delete(doc.id)
    for (let n = 0; n < passages.size; n++) {
      this.index.remove(passages.base + n, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n)))
    }
    this.rows.drop(slot)
  }

  /**
   * The best passages for a query: document id, passage number, score. Ranked with document context
   * (lib/knowledge/README.md, "Document context"): a document scores its best passage's own BM25 score
   * plus CONTEXT times the document's weight (as one text) of each query term that passage lacks, and
   * every passage of it is shifted by that document's (score − best own score): a question naming two
   * facts of one document that sit in different passages ranks that document's passages above a
   * passage of another document that repeats one of them, and within a document the passages keep
   * their own order. Two stages: the exact BM25 top POOL passages (MaxScore, lib/search), then the
   * context over their documents' passages (all of a document's, up to POOL_KEYS passages in all; a
   * document past that budget counts its pooled passages only). Bound: a passage of a document with no
   * passage in the pool is not considered, whatever its context would have added.
   */
  search (query: string, opts: { presetId?: string; docs?: ReadonlySet<string>; limit: number; exhaustive?: boolean }): Array<{ docId: string; n: number; score: number }> {
    const { presetId, docs } = opts // docs: only these documents (a base's, bases.ts)
    const rows = this.rows
    const preset = presetId === undefined ? undefined : rows.findPreset(presetId)
    if (preset === -1 || opts.limit <= 0) return []
    const hits = this.index.search(query, {
      limit: Math.max(POOL, POOL_FACTOR * opts.limit),
      ...(opts.exhaustive === true ? { exhaustive: true } : {}),
      ...(preset !== undefined ? { filter: (key: number) => rows.presetOf[key] === preset } : docs ? { filter: (key: number) => docs.has(rows.slotId[rows.slotOf[key]!] ?? '') } : {})
    })
    // the pool's documents in rank order, each with its passages' keys (all of them while the budget lasts)
    const pooled = new Map<number, number[]>()
    for (const h of hits) {
      const slot = rows.slotOf[h.id]!
      if (rows.slotId[slot] === undefined) continue
      let keys = pooled.get(slot)
      if (!keys) pooled.set(slot, (keys = []))
      keys.push(h.id)
    }
    const keys: number[] = []
    const groups: number[] = [] // start of each document's keys in `keys`, and the end
    for (const [slot, own] of pooled) {
      groups.push(keys.length)
      const base = rows.slotBase[slot]!
      const size = rows.slotSize[slot]!
      if (keys.length + size <= POOL_KEYS) for (let key = base; key < base + size; key++) keys.push(key)
      else keys.push(...own)
    }
    groups.push(keys.length)
    const { idfs, avg, lens, tfs } = this.index.termStats(query, keys)
    const terms = idfs.length
    const top = new TopDocs(opts.limit)
    const docWeight = new Float64Array(terms)
    // a document is weighed as one text: its passages' frequencies summed, its length against the
    // average passage length times the passages per document (the passages' overlaps counted twice)
    const docAvg = avg * this.keysPerDoc()
    let owns = new Float64Array(0)
    for (let g = 0; g + 1 < groups.length; g++) {
      const from = groups[g]!
      const to = groups[g + 1]!
      docWeight.fill(0)
      if (owns.length < to - from) owns = new Float64Array(to - from)
      let docLen = 0
      for (let i = from; i < to; i++) {
        docLen += lens[i]!
        for (let k = 0; k < terms; k++) docWeight[k] += tfs[i * terms + k]!
      }
      for (let k = 0; k < terms; k++) docWeight[k] = docWeight[k]! > 0 ? weight(idfs[k]!, docWeight[k]!, docLen, docAvg) : 0
      // the document's score: its best passage's own score plus what the document adds for the terms
      // it lacks; every passage of it is shifted by the same amount (the order within a document stays
      // the passages' own: the one holding the question's words first)
      let bestOwn = 0
      let docScore = 0
      for (let i = from; i < to; i++) {
        let own = 0
        let lacked = 0
        for (let k = 0; k < terms; k++) { // in query order, as the first stage adds them
          const tf = tfs[i * terms + k]!
          if (tf > 0) own += weight(idfs[k]!, tf, lens[i]!, avg)
          else lacked += docWeight[k]!
        }
        owns[i - from] = own
        if (own > 0) { bestOwn = Math.max(bestOwn, own); docScore = Math.max(docScore, own + CONTEXT * lacked) }
      }
      const shift = docScore - bestOwn
      for (let i = from; i < to; i++) if (owns[i - from]! > 0) top.push(keys[i]!, owns[i - from]! + shift) // found by its own words
    }
    const out: Array<{ docId: string; n: number; score: number }> = []
    for (const h of top.result()) {
      const slot = rows.slotOf[h.doc]!
      const docId = rows.slotId[slot]
      if (docId === undefined) continue
      out.push({ docId, n: h.doc - rows.slotBase[slot]!, score: h.score })
    }
    return out
  }

  /** Passages per live document, on average. */
  private keysPerDoc (): number { return this.docs.size === 0 ? 1 : this.index.size / this.docs.size }

  private view (slot: number): DocPassages { return new DocPassages(this.rows, this.rows.slotBase[slot]!, this.rows.slotSize[slot]!) }
}
