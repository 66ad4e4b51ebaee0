// In-memory BM25 index (k1 1.2, b 0.75) over tokenize(). Terms are interned (one string each, a
// number everywhere else); each term has one posting list over all documents (lib/search/postings.ts:
// packed as bytes, 2-3 an entry) and a document frequency kept over live documents.
// Partitions (the memories of one user): a document added with a partition also keeps its own
// (term, tf) list and is chained to the other documents of its partition, so a search within a
// partition walks that partition's documents only: its cost is the user's share, never the whole
// posting lists. Frequencies and lengths are the whole index's, so a partition's scores equal a
// whole-index search filtered to it.
// Removals are tombstones folded away once they pass 30% of the documents. A whole-index query walks
// the lists with block-max MaxScore (maxscore.ts: the best k, exact, without scoring most postings);
// `exhaustive` scores every posting instead (the reference the tests compare it with). A lone CJK
// character (no bigram of its own) matches through the bigrams that contain it, the most frequent few
// only (maxExpansion), so a common character never expands to thousands of terms. Bulk builds run
// in slices of a few milliseconds (addManyAsync).
import { grow } from './grow.js'
import { DocNumbers, TermIds } from './id-maps.js'
import { impact, maxScore, termFreqs, weight } from './maxscore.js'
import { PostingLists, TF_MAX } from './postings.js'
import { isCjk, queryTokens, tokenize } from './tokenize.js'
import { TopDocs } from './top-k.js'

/** A bulk build yields to the event loop after this many milliseconds of work. */
const SLICE_MS = 4
/** Bigrams a lone CJK character expands to: all documents / one partition (cheap: the user's share). */
const EXPAND_ALL = 8
const EXPAND_PARTITION = 64

export interface SearchOptions<K> {
  limit?: number
  filter?: (id: K) => boolean
  /** only documents added with this partition */
  partition?: string
  /** bigrams a lone CJK character of the query expands to (most frequent first) */
  maxExpansion?: number
  /** score every posting instead of pruning (same results; the tests' reference) */
  exhaustive?: boolean
}

const NONE = -1

/**
 * A copy of a term that holds nothing else: a token of 13 characters or more is, in V8, a view into
 * the whole text it was cut from, and keeping it as a key kept that text (tens of MB at 50k documents).
 */
const own = (term: string): string => term.length < 13 ? term : JSON.parse(JSON.stringify(term)) as string

export class Bm25Index<K extends string | number> {
  private ids: Array<K | undefined> = []
  private lens = new Int32Array(0)
  private readonly docNumbers = new DocNumbers<K>()
  private termIds = new TermIds()
  /** terms interned so far (the next term id) */
  private terms = 0
  private df = new Int32Array(0)
  private postings = new PostingLists()
  private tfScratch = new Int32Array(0)
  /** CJK character → ids of the bigrams holding it */
  private charTerms = new Map<string, number[]>()
  // partitions: number per name, newest document of each, and per document its partition, the
  // previous document of that partition and its own (term, tf) list in a shared pool
  private partitionIds = new Map<string, number>()
  private partHead = new Int32Array(0)
  private docPart = new Int32Array(0)
  private prevInPart = new Int32Array(0)
  private fwdStart = new Int32Array(0)
  private fwdLen = new Int32Array(0)
  private poolTerms = new Int32Array(0)
  private poolTfs = new Uint8Array(0)
  private poolUsed = 0
  private live = 0
  private liveLen = 0
  private tombstones = 0
  /** removals whose terms were not known: frequencies are counted from the postings until the next compaction */
  private staleDf = 0
  private scores = new Float64Array(0)

  get size (): number { return this.live }
  has (id: K): boolean { return this.docNumbers.has(id) }

