// Growing the typed arrays the index keeps per document and per term (bm25.ts, postings.ts).

type Typed = Int32Array | Uint32Array | Float64Array | Float32Array | Uint8Array | Uint16Array

/** `a` when it holds `need` entries, else a copy at least twice as long (new slots 0, or `fill`). */
export function grow<T extends Typed> (a: T, need: number, fill?: number): T {
  if (a.length >= need) return a
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2, 64))
  if (fill !== undefined) b.fill(fill, a.length)
  b.set(a)
  return b
}
