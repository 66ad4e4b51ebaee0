// Posting lists sized for what they hold. An entry is one document number and its term frequency
// packed in one number (doc * 256 + tf, tf capped at 255: BM25 saturates long before). A term in one
// document only (most terms of a user's memories) is a bare number; a few entries are a plain array
// of numbers; a long list (LONG entries and more) moves to a typed array outside the JS heap (4 bytes
// an entry while documents number under 8M, 8 beyond), so growing it never makes the young-generation
// garbage collector copy it around (that copying is what stalled the event loop while a big index
// was being built). Document numbers in a posting only ever increase.

export const TF_MAX = 255
const LONG = 2048
const INT32_MAX = 2 ** 31 - 1

interface LongPosting { a: Int32Array | Float64Array; n: number }
export type Posting = number | number[] | LongPosting

const pack = (doc: number, tf: number): number => doc * 256 + Math.min(tf, TF_MAX)
export const docOf = (entry: number): number => Math.floor(entry / 256)
export const tfOf = (entry: number): number => entry % 256

/** Appends an entry; answers the posting to store (the same object when it grew in place). */
export function append (p: Posting | undefined, doc: number, tf: number): Posting {
  const e = pack(doc, tf)
  if (p === undefined) return e
  if (typeof p === 'number') return [p, e]
  if (Array.isArray(p)) {
    if (p.length < LONG) { p.push(e); return p }
    const long: LongPosting = { a: typed(p.length * 2, e), n: p.length }
    long.a.set(p)
    p = long
  }
  if (p.n === p.a.length || (e > INT32_MAX && p.a instanceof Int32Array)) {
    const a = typed(p.n === p.a.length ? p.a.length * 2 : p.a.length, e)
    a.set(p.a.subarray(0, p.n))
    p.a = a
  }
  p.a[p.n++] = e
  return p
}

const typed = (size: number, biggest: number): Int32Array | Float64Array => biggest > INT32_MAX ? new Float64Array(size) : new Int32Array(size)

/** The entries as an array-like and their count (no copy). */
export function entries (p: Posting): { list: ArrayLike<number>; n: number } {
  if (typeof p === 'number') return { list: [p], n: 1 }
  if (Array.isArray(p)) return { list: p, n: p.length }
  return { list: p.a, n: p.n }
}

export const length = (p: Posting): number => typeof p === 'number' ? 1 : Array.isArray(p) ? p.length : p.n

/** The entries whose document maps to a new number (remap[doc] >= 0), renumbered; undefined when none. */
export function remapped (p: Posting, remap: Int32Array): Posting | undefined {
  const { list, n } = entries(p)
  let out: Posting | undefined
  for (let i = 0; i < n; i++) {
    const e = list[i]!
    const d = remap[docOf(e)]!
    if (d >= 0) out = append(out, d, tfOf(e))
  }
  if (out !== undefined && typeof out === 'object' && !Array.isArray(out) && out.a.length > out.n * 1.5) out.a = out.a.slice(0, out.n)
  return out
}