  clear (): void {
    this.ids = []
    this.lens = new Int32Array(0)
    this.docNumbers.clear()
    this.termIds = new TermIds()
    this.terms = 0
    this.df = new Int32Array(0)
    this.postings = new PostingLists()
    this.tfScratch = new Int32Array(0)
    this.charTerms = new Map()
    this.partitionIds = new Map()
    this.partHead = new Int32Array(0)
    this.docPart = new Int32Array(0)
    this.prevInPart = new Int32Array(0)
    this.fwdStart = new Int32Array(0)
    this.fwdLen = new Int32Array(0)
    this.poolTerms = new Int32Array(0)
    this.poolTfs = new Uint8Array(0)
    this.poolUsed = 0
    this.live = 0
    this.liveLen = 0
    this.tombstones = 0
    this.staleDf = 0
  }

  /**
   * Room for `docs` documents in all (with `partitions`, their partition arrays too and that many
   * partitions; numeric ids up to `maxId`), before a bulk build of a known size: grown by doubling, every per-document array is copied
   * at the same document counts, several megabytes at once near a million documents, and those large
   * allocations start full garbage collections: the start-up build's longest stalls (lib/search/README.md).
   */
  reserve (docs: number, opts: { partitions?: number; maxId?: number } = {}): void {
    this.lens = grow(this.lens, docs)
    if (opts.partitions !== undefined && opts.partitions > 0) {
      this.partHead = grow(this.partHead, opts.partitions, NONE)
      this.docPart = grow(this.docPart, docs, NONE)
      this.prevInPart = grow(this.prevInPart, docs)
      this.fwdStart = grow(this.fwdStart, docs)
      this.fwdLen = grow(this.fwdLen, docs)
    }
    if (opts.maxId !== undefined) this.docNumbers.reserve(opts.maxId)
  }

  /** Indexes a document (in a partition if given); an id already present is replaced. */
  add (id: K, text: string, partition?: string): void {
    this.remove(id)
    const tokens = tokenize(text)
    const doc = this.ids.length
    this.ids.push(id)
    this.ensureDocs(doc + 1)
    this.lens[doc] = tokens.length
    this.docNumbers.set(id, doc)
    this.live++
    this.liveLen += tokens.length
    // term frequencies counted in a scratch array by term id (one map lookup per token)
    const distinct: number[] = []
    if (this.tfScratch.length < this.terms) this.tfScratch = new Int32Array(this.df.length) // released by trim()
    for (const token of tokens) {
      const t = this.termIds.get(token) ?? this.intern(token)
      if (this.tfScratch[t] === 0) distinct.push(t)
      this.tfScratch[t]!++
    }
    const part = partition === undefined ? NONE : this.partitionNumber(partition)
    if (part !== NONE) {
      this.ensureDocs(doc + 1) // the first partition allocates the per-document partition arrays
      this.docPart[doc] = part
      this.prevInPart[doc] = this.partHead[part]!
      this.partHead[part] = doc
      this.fwdStart[doc] = this.poolUsed
      this.fwdLen[doc] = distinct.length
      this.poolTerms = grow(this.poolTerms, this.poolUsed + distinct.length)
      this.poolTfs = grow(this.poolTfs, this.poolUsed + distinct.length)
    }
    // the weights' bound in the lists is taken at the average length as it is now (postings.ts, bound())
    const avg = this.liveLen / this.live
    for (const t of distinct) {
      const tf = this.tfScratch[t]!
      this.tfScratch[t] = 0
      this.df[t]!++
      this.postings.append(t, doc, tf, impact(Math.min(tf, TF_MAX), tokens.length, avg), avg)
      if (part !== NONE) {
        this.poolTerms[this.poolUsed] = t
        this.poolTfs[this.poolUsed++] = Math.min(tf, TF_MAX)
      }
    }
  }

