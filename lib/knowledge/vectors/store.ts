// The passage vectors in memory (lib/knowledge/README.md, "Found by meaning"): one Int8Array of all
// vectors (slot × dims), their scales, their sign bits, and per slot the owning document, passage
// number and preset. A document's passages take consecutive slots; removing it frees them at once
// (a search never returns them again) and the arrays are compacted once more slots are dead than live.
// Search: up to EXACT_MAX live vectors every one is scored (int8 dot product); beyond, the sign bits'
// Hamming distance picks candidates and only those are scored (measured in bench/knowledge-quality).
import { normalised, quantiseInto, signBits, signBitsInto, wordsOf } from './quantise.js'

/** Live vectors scored one by one; above this, a coarse pass over the sign bits picks candidates first. */
export const EXACT_MAX = 20_000
/** Candidates the coarse pass keeps: this many per result wanted, at least MIN_CANDIDATES. */
const CANDIDATES_PER_RESULT = 40
const MIN_CANDIDATES = 1_000

export interface VectorHit { docId: string; n: number; score: number }
/** One document's vectors as stored: int8 values (count × dims) and a scale each. */
export interface DocVectors { docId: string; presetId: string; fingerprint: string; values: Int8Array; scales: Float32Array }
interface Held { start: number; count: number; presetId: string; fingerprint: string }

export class VectorStore {
  private capacity = 0
  private used = 0
  private live = 0
  private values = new Int8Array(0)
  private bits = new Int32Array(0)
  private scales = new Float32Array(0)
  private passageNo = new Int32Array(0)
  /** 1: the slot holds a vector of a present document */
  private live8 = new Uint8Array(0)
  private owner: Array<string | undefined> = []
  private presetOf: Array<string | undefined> = []
  private readonly docs = new Map<string, Held>()

  constructor (private dimensions = 0) {}

  get dims (): number { return this.dimensions }
  /** Vectors held (of documents present). */
  get size (): number { return this.live }
  get documents (): number { return this.docs.size }
  has (docId: string): boolean { return this.docs.has(docId) }
  fingerprint (docId: string): string | undefined { return this.docs.get(docId)?.fingerprint }
  docPreset (docId: string): string | undefined { return this.docs.get(docId)?.presetId }

  /** Drops everything (another model: its vectors are not comparable). */
  reset (dims = 0): void {
    this.dimensions = dims
    this.capacity = this.used = this.live = 0
    this.values = new Int8Array(0); this.bits = new Int32Array(0); this.scales = new Float32Array(0); this.passageNo = new Int32Array(0); this.live8 = new Uint8Array(0)
    this.owner = []; this.presetOf = []
    this.docs.clear()
  }

  /** Quantises float vectors (any length; normalised here) into a document's record. */
  static quantise (docId: string, presetId: string, fingerprint: string, vectors: readonly ArrayLike<number>[], dims: number): DocVectors {
    const values = new Int8Array(vectors.length * dims)
    const scales = new Float32Array(vectors.length)
    vectors.forEach((v, i) => { scales[i] = quantiseInto(normalised(v), values, i * dims) })
    return { docId, presetId, fingerprint, values, scales }
  }

  /** Holds a document's vectors (replacing any it had). */
  put (d: DocVectors): void {
    const count = d.scales.length
    if (this.dimensions === 0) this.dimensions = d.values.length / Math.max(1, count)
    if (d.values.length !== count * this.dimensions) throw new Error(`Vectors of ${d.values.length / Math.max(1, count)} dimensions in an index of ${this.dimensions}`)
    this.remove(d.docId)
    this.reserve(count)
    const start = this.used
    const words = wordsOf(this.dimensions)
    this.values.set(d.values, start * this.dimensions)
    this.scales.set(d.scales, start)
    for (let i = 0; i < count; i++) {
      const slot = start + i
      signBitsInto(this.values, slot * this.dimensions, this.dimensions, this.bits, slot * words)
      this.passageNo[slot] = i
      this.live8[slot] = 1
      this.owner[slot] = d.docId
      this.presetOf[slot] = d.presetId
    }
    this.used += count
    this.live += count
    this.docs.set(d.docId, { start, count, presetId: d.presetId, fingerprint: d.fingerprint })
  }

  remove (docId: string): void {
    const h = this.docs.get(docId)
    if (!h) return
    this.docs.delete(docId)
    for (let s = h.start; s < h.start + h.count; s++) { this.owner[s] = undefined; this.presetOf[s] = undefined; this.live8[s] = 0 }
    this.live -= h.count
    if (this.used - this.live > Math.max(1024, this.live)) this.compact()
  }

  /** A document moved to another preset (its vectors unchanged). */
  setPreset (docId: string, presetId: string): void {
    const h = this.docs.get(docId)
    if (!h) return
    h.presetId = presetId
    for (let s = h.start; s < h.start + h.count; s++) this.presetOf[s] = presetId
  }

  /** The documents holding vectors. */
  docIds (): string[] { return [...this.docs.keys()] }

  /** Every document's vectors (the file is rewritten from them). */
  * all (): Generator<DocVectors> {
    for (const [docId, h] of this.docs) {
      yield {
        docId, presetId: h.presetId, fingerprint: h.fingerprint,
        values: this.values.slice(h.start * this.dimensions, (h.start + h.count) * this.dimensions), scales: this.scales.slice(h.start, h.start + h.count)
      }
    }
  }

