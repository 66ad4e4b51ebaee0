// The posting lists of a BM25 index, packed as bytes. One list per term id; an entry is a document
// number and its term frequency, documents only ever increasing within a list. An entry is written as
// a varint of (gap from the list's previous document) * 2 + (tf is 1), then the tf as one byte when it
// is not 1 (capped at 255: BM25 saturates long before): about 2-3 bytes an entry where a number in a
// JS array costs 8 and more, which is what made a big index several times the size of its texts.
// A list is a chain of blocks in a shared pool of 1 MiB pages (no per-term object, nothing for the
// garbage collector to trace or copy; growing never copies a list): a new list starts in an 8-byte
// block, each next block is about 1.5x the last (up to 1 KiB), and a block's last 4 bytes hold the
// address of the next one. Per term, six numbers in typed arrays.

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

  /** Entries of a term's list. */
  count (t: number): number { return this.counts[t] ?? 0 }

  /** Bytes held by the pool (pages allocated). */
  get bytes (): number { return this.pages.reduce((n, p) => n + p.length, 0) }

  /** Appends an entry to a term's list; `doc` is above every document already in it. */
  append (t: number, doc: number, tf: number): void {
    let gap = doc
    if (this.count(t) === 0) {
      this.ensure(t + 1)
      const a = this.alloc(SIZES[0]!)
      this.head[t] = a
      this.pos[t] = a
      this.end[t] = a + SIZES[0]! - LINK
      this.level[t] = 0
    } else gap = doc - this.last[t]!
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

  /** The lists of documents that map to a new number (remap[doc] >= 0), renumbered, in a new pool. */
  remapped (terms: number, remap: Int32Array): PostingLists {
    const out = new PostingLists()
    for (let t = 0; t < terms; t++) {
      const { docs, tfs, n } = this.read(t)
      for (let k = 0; k < n; k++) {
        const d = remap[docs[k]!]!
        if (d >= 0) out.append(t, d, tfs[k]!)
      }
    }
    return out
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
  }
}
