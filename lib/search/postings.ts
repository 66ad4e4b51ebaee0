// The posting lists of a BM25 index, packed as bytes. One list per term id; an entry is a document
// number and its term frequency, documents only ever increasing within a list. An entry is written as
// a varint of (gap from the list's previous document) * 2 + (tf is 1), then the tf as one byte when it
// is not 1 (capped at 255: BM25 saturates long before): about 2-3 bytes an entry where a number in a
// JS array costs 8 and more, which is what made a big index several times the size of its texts.
// A list is a chain of blocks in a shared pool of 1 MiB pages (no per-term object, nothing for the
// garbage collector to trace or copy; growing never copies a list): a new list starts in an 8-byte
// block, each next block is about 1.5x the last (up to 1 KiB), and a block's last 4 bytes hold the
// address of the next one. Per term, six numbers in typed arrays.
// Skipping (lib/search/maxscore.ts): every run of BLOCK entries of a list has a record (where its
// bytes start, its last document, the best impact of its entries), chained per term, so a search can
// step over a run without decoding it and bound what any document of the run can score. A list of
// one run (most terms: rare bigrams) has no record: it is read from its head and bounds nothing
// tighter than 1, as does the first run of a longer list (the record made when the second opens).

import { grow } from './grow.js'

export const TF_MAX = 255
const PAGE_BITS = 20
const PAGE = 1 << PAGE_BITS
const OFFSET = PAGE - 1
const FIRST_PAGE = 4096
/** Block sizes by level, the last repeating; each ends in a 4-byte link to the next block. */
const SIZES = [8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024]
const TOP = SIZES.length - 1
const LINK = 4
/** Addresses are 32-bit: 4,096 pages. */
const MAX_PAGES = 2 ** (32 - PAGE_BITS)
/** Entries a skip record covers: small enough for tight bounds, large enough to cost ~0.2 byte an entry. */
export const BLOCK = 128

export class PostingLists {
  private pages: Uint8Array[] = []
  /** next free byte of the last page */
  private used = 0
  private head = new Uint32Array(0)
  /** where the next byte of a list goes, and where its current block's link begins */
  private pos = new Uint32Array(0)
  private end = new Uint32Array(0)
  private level = new Uint8Array(0)
  private last = new Int32Array(0)
  private counts = new Int32Array(0)
  private docs = new Int32Array(0)
  private tfs = new Uint8Array(0)
  /** per term: its first and its last (open) skip record, -1 when none */
  private firstRec = new Int32Array(0)
  private lastRec = new Int32Array(0)
  // per skip record: where its first entry's bytes start (address, end of that pool block, block
  // level, as a list reader holds them), its last document, the next record of the term, and the
  // best impact of its entries with the lowest reference they were computed with (bound())
  private recAddr = new Uint32Array(0)
  private recEnd = new Uint32Array(0)
  private recLevel = new Uint8Array(0)
  private recLast = new Int32Array(0)
  private recNext = new Int32Array(0)
  private recMax = new Float32Array(0)
  private recRef = new Float32Array(0)
  private records = 0

  /** Entries of a term's list. */
  count (t: number): number { return this.counts[t] ?? 0 }

  /** Bytes held by the pool (pages allocated). */
  get bytes (): number { return this.pages.reduce((n, p) => n + p.length, 0) }

  /**
   * Appends an entry to a term's list; `doc` is above every document already in it. `impact` is what
   * the index bounds the entry's weight with, valid for a reference `ref` (bound()); the defaults bound
   * nothing tighter than 1.
   */
  append (t: number, doc: number, tf: number, impact = 1, ref = Infinity): void {
    let gap = doc
    const n = this.count(t)
    if (n === 0) {
      this.ensure(t + 1)
      const a = this.alloc(SIZES[0]!)
      this.head[t] = a
      this.pos[t] = a
      this.end[t] = a + SIZES[0]! - LINK
      this.level[t] = 0
    } else gap = doc - this.last[t]!
    if (n === BLOCK) this.firstRecord(t)
    if (n % BLOCK === 0 && n > 0) this.openRecord(t)
    if (n >= BLOCK) this.note(this.lastRec[t]!, doc, impact, ref)
    let v = gap * 2 + (tf === 1 ? 1 : 0)
    while (v >= 0x80) {
      this.put(t, (v % 0x80) | 0x80)
      v = Math.floor(v / 0x80)
    }
    this.put(t, v)
    if (tf !== 1) this.put(t, Math.min(Math.max(tf, 0), TF_MAX))
    this.last[t] = doc
    this.counts[t]!++
  }

