// The passage index (lib/knowledge/README.md, "Passages"): every passage of every ready document in
// one BM25 index (lib/search: CJK bigrams), keyed by a number; per document only its passages'
// ranges, heading paths and pages (the text is a range of the document's content, never a copy).
// Removing a document removes its passages from the index at once: a search never meets them again.
import { Bm25Index } from '../search/bm25.js'
import type { Chunk } from './chunk.js'

/** One document's passages, packed: [start, end] pairs, a heading number and a page each. */
export class DocPassages {
  readonly bounds: Int32Array
  readonly headingOf: Uint16Array
  readonly headings: string[]
  readonly pages: Int32Array | undefined
  constructor (readonly base: number, chunks: readonly Chunk[]) {
    this.bounds = new Int32Array(chunks.length * 2)
    this.headingOf = new Uint16Array(chunks.length)
    const numbers = new Map<string, number>()
    this.headings = []
    this.pages = chunks.some((c) => c.page !== undefined) ? new Int32Array(chunks.length) : undefined
    chunks.forEach((c, i) => {
      this.bounds[2 * i] = c.start
      this.bounds[2 * i + 1] = c.end
      let h = numbers.get(c.heading)
      if (h === undefined) { h = Math.min(this.headings.length, 0xffff); numbers.set(c.heading, h); if (h === this.headings.length) this.headings.push(c.heading) }
      this.headingOf[i] = h
      if (this.pages) this.pages[i] = c.page ?? 0
    })
  }

  get size (): number { return this.headingOf.length }
  text (content: string, n: number): string { return content.slice(this.bounds[2 * n]!, this.bounds[2 * n + 1]!) }
  heading (n: number): string { return this.headings[this.headingOf[n]!] ?? '' }
  page (n: number): number | undefined { const p = this.pages?.[n]; return p ? p : undefined }
}

/** What the index text of a passage is made of: title, heading path, passage. */
const passageIndexText = (title: string, heading: string, text: string): string => heading ? `${title}\n${heading}\n${text}` : `${title}\n${text}`

export interface PassageDoc { id: string; title: string; presetId: string; content: string }

export class PassageIndex {
  private readonly index = new Bm25Index<number>()
  private nextKey = 0
  /** key → document id and preset (dense arrays: a key is never reused) */
  private readonly owner: Array<string | undefined> = []
  private readonly preset: Array<string | undefined> = []
  private readonly docs = new Map<string, DocPassages>()

  has (docId: string): boolean { return this.docs.has(docId) }
  of (docId: string): DocPassages | undefined { return this.docs.get(docId) }
  get size (): number { return this.index.size }

  /** Registers a document's passages and returns the index entries to add (now, or in slices by addManyAsync). */
  register (doc: PassageDoc, chunks: readonly Chunk[]): { passages: DocPassages; entries: () => Generator<[number, string]> } {
    this.remove(doc)
    const passages = new DocPassages(this.nextKey, chunks)
    this.nextKey += chunks.length
    this.docs.set(doc.id, passages)
    for (let n = 0; n < chunks.length; n++) { this.owner[passages.base + n] = doc.id; this.preset[passages.base + n] = doc.presetId }
    const docs = this.docs
    const entries = function * (): Generator<[number, string]> {
      for (let n = 0; n < passages.size; n++) {
        if (docs.get(doc.id) !== passages) return // removed or replaced meanwhile
        yield [passages.base + n, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n))]
      }
    }
    return { passages, entries }
  }

  /** Indexes a document's passages now. */
  add (doc: PassageDoc, chunks: readonly Chunk[]): DocPassages {
    const { passages, entries } = this.register(doc, chunks)
    for (const [key, text] of entries()) this.index.add(key, text)
    return passages
  }

  /** Adds index entries in slices of a few milliseconds (the start-up build). */
  addManyAsync (entries: Iterable<[number, string]>): Promise<void> { return this.index.addManyAsync(entries) }

  /** Removes a document's passages (given as indexed: its title and content then). */
  remove (doc: PassageDoc): void {
    const passages = this.docs.get(doc.id)
    if (!passages) return
    this.docs.delete(doc.id)
    for (let n = 0; n < passages.size; n++) {
      const key = passages.base + n
      this.index.remove(key, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n)))
      this.owner[key] = undefined
      this.preset[key] = undefined
    }
  }

  /** The best passages for a query: document id, passage number, score. */
  search (query: string, opts: { presetId?: string; limit: number }): Array<{ docId: string; n: number; score: number }> {
    const presetId = opts.presetId
    const hits = this.index.search(query, {
      limit: opts.limit,
      ...(presetId !== undefined ? { filter: (key: number) => this.preset[key] === presetId } : {})
    })
    const out: Array<{ docId: string; n: number; score: number }> = []
    for (const h of hits) {
      const docId = this.owner[h.id]
      const p = docId === undefined ? undefined : this.docs.get(docId)
      if (docId === undefined || !p) continue
      out.push({ docId, n: h.id - p.base, score: h.score })
    }
    return out
  }
}
