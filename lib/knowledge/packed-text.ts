// A document's content as the knowledge base holds it in memory (issue 17: a footprint close to the
// size on disk). V8 keeps a string holding any character above U+00FF at two bytes a character, so a
// text mixing Chinese with Latin letters, digits and spaces takes more memory than its UTF-8 bytes on
// disk; such a text is held as those bytes and decoded when read. Pure Chinese (3 bytes a character in
// UTF-8) and Latin-1 text (one byte a character in V8) stay strings. A packed text serialises as its
// string (toJSON), so the store's files do not change.

/** What one Buffer costs besides its bytes: packing must save more than this. */
const BUFFER_OVERHEAD = 96
const WIDE = /[^\u0000-\u00ff]/

export class PackedText {
  constructor (private readonly bytes: Buffer, readonly length: number) {}
  toString (): string { return this.bytes.toString('utf8') }
  /** At least the first `chars` UTF-16 units (a character is at most 4 bytes), without decoding the rest. */
  start (chars: number): string { return this.bytes.toString('utf8', 0, Math.min(this.bytes.length, 4 * chars)) }
  toJSON (): string { return this.toString() }
}

export type StoredText = string | PackedText

/** The form that takes less memory. */
export function pack (s: string): StoredText {
  const bytes = Buffer.byteLength(s)
  if (bytes + BUFFER_OVERHEAD >= 2 * s.length || !WIDE.test(s)) return s
  // a buffer of its own, of the exact size: Buffer.from would slice texts under 4 KiB out of shared 8 KiB
  // pools and leave the rest of a pool unused whenever the next text does not fit (about a third, measured)
  const buf = Buffer.allocUnsafeSlow(bytes)
  buf.write(s, 'utf8')
  return new PackedText(buf, s.length)
}

export const unpack = (t: StoredText): string => typeof t === 'string' ? t : t.toString()
