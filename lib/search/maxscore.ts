// Top-k BM25 over posting lists without scoring every posting: block-max MaxScore (Turtle & Flood's
// MaxScore over Ding & Suel's per-block bounds, in windows as Lucene's MaxScoreBulkScorer does).
// Documents are visited in number order, in windows that end where the first of the query terms' skip
// records (postings.ts, BLOCK entries each) ends. In a window each term's best possible weight is its
// record's bound; terms sorted by it, the weakest ones whose bounds together cannot beat the k-th best
// score so far are "non-essential": only documents of the other lists are candidates, the weak lists
// are only probed for a candidate (skipping whole records, decoding one when needed) and a candidate is
// dropped as soon as what it has plus what is left to probe cannot beat the k-th best. A window where
// all bounds together cannot beat it is skipped whole.
// Exact: a document is dropped only when an upper bound of its score is at most the k-th best kept,
// and documents come in number order, so a dropped one would not have entered (ties keep the lower
// number, top-k.ts). Scores add the terms' weights in query order, as the exhaustive walk does, so they
// are equal to the last bit (tests/search/maxscore.test.ts).
import { BLOCK, type PostingLists } from './postings.js'
import type { TopDocs } from './top-k.js'

const K1 = 1.2
const B = 0.75

/** A term's BM25 weight in one document; the one formula of both walks (bit-equal scores). */
export const weight = (idf: number, tf: number, len: number, avg: number): number => idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len / avg))
/** What a posting list keeps to bound weights (postings.ts, bound()): the weight without idf and K1 + 1, at average `avg`. */
export const impact = (tf: number, len: number, avg: number): number => tf / (tf + K1 * (1 - B + B * len / avg))

/** Bounds are raised by this much so that rounding never makes one fall below a score. */
const SLACK = 1 + 1e-9
const END = 2 ** 31 - 1

/** One query term's walk over its list: the current skip record, its decoded entries, a position. */
class Cursor {
  rec: number
  /** last document of the record before (the base of the current record's gaps) */
  base = 0
  decoded = -1
  readonly docs = new Int32Array(BLOCK)
  readonly tfs = new Uint8Array(BLOCK)
  n = 0
  i = 0
  /** the current document (END when done) */
  doc = -1
  ub = 0
  constructor (private readonly lists: PostingLists, readonly t: number, readonly idf: number, readonly slot: number) {
    this.rec = lists.firstBlock(t)
  }

  /** Moves to the record holding the first document >= target, without decoding; false when none. */
  shallow (target: number): boolean {
    while (this.rec !== -1 && this.lists.blockLast(this.rec) < target) {
      this.base = this.lists.blockLast(this.rec)
      this.rec = this.lists.nextBlock(this.rec)
    }
    return this.rec !== -1
  }

  /** The first document >= target (END when none). */
  advance (target: number): number {
    if (this.doc >= target) return this.doc
    if (!this.shallow(target)) return (this.doc = END)
    if (this.decoded !== this.rec) {
      this.n = this.lists.decodeBlock(this.t, this.rec, this.base, this.docs, this.tfs)
      this.decoded = this.rec
      this.i = 0
    }
    while (this.docs[this.i]! < target) this.i++ // the record's last document is >= target
    return (this.doc = this.docs[this.i]!)
  }

  get tf (): number { return this.tfs[this.i]! }
}

interface MaxScoreInput {
  lists: PostingLists
  /** term ids and their idf, in query order (the order weights are added in) */
  terms: readonly number[]
  idfs: readonly number[]
  lens: Int32Array
  avg: number
  /** a live document the caller wants (tombstones and filters) */
  accept: (doc: number) => boolean
}

/** Offers to `top` every document that can be among its best; the result equals scoring every posting. */
export function maxScore (q: MaxScoreInput, top: TopDocs): void {
  const { lists, lens, avg } = q
  let cursors = q.terms.map((t, slot) => new Cursor(lists, t, q.idfs[slot]!, slot))
  const n0 = cursors.length
  const contrib = new Float64Array(n0)
  const has = new Uint8Array(n0)
  const pre = new Float64Array(n0 + 1)
  let lo = 0
  for (;;) {
    cursors = cursors.filter((c) => c.shallow(lo))
    const n = cursors.length
    if (n === 0) return
    let hi = END
    for (const c of cursors) {
      hi = Math.min(hi, lists.blockLast(c.rec))
      c.ub = c.idf * (K1 + 1) * lists.bound(c.rec, avg) * SLACK
    }
    // weakest first (insertion sort: a handful of terms)
    for (let i = 1; i < n; i++) {
      const c = cursors[i]!
      let j = i - 1
      while (j >= 0 && cursors[j]!.ub > c.ub) { cursors[j + 1] = cursors[j]!; j-- }
      cursors[j + 1] = c
    }
    for (let i = 0; i < n; i++) pre[i + 1] = pre[i]! + cursors[i]!.ub
    let theta = top.threshold
    let m = 0
    while (m < n && pre[m + 1]! <= theta) m++
    if (m === n) { lo = hi + 1; continue } // nothing in this window can enter
    let d = END
    for (let j = m; j < n; j++) d = Math.min(d, cursors[j]!.advance(lo))
    while (d <= hi) {
      let partial = 0
      for (let j = m; j < n; j++) {
        const c = cursors[j]!
        if (c.doc !== d) continue
        const w = weight(c.idf, c.tf, lens[d]!, avg)
        contrib[c.slot] = w
        has[c.slot] = 1
        partial += w
      }
      if (partial + pre[m]! > theta && q.accept(d)) {
        let j = m - 1
        for (; j >= 0; j--) {
          if (partial + pre[j + 1]! <= theta) break // what is left cannot lift it above the k-th best
          const c = cursors[j]!
          if (c.advance(d) !== d) continue
          const w = weight(c.idf, c.tf, lens[d]!, avg)
          contrib[c.slot] = w
          has[c.slot] = 1
          partial += w
        }
        if (j < 0) {
          let s = 0
          for (let k = 0; k < n0; k++) if (has[k] === 1) s += contrib[k]!
          top.push(d, s)
          theta = top.threshold
        }
      }
      has.fill(0)
      let next = END
      for (let j = m; j < n; j++) {
        const c = cursors[j]!
        next = Math.min(next, c.doc === d ? c.advance(d + 1) : c.doc)
      }
      d = next
    }
    lo = hi + 1
  }
}

/**
 * Each query term's frequency in each of `docs` (ascending document numbers, repeats allowed), written
 * to out[i * terms.length + k] (0 where the document lacks the term): one walk per term, skipping runs
 * as the search does. For a second stage over a few candidates (lib/knowledge/passages.ts).
 */
export function termFreqs (lists: PostingLists, terms: readonly number[], docs: Int32Array, out: Uint8Array): void {
  const n = terms.length
  for (let k = 0; k < n; k++) {
    const c = new Cursor(lists, terms[k]!, 0, k)
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!
      if (c.advance(d) === d) out[i * n + k] = c.tf
      else if (c.doc === END) break
    }
  }
}
