// The k best-scored items without sorting every candidate: a min-heap of size k.
export class TopK<T> {
  private readonly heap: Array<{ item: T; score: number }> = []
  constructor (private readonly k: number) {}

  /** Lowest score that would still enter (−Infinity while not full). */
  get threshold (): number { return this.heap.length < this.k ? -Infinity : (this.heap[0]?.score ?? -Infinity) }

  push (item: T, score: number): void {
    if (this.k <= 0) return
    const h = this.heap
    if (h.length < this.k) {
      h.push({ item, score })
      let i = h.length - 1
      while (i > 0) {
        const p = (i - 1) >> 1
        if (h[p]!.score <= h[i]!.score) break
        ;[h[p], h[i]] = [h[i]!, h[p]!]
        i = p
      }
      return
    }
    if (score <= h[0]!.score) return
    h[0] = { item, score }
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && h[l]!.score < h[m]!.score) m = l
      if (r < h.length && h[r]!.score < h[m]!.score) m = r
      if (m === i) break
      ;[h[m], h[i]] = [h[i]!, h[m]!]
      i = m
    }
  }

  /** Best first. */
  result (): Array<{ item: T; score: number }> {
    return [...this.heap].sort((a, b) => b.score - a.score)
  }
}