  /**
   * Indexes many documents, yielding to the event loop every few milliseconds (a big build at start
   * never holds the loop longer than one slice). Searches in between see what is indexed so far.
   */
  async addManyAsync (items: Iterable<[K, string] | [K, string, string]>): Promise<void> {
    let slice = performance.now()
    for (const [id, text, partition] of items) {
      this.add(id, text, partition)
      if (performance.now() - slice >= SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve))
        slice = performance.now()
      }
    }
  }

  /**
   * Drops spare capacity after a bulk build: the per-document and per-term arrays (grown by doubling)
   * cut to what is used, the build's scratch released. They grow again on the next add.
   */
  trim (): void {
    this.lens = this.lens.slice(0, this.ids.length)
    this.df = this.df.slice(0, this.terms)
    this.tfScratch = new Int32Array(0)
    this.scores = new Float64Array(0)
    this.postings.trim()
  }

  /**
   * Removes a document. Frequencies stay exact when its terms are known: always for a document of a
   * partition, else when its indexed text is given; otherwise searches count them from the postings
   * (slower) until the next compaction.
   */
  remove (id: K, text?: string): boolean {
    const doc = this.docNumbers.get(id)
    if (doc === undefined) return false
    this.docNumbers.delete(id)
    this.ids[doc] = undefined
    this.live--
    this.liveLen -= this.lens[doc] ?? 0
    this.tombstones++
    if ((this.docPart[doc] ?? NONE) !== NONE) {
      const start = this.fwdStart[doc]!
      for (let i = start; i < start + this.fwdLen[doc]!; i++) this.df[this.poolTerms[i]!]!--
    } else if (text !== undefined) {
      for (const term of new Set(tokenize(text))) {
        const t = this.termIds.get(term)
        if (t !== undefined && this.df[t]! > 0) this.df[t]!--
      }
    } else this.staleDf++
    if (this.tombstones > 1000 && this.tombstones > 0.3 * this.ids.length) this.compact()
    return true
  }

  search (query: string, opts: SearchOptions<K> = {}): Array<{ id: K; score: number }> {
    const limit = Math.max(0, opts.limit ?? 10)
    if (this.live === 0 || limit === 0) return []
    const part = opts.partition === undefined ? undefined : this.partitionIds.get(opts.partition)
    if (opts.partition !== undefined && part === undefined) return []
    const { terms, idfs, avg } = this.prepare(query, opts.maxExpansion ?? (part === undefined ? EXPAND_ALL : EXPAND_PARTITION))
    if (terms.length === 0) return []
    const top = new TopDocs(limit)
    const ids = this.ids
    const lens = this.lens
    const filter = opts.filter
    const accept = (d: number): boolean => ids[d] !== undefined && (!filter || filter(ids[d]))
    if (part !== undefined) this.scorePartition(part, terms, idfs, avg, accept, top)
    else if (opts.exhaustive === true) this.scoreAll(terms, idfs, avg, accept, top)
    else maxScore({ lists: this.postings, terms, idfs, lens, avg, accept }, top)
    return top.result().map(({ doc, score }) => ({ id: ids[doc]!, score }))
  }

  /**
   * What a second stage over a few candidates needs to weigh the query's terms in them (lib/knowledge/
   * passages.ts: a passage's document context): the terms as a whole-index search expands and weighs
   * them (idfs, the average length), each candidate's length and each term's frequency in it
   * (tfs[i * terms + k], 0 where absent; an unknown id has length 0). Its cost is the candidates', not
   * the lists'.
   */
  termStats (query: string, ids: readonly K[], opts: { maxExpansion?: number } = {}): { idfs: number[]; avg: number; lens: Int32Array; tfs: Uint8Array } {
    const lens = new Int32Array(ids.length)
    if (this.live === 0) return { idfs: [], avg: 1, lens, tfs: new Uint8Array(0) }
    const q = this.prepare(query, opts.maxExpansion ?? EXPAND_ALL)
    const n = q.terms.length
    const tfs = new Uint8Array(ids.length * n)
    // candidates in document-number order (the lists' order), then back to the caller's
    const at: number[] = []
    const docOf: number[] = []
    ids.forEach((id, i) => {
      const d = this.docNumbers.get(id)
      if (d === undefined) return
      at.push(i); docOf.push(d); lens[i] = this.lens[d]!
    })
    const order = at.map((_, j) => j).sort((x, y) => docOf[x]! - docOf[y]!)
    const docs = Int32Array.from(order, (j) => docOf[j]!)
    const sorted = new Uint8Array(docs.length * n)
    termFreqs(this.postings, q.terms, docs, sorted)
    order.forEach((j, r) => tfs.set(sorted.subarray(r * n, r * n + n), at[j]! * n))
    return { idfs: q.idfs, avg: q.avg, lens, tfs }
  }

  /** The query's term ids (lone CJK characters expanded) with their idf, and the average length. */
  private prepare (query: string, maxExpansion: number): { terms: number[]; idfs: number[]; avg: number } {
    const avg = this.liveLen / this.live || 1
    const terms: number[] = []
    const idfs: number[] = []
    for (const t of this.expand(queryTokens(query), maxExpansion)) {
      const df = this.docFreq(t)
      if (df > 0) { terms.push(t); idfs.push(Math.log(1 + (this.live - df + 0.5) / (df + 0.5))) }
    }
    return { terms, idfs, avg }
  }

  /** A partition's documents (chained newest first), each scored from its own term list. */
  private scorePartition (part: number, terms: number[], idfs: number[], avg: number, accept: (d: number) => boolean, top: TopDocs): void {
    const slotOf = new Map<number, number>()
    terms.forEach((t, k) => slotOf.set(t, k))
    const contrib = new Float64Array(terms.length)
    const has = new Uint8Array(terms.length)
    for (let d = this.partHead[part]!; d !== NONE; d = this.prevInPart[d]!) {
      if (this.ids[d] === undefined) continue
      const start = this.fwdStart[d]!
      let any = false
      for (let i = start; i < start + this.fwdLen[d]!; i++) {
        const k = slotOf.get(this.poolTerms[i]!)
        if (k === undefined) continue
        contrib[k] = weight(idfs[k]!, this.poolTfs[i]!, this.lens[d]!, avg)
        has[k] = 1
        any = true
      }
      if (!any) continue
      // weights added in query order, as the other walks do (equal scores to the last bit)
      let s = 0
      for (let k = 0; k < terms.length; k++) if (has[k] === 1) s += contrib[k]!
      has.fill(0)
      if (s > 0 && s >= top.threshold && accept(d)) top.push(d, s)
    }
  }

  /** Every posting of the query's terms scored (term at a time). */
  private scoreAll (terms: number[], idfs: number[], avg: number, accept: (d: number) => boolean, top: TopDocs): void {
    this.scores = grow(this.scores, this.ids.length)
    const scores = this.scores
    const touched: number[] = []
    for (let k = 0; k < terms.length; k++) {
      const { docs, tfs, n } = this.postings.read(terms[k]!)
      for (let i = 0; i < n; i++) {
        const d = docs[i]!
        if (this.ids[d] === undefined) continue
        if (scores[d] === 0) touched.push(d)
        scores[d]! += weight(idfs[k]!, tfs[i]!, this.lens[d]!, avg)
      }
    }
    for (const d of touched) {
      const s = scores[d]!
      scores[d] = 0
      if (s > 0 && accept(d)) top.push(d, s)
    }
  }

  /** Live documents holding a term: the kept count, or a walk over its posting while some are stale. */
  private docFreq (t: number): number {
    if (this.staleDf === 0) return this.df[t]!
    const { docs, n } = this.postings.read(t)
    let live = 0
    for (let k = 0; k < n; k++) if (this.ids[docs[k]!] !== undefined) live++
    return live
  }

  /** Term ids of the query, a lone CJK character replaced by the most frequent bigrams holding it. */
  private expand (terms: string[], maxExpansion: number): number[] {
    const out = new Set<number>()
    for (const term of terms) {
      const t = this.termIds.get(term)
      if (t !== undefined) out.add(t)
      if (term.length === 1 && isCjk(term)) {
        const holding = (this.charTerms.get(term) ?? []).filter((b) => this.df[b]! > 0)
        if (holding.length > maxExpansion) holding.sort((a, b) => this.df[b]! - this.df[a]!)
        for (const b of holding.slice(0, maxExpansion)) out.add(b)
      }
    }
    return [...out]
  }

  private intern (term: string): number {
    const t = this.terms++
    this.termIds.set(own(term), t)
    this.df = grow(this.df, t + 1)
    this.tfScratch = grow(this.tfScratch, t + 1)
    if (term.length > 1 && isCjk(term)) {
      for (const ch of new Set(term)) {
        let list = this.charTerms.get(ch)
        if (!list) this.charTerms.set(ch, (list = []))
        list.push(t)
      }
    }
    return t
  }

  /** Per-document arrays; those of partitions only once there is one (an index without partitions never pays for them). */
  private ensureDocs (n: number): void {
    this.lens = grow(this.lens, n)
    if (this.partitionIds.size === 0) return
    this.docPart = grow(this.docPart, n, NONE)
    this.prevInPart = grow(this.prevInPart, n)
    this.fwdStart = grow(this.fwdStart, n)
    this.fwdLen = grow(this.fwdLen, n)
  }

  private partitionNumber (partition: string): number {
    let n = this.partitionIds.get(partition)
    if (n === undefined) {
      this.partitionIds.set(partition, (n = this.partitionIds.size))
      this.partHead = grow(this.partHead, n + 1, NONE)
      this.partHead[n] = NONE
    }
    return n
  }

  /** Renumbers live documents, drops tombstones from every posting and recounts stale frequencies. */
  private compact (): void {
    const old = { lens: this.lens, docPart: this.docPart, fwdStart: this.fwdStart, fwdLen: this.fwdLen, poolTerms: this.poolTerms, poolTfs: this.poolTfs }
    const remap = new Int32Array(this.ids.length).fill(-1)
    const ids: K[] = []
    let used = 0
    this.ids.forEach((id, d) => {
      if (id === undefined) return
      remap[d] = ids.length
      ids.push(id)
      if ((old.docPart[d] ?? NONE) !== NONE) used += old.fwdLen[d]!
    })
    this.ids = ids
    this.lens = new Int32Array(0)
    this.docPart = new Int32Array(0)
    this.prevInPart = new Int32Array(0)
    this.fwdStart = new Int32Array(0)
    this.fwdLen = new Int32Array(0)
    this.ensureDocs(ids.length)
    this.partHead.fill(NONE)
    this.poolTerms = new Int32Array(used)
    this.poolTfs = new Uint8Array(used)
    this.poolUsed = 0
    remap.forEach((n, d) => {
      if (n < 0) return
      this.docNumbers.set(ids[n]!, n)
      this.lens[n] = old.lens[d]!
      const part = old.docPart[d] ?? NONE
      if (part === NONE) return
      this.docPart[n] = part
      this.prevInPart[n] = this.partHead[part]!
      this.partHead[part] = n
      const start = old.fwdStart[d]!
      const len = old.fwdLen[d]!
      this.fwdStart[n] = this.poolUsed
      this.fwdLen[n] = len
      this.poolTerms.set(old.poolTerms.subarray(start, start + len), this.poolUsed)
      this.poolTfs.set(old.poolTfs.subarray(start, start + len), this.poolUsed)
      this.poolUsed += len
    })
    const avg = this.liveLen / this.live
    this.postings = this.postings.remapped(this.terms, remap, (d, tf) => impact(tf, this.lens[d]!, avg), avg)
    if (this.staleDf > 0) for (let t = 0; t < this.terms; t++) this.df[t] = this.postings.count(t)
    this.tombstones = 0
    this.staleDf = 0
  }
}