  /**
   * A term's entries decoded into scratch arrays (docs[i], tfs[i] for i < n), in document order;
   * valid until the next call.
   */
  read (t: number): { docs: Int32Array; tfs: Uint8Array; n: number } {
    const n = this.count(t)
    if (this.docs.length < n) {
      this.docs = new Int32Array(Math.max(n, this.docs.length * 2))
      this.tfs = new Uint8Array(this.docs.length)
    }
    const { docs, tfs } = this
    if (n === 0) return { docs, tfs, n }
    let addr = this.head[t]!
    let level = 0
    let page = this.pages[addr >>> PAGE_BITS]!
    let i = addr & OFFSET
    let end = i + SIZES[0]! - LINK
    // the next block, once the current one is read up to its link
    const hop = (): void => {
      addr = page[i]! | (page[i + 1]! << 8) | (page[i + 2]! << 16) | (page[i + 3]! * 0x1000000)
      if (level < TOP) level++
      page = this.pages[addr >>> PAGE_BITS]!
      i = addr & OFFSET
      end = i + SIZES[level]! - LINK
    }
    let doc = 0
    for (let k = 0; k < n; k++) {
      if (i === end) hop()
      let b = page[i++]!
      let v = b & 0x7f
      let scale = 0x80
      while (b >= 0x80) {
        if (i === end) hop()
        b = page[i++]!
        v += (b & 0x7f) * scale
        scale *= 0x80
      }
      const one = v & 1 // parity survives & even past 32 bits
      doc += (v - one) / 2
      docs[k] = doc
      if (one === 1) tfs[k] = 1
      else {
        if (i === end) hop()
        tfs[k] = page[i++]!
      }
    }
    return { docs, tfs, n }
  }

  /** A term's first skip record, -1 when its list is empty (a list of one run: -2 - t, no record kept). */
  firstBlock (t: number): number { return this.count(t) === 0 ? -1 : this.count(t) <= BLOCK ? -2 - t : this.firstRec[t]! }
  /** The next skip record of the same term, -1 after the last. */
  nextBlock (r: number): number { return r < 0 ? -1 : this.recNext[r]! }
  /** The last document of a record's entries. */
  blockLast (r: number): number { return r < 0 ? this.last[-2 - r]! : this.recLast[r]! }
  /**
   * At least the impact of every entry of a record at reference `ref`, for an impact that falls as
   * the reference falls, no faster than in proportion (BM25's tf part with the average length as
   * reference, bm25.ts) and never above 1: a record keeps its best impact and lowest reference, so
   * max(1, ref / lowest) times the best is a bound whatever the reference is now (1 where no record is).
   */
  bound (r: number, ref: number): number { return r < 0 ? 1 : this.recMax[r]! * Math.max(1, ref / this.recRef[r]!) }

  /**
   * Decodes the entries of record `r` of term `t` into docs/tfs (BLOCK long at least); `base` is the
   * last document of the record before (0 for the first). Returns how many.
   */
  decodeBlock (t: number, r: number, base: number, docs: Int32Array, tfs: Uint8Array): number {
    const one = r < 0
    const n = one ? this.count(t) : r === this.lastRec[t] ? ((this.count(t) - 1) % BLOCK) + 1 : BLOCK
    let level = one ? 0 : this.recLevel[r]!
    const addr = one ? this.head[t]! : this.recAddr[r]!
    let page = this.pages[addr >>> PAGE_BITS]!
    let i = addr & OFFSET
    let end = one ? i + SIZES[0]! - LINK : this.recEnd[r]! & OFFSET
    let doc = base
    for (let k = 0; k < n; k++) {
      let v = 0
      let scale = 1
      let b = 0x80
      while (b >= 0x80) {
        if (i === end) {
          // the next pool block, once this one is read up to its link
          const addr = page[i]! | (page[i + 1]! << 8) | (page[i + 2]! << 16) | (page[i + 3]! * 0x1000000)
          if (level < TOP) level++
          page = this.pages[addr >>> PAGE_BITS]!
          i = addr & OFFSET
          end = i + SIZES[level]! - LINK
        }
        b = page[i++]!
        v += (b & 0x7f) * scale
        scale *= 0x80
      }
      const one = v & 1
      doc += (v - one) / 2
      docs[k] = doc
      if (one === 1) tfs[k] = 1
      else {
        if (i === end) {
          const addr = page[i]! | (page[i + 1]! << 8) | (page[i + 2]! << 16) | (page[i + 3]! * 0x1000000)
          if (level < TOP) level++
          page = this.pages[addr >>> PAGE_BITS]!
          i = addr & OFFSET
          end = i + SIZES[level]! - LINK
        }
        tfs[k] = page[i++]!
      }
    }
    return n
  }

  /**
   * The lists of documents that map to a new number (remap[doc] >= 0), renumbered, in a new pool;
   * `impact` gives an entry's impact in the new numbering, valid for `ref`.
   */
  remapped (terms: number, remap: Int32Array, impact?: (doc: number, tf: number) => number, ref = Infinity): PostingLists {
    const out = new PostingLists()
    for (let t = 0; t < terms; t++) {
      const { docs, tfs, n } = this.read(t)
      for (let k = 0; k < n; k++) {
        const d = remap[docs[k]!]!
        if (d >= 0) out.append(t, d, tfs[k]!, impact ? impact(d, tfs[k]!) : 1, impact ? ref : Infinity)
      }
    }
    return out
  }

