// Keys kept in the order of a numeric rank (a time), maintained on write, so a list route answers a
// page newest first without sorting the whole store (lib/chat/store.ts, lib/knowledge/service.ts,
// lib/memory/service.ts). A write that moves a key to the newest end (the usual case: its rank is now)
// is O(1): the old slot becomes a hole, compacted away once holes outnumber keys. A rank older than the
// newest one marks the order unsorted; the next read sorts once.

/** Compaction waits for at least this many holes (small stores never compact). */
const MIN_HOLES = 1024

export class RecencyOrder<K> {
  private slots: Array<K | undefined> = []
  private ranks: number[] = []
  private readonly at = new Map<K, number>()
  private holes = 0
  private sorted = true

  /** Keys with their ranks in any order (sorted once; ties keep the given order). */
  constructor (entries: Iterable<[K, number]> = []) {
    for (const [k, r] of entries) this.set(k, r)
  }

  get size (): number { return this.at.size }

  /** Adds a key or moves it to its new rank. */
  set (key: K, rank: number): void {
    const i = this.at.get(key)
    if (i !== undefined) {
      if (this.ranks[i] === rank) return
      this.slots[i] = undefined
      this.holes++
    }
    const tail = this.ranks.length > 0 ? this.ranks[this.ranks.length - 1]! : -Infinity
    if (rank < tail) this.sorted = false
    this.at.set(key, this.slots.length)
    this.slots.push(key)
    this.ranks.push(rank)
    this.compactIfSparse()
  }

  delete (key: K): boolean {
    const i = this.at.get(key)
    if (i === undefined) return false
    this.at.delete(key)
    this.slots[i] = undefined
    this.holes++
    this.compactIfSparse()
    return true
  }

  clear (): void {
    this.slots = []
    this.ranks = []
    this.at.clear()
    this.holes = 0
    this.sorted = true
  }

  /** Keys newest first (highest rank; among equal ranks the latest written first). */
  * newest (): Generator<K> {
    if (!this.sorted) this.compact()
    // a write during the iteration appends past it or punches a hole; a compaction builds new arrays,
    // so the captured ones stay a consistent view
    const slots = this.slots
    for (let i = slots.length - 1; i >= 0; i--) {
      const k = slots[i]
      if (k !== undefined) yield k
    }
  }

  /** A page of keys newest first: `offset` keys skipped, at most `limit` returned. */
  page (offset: number, limit: number): K[] {
    const out: K[] = []
    if (limit <= 0 || offset >= this.size) return out
    if (!this.sorted) this.compact()
    let skip = offset
    for (let i = this.slots.length - 1; i >= 0 && out.length < limit; i--) {
      const k = this.slots[i]
      if (k === undefined) continue
      if (skip > 0) { skip--; continue }
      out.push(k)
    }
    return out
  }

  /** Some of the keys (unknown ones dropped) in the order newest() gives them. */
  sortNewest (keys: Iterable<K>): K[] {
    const known: K[] = []
    for (const k of keys) if (this.at.has(k)) known.push(k)
    // equal ranks: the later slot (written later) first, as in newest()
    return known.sort((a, b) => {
      const i = this.at.get(a)!
      const j = this.at.get(b)!
      return this.ranks[j]! - this.ranks[i]! || j - i
    })
  }

  private compactIfSparse (): void {
    if (this.holes >= MIN_HOLES && this.holes > this.at.size) this.compact()
  }

  /** Drops the holes and, when needed, sorts (stable: ties keep their write order). */
  private compact (): void {
    const idx: number[] = []
    for (let i = 0; i < this.slots.length; i++) if (this.slots[i] !== undefined) idx.push(i)
    if (!this.sorted) idx.sort((a, b) => this.ranks[a]! - this.ranks[b]! || a - b)
    const slots = idx.map((i) => this.slots[i]!)
    const ranks = idx.map((i) => this.ranks[i]!)
    this.slots = slots
    this.ranks = ranks
    this.at.clear()
    for (let i = 0; i < slots.length; i++) this.at.set(slots[i]!, i)
    this.holes = 0
    this.sorted = true
  }
}