  /** The passages nearest to `query` (cosine similarity, best first). */
  search (query: ArrayLike<number>, opts: { limit: number; presetId?: string; docs?: ReadonlySet<string> }): VectorHit[] {
    if (this.live === 0 || query.length !== this.dimensions || opts.limit <= 0) return []
    const q = normalised(query)
    const best = new TopK(opts.limit)
    const { presetId, docs } = opts // docs: only these documents (a scope of bases)
    const eligible = (s: number): boolean => this.owner[s] !== undefined && (presetId === undefined || this.presetOf[s] === presetId) && (docs === undefined || docs.has(this.owner[s]!))
    if (this.live <= EXACT_MAX) {
      for (let s = 0; s < this.used; s++) if (eligible(s)) best.offer(s, this.dot(q, s))
    } else {
      const filtered = presetId !== undefined || docs !== undefined
      for (const s of this.candidates(q, Math.max(MIN_CANDIDATES, CANDIDATES_PER_RESULT * opts.limit), eligible, filtered)) best.offer(s, this.dot(q, s))
    }
    return best.sorted().map(({ slot, score }) => ({ docId: this.owner[slot]!, n: this.passageNo[slot]!, score }))
  }

  private dot (q: Float32Array, slot: number): number {
    const v = this.values
    const d = this.dimensions
    const at = slot * d
    let sum = 0
    for (let i = 0; i < d; i++) sum += v[at + i]! * q[i]!
    return sum * this.scales[slot]!
  }

  /** The `want` eligible slots whose sign bits are nearest the query's (Hamming distance; a histogram picks the cut). */
  private candidates (q: Float32Array, want: number, eligible: (s: number) => boolean, filtered: boolean): number[] {
    const words = wordsOf(this.dimensions)
    const qb = signBits(q)
    const far = this.dimensions + 1
    const dist = new Uint16Array(this.used)
    const histogram = new Uint32Array(this.dimensions + 2)
    const bits = this.bits
    const live = this.live8
    for (let s = 0; s < this.used; s++) {
      if (live[s] === 0 || (filtered && !eligible(s))) { dist[s] = far; continue }
      let h = 0
      const at = s * words
      // popcount of four words at a time, their byte counts summed before the one multiply (at most
      // 32 a byte, 128 in all): this loop is the whole cost of a large index
      for (let w = 0; w < words; w += 4) {
        let a = bits[at + w]! ^ qb[w]!
        let b = bits[at + w + 1]! ^ qb[w + 1]!
        let c = bits[at + w + 2]! ^ qb[w + 2]!
        let d = bits[at + w + 3]! ^ qb[w + 3]!
        a -= (a >>> 1) & 0x55555555; b -= (b >>> 1) & 0x55555555; c -= (c >>> 1) & 0x55555555; d -= (d >>> 1) & 0x55555555
        a = (a & 0x33333333) + ((a >>> 2) & 0x33333333); b = (b & 0x33333333) + ((b >>> 2) & 0x33333333)
        c = (c & 0x33333333) + ((c >>> 2) & 0x33333333); d = (d & 0x33333333) + ((d >>> 2) & 0x33333333)
        a = (a + (a >>> 4)) & 0x0f0f0f0f; b = (b + (b >>> 4)) & 0x0f0f0f0f; c = (c + (c >>> 4)) & 0x0f0f0f0f; d = (d + (d >>> 4)) & 0x0f0f0f0f
        h += Math.imul(a + b + c + d, 0x01010101) >>> 24
      }
      dist[s] = h
      histogram[h]!++
    }
    let cut = 0
    for (let seen = 0; cut <= this.dimensions && seen + histogram[cut]! < want; cut++) seen += histogram[cut]!
    const out: number[] = []
    for (let s = 0; s < this.used; s++) if (dist[s]! <= cut) out.push(s)
    return out
  }

  private reserve (more: number): void {
    if (this.used + more <= this.capacity) return
    const cap = Math.max(1024, this.used + more, this.capacity * 2)
    const grow = <T extends Int8Array | Uint8Array | Int32Array | Float32Array>(old: T, make: (n: number) => T, per: number): T => { const a = make(cap * per); a.set(old); return a }
    this.values = grow(this.values, (n) => new Int8Array(n), this.dimensions)
    this.bits = grow(this.bits, (n) => new Int32Array(n), wordsOf(this.dimensions))
    this.scales = grow(this.scales, (n) => new Float32Array(n), 1)
    this.passageNo = grow(this.passageNo, (n) => new Int32Array(n), 1)
    this.live8 = grow(this.live8, (n) => new Uint8Array(n), 1)
    this.capacity = cap
  }

  /** Moves the live vectors to the front (slots of removed documents reclaimed). */
  private compact (): void {
    const kept = [...this.all()]
    const dims = this.dimensions
    this.reset(dims)
    for (const d of kept) this.put(d)
  }
}

/** The best `k` (slot, score) pairs offered, kept sorted (k is small). */
class TopK {
  private readonly items: Array<{ slot: number; score: number }> = []
  constructor (private readonly k: number) {}
  offer (slot: number, score: number): void {
    const items = this.items
    if (items.length === this.k && score <= items[items.length - 1]!.score) return
    let i = items.length
    while (i > 0 && items[i - 1]!.score < score) i--
    items.splice(i, 0, { slot, score })
    if (items.length > this.k) items.pop()
  }
  sorted (): Array<{ slot: number; score: number }> { return this.items }
}