  /** Cuts the per-term and per-record arrays to what is used and releases the decoding scratch. */
  trim (): void {
    const n = this.counts.length === 0 ? 0 : this.usedTerms()
    this.head = this.head.slice(0, n)
    this.pos = this.pos.slice(0, n)
    this.end = this.end.slice(0, n)
    this.level = this.level.slice(0, n)
    this.last = this.last.slice(0, n)
    this.counts = this.counts.slice(0, n)
    this.firstRec = this.firstRec.slice(0, n)
    this.lastRec = this.lastRec.slice(0, n)
    const r = this.records
    this.recAddr = this.recAddr.slice(0, r)
    this.recEnd = this.recEnd.slice(0, r)
    this.recLevel = this.recLevel.slice(0, r)
    this.recLast = this.recLast.slice(0, r)
    this.recNext = this.recNext.slice(0, r)
    this.recMax = this.recMax.slice(0, r)
    this.recRef = this.recRef.slice(0, r)
    this.docs = new Int32Array(0)
    this.tfs = new Uint8Array(0)
  }

  /** One past the highest term id with a list. */
  private usedTerms (): number {
    let n = this.counts.length
    while (n > 0 && this.counts[n - 1] === 0) n--
    return n
  }

  /** Keeps a record's last document and best impact (rounded up, its reference down, so the bound stays one). */
  private note (r: number, doc: number, impact: number, ref: number): void {
    this.recLast[r] = doc
    const up = Math.fround(impact * (1 + 1e-6))
    if (up > this.recMax[r]!) this.recMax[r] = up
    const down = Math.fround(ref * (1 - 1e-6))
    if (down < this.recRef[r]!) this.recRef[r] = down
  }

  /** The record of a list's first run, once a second opens: from its head, bounding nothing tighter than 1. */
  private firstRecord (t: number): void {
    const r = this.newRecord()
    this.recAddr[r] = this.head[t]!
    this.recEnd[r] = this.head[t]! + SIZES[0]! - LINK
    this.recLevel[r] = 0
    this.recNext[r] = -1
    this.recLast[r] = this.last[t]!
    this.recMax[r] = 1
    this.recRef[r] = Infinity
    this.firstRec[t] = r
    this.lastRec[t] = r
  }

  /** A new skip record for the entries appended to `t` from now on (its bytes start at the list's write position). */
  private openRecord (t: number): void {
    const r = this.newRecord()
    this.recAddr[r] = this.pos[t]!
    this.recEnd[r] = this.end[t]!
    this.recLevel[r] = this.level[t]!
    this.recNext[r] = -1
    this.recMax[r] = 0
    this.recRef[r] = Infinity
    this.recNext[this.lastRec[t]!] = r
    this.lastRec[t] = r
  }

  private newRecord (): number {
    const r = this.records++
    if (r >= this.recAddr.length) {
      this.recAddr = grow(this.recAddr, r + 1)
      this.recEnd = grow(this.recEnd, r + 1)
      this.recLevel = grow(this.recLevel, r + 1)
      this.recLast = grow(this.recLast, r + 1)
      this.recNext = grow(this.recNext, r + 1)
      this.recMax = grow(this.recMax, r + 1)
      this.recRef = grow(this.recRef, r + 1)
    }
    return r
  }

  private put (t: number, b: number): void {
    let p = this.pos[t]!
    if (p === this.end[t]) {
      const level = Math.min(this.level[t]! + 1, TOP)
      const next = this.alloc(SIZES[level]!)
      const page = this.pages[p >>> PAGE_BITS]!
      const i = p & OFFSET
      page[i] = next & 0xff
      page[i + 1] = (next >>> 8) & 0xff
      page[i + 2] = (next >>> 16) & 0xff
      page[i + 3] = next >>> 24
      this.level[t] = level
      this.end[t] = next + SIZES[level]! - LINK
      p = next
    }
    this.pages[p >>> PAGE_BITS]![p & OFFSET] = b
    this.pos[t] = p + 1
  }

  /**
   * A block of `size` bytes; blocks never straddle pages. The first page starts at 4 KiB and grows
   * (copied) up to a whole page, so the many small indexes (a preset's, the tools') stay small.
   */
  private alloc (size: number): number {
    const n = this.pages.length
    const last = this.pages[n - 1]
    if (last === undefined || this.used + size > last.length) {
      if (last !== undefined && last.length < PAGE) {
        const bigger = new Uint8Array(Math.min(PAGE, last.length * 4))
        bigger.set(last)
        this.pages[n - 1] = bigger
      } else {
        if (n === MAX_PAGES) throw new Error('search index is full (4 GiB of postings)')
        this.pages.push(new Uint8Array(n === 0 ? FIRST_PAGE : PAGE))
        this.used = 0
      }
    }
    const a = (this.pages.length - 1) * PAGE + this.used
    this.used += size
    return a
  }

  private ensure (n: number): void {
    if (this.counts.length >= n) return
    this.head = grow(this.head, n)
    this.pos = grow(this.pos, n)
    this.end = grow(this.end, n)
    this.level = grow(this.level, n)
    this.last = grow(this.last, n)
    this.counts = grow(this.counts, n)
    this.firstRec = grow(this.firstRec, n)
    this.lastRec = grow(this.lastRec, n)
  }
}
