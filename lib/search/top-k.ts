// The k best-scored documents without sorting every candidate: a min-heap of size k in typed arrays.

/**
 * The k best documents by (score desc, document number asc): a total order, so the result never
 * depends on the order documents are offered in (a pruned and an exhaustive search agree exactly).
 */
export class TopDocs {
  private readonly scores: Float64Array
  private readonly docs: Int32Array
  private n = 0
  constructor (private readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k))
    this.docs = new Int32Array(Math.max(0, k))
  }

  /** The worst kept score once full (a document scoring at most this cannot enter after the kept ones), else −Infinity. */
  get threshold (): number { return this.n < this.k ? -Infinity : this.scores[0]! }

  /** Keeps (doc, score) when it beats the worst kept. */
  push (doc: number, score: number): void {
    if (this.k <= 0) return
    const { scores, docs } = this
    if (this.n < this.k) {
      let i = this.n++
      while (i > 0) {
        const p = (i - 1) >> 1
        if (!worse(score, doc, scores[p]!, docs[p]!)) break
        scores[i] = scores[p]!
        docs[i] = docs[p]!
        i = p
      }
      scores[i] = score
      docs[i] = doc
      return
    }
    if (!worse(scores[0]!, docs[0]!, score, doc)) return
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = -1
      let ms = score
      let md = doc
      if (l < this.n && worse(scores[l]!, docs[l]!, ms, md)) { m = l; ms = scores[l]!; md = docs[l]! }
      if (r < this.n && worse(scores[r]!, docs[r]!, ms, md)) { m = r; ms = scores[r]!; md = docs[r]! }
      if (m < 0) break
      scores[i] = ms
      docs[i] = md
      i = m
    }
    scores[i] = score
    docs[i] = doc
  }

  /** Best first. */
  result (): Array<{ doc: number; score: number }> {
    const out: Array<{ doc: number; score: number }> = []
    for (let i = 0; i < this.n; i++) out.push({ doc: this.docs[i]!, score: this.scores[i]! })
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc)
  }
}

/** (s1, d1) ranks below (s2, d2). */
const worse = (s1: number, d1: number, s2: number, d2: number): boolean => s1 < s2 || (s1 === s2 && d1 > d2)
