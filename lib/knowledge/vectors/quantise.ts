// Vectors as the index holds them (lib/knowledge/README.md, "Found by meaning"): each passage's vector
// normalised, then quantised to int8 with its own scale (a quarter of float32's memory, dot products
// within about 1% of the float ones), and its sign bits (a 1024-dimension vector in 128 bytes) for the
// coarse pass of a large index: Hamming distance between sign bits ranks candidates, int8 dot
// products rescore them.

/** The vector scaled to length 1 (a zero vector stays zero). */
export function normalised (v: ArrayLike<number>): Float32Array {
  let sum = 0
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!
  const out = new Float32Array(v.length)
  const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * inv
  return out
}

/** Writes the int8 form of a normalised vector into `into` at `at`; returns its scale (value = q × scale). */
export function quantiseInto (v: Float32Array, into: Int8Array, at: number): number {
  let max = 0
  for (let i = 0; i < v.length; i++) { const a = Math.abs(v[i]!); if (a > max) max = a }
  const scale = max > 0 ? max / 127 : 1
  for (let i = 0; i < v.length; i++) into[at + i] = Math.round(v[i]! / scale)
  return scale
}

/** 32-bit words of sign bits a vector of `dims` takes: a multiple of 4 (the Hamming loop takes four at a time; the padding is 0). */
export const wordsOf = (dims: number): number => Math.ceil(dims / 128) * 4

/** Writes the sign bits (bit set: component > 0) of an int8 vector into `into` at word `at`. */
export function signBitsInto (q: Int8Array, qAt: number, dims: number, into: Int32Array, at: number): void {
  const words = wordsOf(dims)
  for (let w = 0; w < words; w++) {
    let word = 0
    const end = Math.max(0, Math.min(32, dims - w * 32))
    for (let b = 0; b < end; b++) if (q[qAt + w * 32 + b]! > 0) word |= 1 << b
    into[at + w] = word
  }
}

/** Sign bits of a float vector. */
export function signBits (v: Float32Array): Int32Array {
  const words = wordsOf(v.length)
  const out = new Int32Array(words)
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) out[i >>> 5]! |= 1 << (i & 31)
  return out
}
