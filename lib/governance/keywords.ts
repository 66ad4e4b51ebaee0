// Multi-keyword search in one pass over the text (Aho-Corasick): 10,000 banned words cost about what
// one does, where 10,000 includes() would read the message 10,000 times. Built once per word list;
// case-insensitive (keywords and text are lower-cased; full-width letters are left as they are).

export interface KeywordHit {
  /** index of the keyword in the list given to the constructor */
  keyword: number
  /** where it starts in the text (UTF-16 index) */
  start: number
  end: number
}

export class KeywordMatcher {
  /** goto edges per node: char code -> node */
  private readonly next: Array<Map<number, number>> = [new Map()]
  private readonly fail: number[] = [0]
  /** the keyword ending exactly at a node (-1: none) */
  private readonly out: number[] = [-1]
  /** the nearest node on the fail chain with an output (-1: none) */
  private readonly dictLink: number[] = [-1]
  private readonly lengths: number[] = []

  constructor (readonly keywords: readonly string[]) {
    keywords.forEach((raw, k) => {
      const w = raw.toLowerCase()
      this.lengths.push(w.length)
      if (!w) return
      let node = 0
      for (let i = 0; i < w.length; i++) {
        const c = w.charCodeAt(i)
        let to = this.next[node]?.get(c)
        if (to === undefined) {
          to = this.next.length
          this.next.push(new Map())
          this.fail.push(0)
          this.out.push(-1)
          this.dictLink.push(-1)
          this.next[node]?.set(c, to)
        }
        node = to
      }
      if (this.out[node] === -1) this.out[node] = k
    })
    // breadth-first: fail links and dictionary links
    const queue: number[] = []
    for (const child of this.next[0]?.values() ?? []) queue.push(child)
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q] as number
      for (const [c, child] of this.next[node] ?? []) {
        let f = this.fail[node] as number
        while (f !== 0 && !this.next[f]?.has(c)) f = this.fail[f] as number
        const target = this.next[f]?.get(c)
        const fl = target !== undefined && target !== child ? target : 0
        this.fail[child] = fl
        this.dictLink[child] = this.out[fl] !== -1 ? fl : this.dictLink[fl] as number
        queue.push(child)
      }
    }
  }

  get size (): number { return this.keywords.length }

  /** Every occurrence of every keyword (overlapping ones included), in order of their end. */
  findAll (text: string, firstOnly = false): KeywordHit[] {
    const hits: KeywordHit[] = []
    if (this.next.length === 1) return hits
    const t = text.toLowerCase()
    let node = 0
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i)
      let to = this.next[node]?.get(c)
      while (to === undefined && node !== 0) {
        node = this.fail[node] as number
        to = this.next[node]?.get(c)
      }
      node = to ?? 0
      for (let o = this.out[node] !== -1 ? node : this.dictLink[node] as number; o !== -1 && o !== undefined; o = this.dictLink[o] as number) {
        const k = this.out[o] as number
        const len = this.lengths[k] as number
        hits.push({ keyword: k, start: i + 1 - len, end: i + 1 })
        if (firstOnly) return hits
      }
    }
    return hits
  }
}
