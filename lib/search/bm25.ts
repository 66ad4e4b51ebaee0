// In-memory BM25 index (k1 1.2, b 0.75) over tokenize(): integer document numbers, postings in plain
// growable arrays, removals as tombstones folded away once they pass 30% of the documents. A query
// scores only the postings of its terms and keeps the best k in a small heap, so a search over 100k
// short memories or 10k long documents takes a few milliseconds. A single CJK character (which has
// no bigram) matches through the bigrams that contain it. A document may belong to a partition (the
// memories of one user): a search within a partition skips other documents' postings before scoring.
import { isCjk, queryTokens, tokenize } from './tokenize.js'
import { TopK } from './top-k.js'

const K1 = 1.2
const B = 0.75
const YIELD_EVERY = 500

interface Posting { docs: number[]; tfs: number[] }

export interface SearchOptions<K> {
  limit?: number
  filter?: (id: K) => boolean
  /** only documents added with this partition */
  partition?: string
}

const NO_PARTITION = -1

export class Bm25Index<K extends string | number> {
  private ids: Array<K | undefined> = []
  private lens: number[] = []
  private parts: number[] = []
  private readonly partitionIds = new Map<string, number>()
  private readonly docOf = new Map<K, number>()
  private postings = new Map<string, Posting>()
  private live = 0
  private liveLen = 0
  private tombstones = 0
  private scores = new Float64Array(0)
  private vocabVersion = 0
  private readonly charTerms = new Map<string, { version: number; terms: string[] }>()

  get size (): number { return this.live }
  has (id: K): boolean { return this.docOf.has(id) }

  clear (): void {
    this.ids = []
    this.lens = []
    this.parts = []
    this.partitionIds.clear()
    this.docOf.clear()
    this.postings = new Map()
    this.live = 0
    this.liveLen = 0
    this.tombstones = 0
    this.charTerms.clear()
    this.vocabVersion++
  }

  /** Indexes a document (in a partition if given); an id already present is replaced. */
  add (id: K, text: string, partition?: string): void {
    this.remove(id)
    const tokens = tokenize(text)
    const doc = this.ids.length
    this.ids.push(id)
    this.lens.push(tokens.length)
    this.parts.push(partition === undefined ? NO_PARTITION : this.partitionNumber(partition))
    this.docOf.set(id, doc)
    this.live++
    this.liveLen += tokens.length
    const tf = new Map<string, number>()
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [term, n] of tf) {
      let p = this.postings.get(term)
      if (!p) { this.postings.set(term, (p = { docs: [], tfs: [] })); this.vocabVersion++ }
      p.docs.push(doc)
      p.tfs.push(n)
    }
  }

  /** Indexes many documents, yielding to the event loop now and then (a big build at start). */
  async addManyAsync (items: Iterable<[K, string] | [K, string, string]>): Promise<void> {
    let n = 0
    for (const [id, text, partition] of items) {
      this.add(id, text, partition)
      if (++n % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  remove (id: K): boolean {
    const doc = this.docOf.get(id)
    if (doc === undefined) return false
    this.docOf.delete(id)
    this.ids[doc] = undefined
    this.live--
    this.liveLen -= this.lens[doc] ?? 0
    this.tombstones++
    if (this.tombstones > 1000 && this.tombstones > 0.3 * this.ids.length) this.compact()
    return true
  }

  search (query: string, opts: SearchOptions<K> = {}): Array<{ id: K; score: number }> {
    const limit = Math.max(0, opts.limit ?? 10)
    if (this.live === 0 || limit === 0) return []
    const part = opts.partition === undefined ? undefined : this.partitionIds.get(opts.partition)
    if (opts.partition !== undefined && part === undefined) return []
    if (this.scores.length < this.ids.length) this.scores = new Float64Array(Math.max(this.ids.length, this.scores.length * 2))
    const scores = this.scores
    const touched: number[] = []
    const avg = this.liveLen / this.live || 1
    for (const term of this.expand(queryTokens(query))) {
      const p = this.postings.get(term)
      if (!p) continue
      let df = 0
      for (const d of p.docs) if (this.ids[d] !== undefined) df++
      if (df === 0) continue
      const idf = Math.log(1 + (this.live - df + 0.5) / (df + 0.5))
      const { docs, tfs } = p
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!
        if (this.ids[d] === undefined || (part !== undefined && this.parts[d] !== part)) continue
        const tf = tfs[i]!
        const s = idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * this.lens[d]! / avg))
        if (scores[d] === 0) touched.push(d)
        scores[d]! += s
      }
    }
    const top = new TopK<K>(limit)
    for (const d of touched) {
      const s = scores[d]!
      scores[d] = 0
      if (s <= 0 || s <= top.threshold) continue
      const id = this.ids[d]!
      if (opts.filter && !opts.filter(id)) continue
      top.push(id, s)
    }
    return top.result().map(({ item, score }) => ({ id: item, score }))
  }

  /** Query terms, with a lone CJK character replaced by the indexed bigrams containing it. */
  private expand (terms: string[]): string[] {
    const out: string[] = []
    for (const t of terms) {
      if (t.length === 1 && isCjk(t)) {
        if (this.postings.has(t)) out.push(t)
        out.push(...this.termsWithChar(t))
      } else out.push(t)
    }
    return [...new Set(out)]
  }

  private termsWithChar (ch: string): string[] {
    const cached = this.charTerms.get(ch)
    if (cached && cached.version === this.vocabVersion) return cached.terms
    const terms: string[] = []
    for (const term of this.postings.keys()) if (term.length > 1 && term.includes(ch)) terms.push(term)
    if (this.charTerms.size > 1000) this.charTerms.clear()
    this.charTerms.set(ch, { version: this.vocabVersion, terms })
    return terms
  }

  private partitionNumber (partition: string): number {
    let n = this.partitionIds.get(partition)
    if (n === undefined) this.partitionIds.set(partition, (n = this.partitionIds.size))
    return n
  }

  /** Renumbers live documents and drops tombstones from every posting. */
  private compact (): void {
    const remap = new Int32Array(this.ids.length).fill(-1)
    const ids: K[] = []
    const lens: number[] = []
    const parts: number[] = []
    this.ids.forEach((id, d) => {
      if (id === undefined) return
      remap[d] = ids.length
      this.docOf.set(id, ids.length)
      ids.push(id)
      lens.push(this.lens[d]!)
      parts.push(this.parts[d]!)
    })
    for (const [term, p] of this.postings) {
      const docs: number[] = []
      const tfs: number[] = []
      for (let i = 0; i < p.docs.length; i++) {
        const n = remap[p.docs[i]!]!
        if (n >= 0) { docs.push(n); tfs.push(p.tfs[i]!) }
      }
      if (docs.length) this.postings.set(term, { docs, tfs })
      else { this.postings.delete(term); this.vocabVersion++ }
    }
    this.ids = ids
    this.lens = lens
    this.parts = parts
    this.tombstones = 0
  }
}
