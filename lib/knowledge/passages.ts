// The passage index (lib/knowledge/README.md, "Passages"): every passage of every ready document in
// one BM25 index (lib/search: CJK bigrams), keyed by a number; per document only its passages'
// ranges, heading paths and pages (the text is a range of the document's content, never a copy).
// Removing a document removes its passages from the index at once: a search never meets them again.
// Memory: nothing per passage or per document lives as a JS object; a passage is a row of typed
// arrays by its key (range, heading number, page, document slot, preset number), and a document a
// slot (first key, count). `DocPassages` is a view made when asked for.
import { Bm25Index } from '../search/bm25.js'
import { grow } from '../search/grow.js'
import type { Chunk } from './chunk.js'

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

  /** Registers a document's passages and returns the index entries to add (now, or in slices by addManyAsync). */
  register (doc: PassageDoc, chunks: readonly Chunk[]): { passages: DocPassages; entries: () => Generator<[number, string]> } {
    this.remove(doc)
    const slot = this.rows.add(doc.id, doc.presetId, chunks)
    this.docs.set(doc.id, slot)
    const passages = this.view(slot)
    const docs = this.docs
    const entries = function * (): Generator<[number, string]> {
      for (let n = 0; n < passages.size; n++) {
        if (docs.get(doc.id) !== slot) return // removed or replaced meanwhile
        yield [passages.base + n, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n))]
      }
    }
    return { passages, entries }
  }

  /** Indexes a document's passages now (a plain loop: through the generator, a large synchronous build left ~3x the old-generation garbage). */
  add (doc: PassageDoc, chunks: readonly Chunk[]): DocPassages {
    const { passages } = this.register(doc, chunks)
    for (let n = 0; n < passages.size; n++) this.index.add(passages.base + n, passageIndexText(doc.title, passages.heading(n), passages.text(doc.content, n)))
    return passages
  }

  /** Adds index entries in slices of a few milliseconds (the start-up build). */
  addManyAsync (entries: Iterable<[number, string]>): Promise<void> { return this.index.addManyAsync(entries) }

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

  /** The best passages for a query: document id, passage number, score. */
  search (query: string, opts: { presetId?: string; docs?: ReadonlySet<string>; limit: number }): Array<{ docId: string; n: number; score: number }> {
    const { presetId, docs } = opts // docs: only these documents (a base's, bases.ts)
    const rows = this.rows
    const preset = presetId === undefined ? undefined : rows.findPreset(presetId)
    if (preset === -1) return []
    const hits = this.index.search(query, {
      limit: opts.limit,
      ...(preset !== undefined ? { filter: (key: number) => rows.presetOf[key] === preset } : docs ? { filter: (key: number) => docs.has(rows.slotId[rows.slotOf[key]!] ?? '') } : {})
    })
    const out: Array<{ docId: string; n: number; score: number }> = []
    for (const h of hits) {
      const slot = rows.slotOf[h.id]!
      const docId = rows.slotId[slot]
      if (docId === undefined) continue
      out.push({ docId, n: h.id - rows.slotBase[slot]!, score: h.score })
    }
    return out
  }

  private view (slot: number): DocPassages { return new DocPassages(this.rows, this.rows.slotBase[slot]!, this.rows.slotSize[slot]!) }
}
