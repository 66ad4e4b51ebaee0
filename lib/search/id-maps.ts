// Lookup tables of the BM25 index that stay cheap as it grows. A single JS Map of a million entries
// costs ~80 bytes an entry and, when it outgrows its table, rehashes every entry in one go (tens of
// milliseconds on the event loop). Numeric ids (memories) map to document numbers in a typed array
// instead; other keys and the term vocabulary are spread over several smaller maps, so a rehash only
// ever touches one shard.

const SHARDS = 32
const DENSE_MAX = 2 ** 30

/** id → document number. */
export class DocNumbers<K extends string | number> {
  private dense = new Int32Array(0) // document number + 1; 0 = absent
  private readonly sparse = new ShardedMap<K>()

  get (id: K): number | undefined {
    if (isDense(id)) { const v = this.dense[id as number] ?? 0; return v === 0 ? undefined : v - 1 }
    return this.sparse.get(id)
  }

  has (id: K): boolean { return this.get(id) !== undefined }

  set (id: K, doc: number): void {
    if (!isDense(id)) { this.sparse.set(id, doc); return }
    const i = id as number
    if (i >= this.dense.length) {
      const next = new Int32Array(Math.max(i + 1, this.dense.length * 2, 1024))
      next.set(this.dense)
      this.dense = next
    }
    this.dense[i] = doc + 1
  }

  /** Room for numeric ids up to `maxId` (a bulk build: no doubling copy mid-way). */
  reserve (maxId: number): void {
    if (!isDense(maxId) || maxId < this.dense.length) return
    const next = new Int32Array(maxId + 1)
    next.set(this.dense)
    this.dense = next
  }

  delete (id: K): void {
    if (isDense(id)) { if ((id as number) < this.dense.length) this.dense[id as number] = 0 } else this.sparse.delete(id)
  }

  clear (): void { this.dense = new Int32Array(0); this.sparse.clear() }
}

const isDense = (id: string | number): boolean => typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < DENSE_MAX

/** A Map spread over 32 shards by a cheap hash. */
class ShardedMap<K extends string | number> {
  private shards: Array<Map<K, number>> = Array.from({ length: SHARDS }, () => new Map())
  get (k: K): number | undefined { return this.shard(k).get(k) }
  set (k: K, v: number): void { this.shard(k).set(k, v) }
  delete (k: K): void { this.shard(k).delete(k) }
  clear (): void { this.shards = Array.from({ length: SHARDS }, () => new Map()) }

  private shard (k: K): Map<K, number> {
    if (typeof k === 'number') return this.shards[(k >>> 0) % SHARDS]!
    const s = k as string
    const n = s.length
    const h = n === 0 ? 0 : (s.charCodeAt(0) * 31 + s.charCodeAt(n - 1) * 17 + s.charCodeAt(n >> 1) + n)
    return this.shards[h % SHARDS]!
  }
}

/**
 * Term → term id. Most terms of Chinese text are bigrams of two BMP CJK characters: those are keyed by
 * a number made of the two characters, in open-addressing tables of typed arrays (8 bytes a slot,
 * spread over 16 shards so a resize copies a sixteenth); a term string and its Map entry cost ~70
 * bytes, and a big vocabulary holds hundreds of thousands of bigrams. Other terms use a ShardedMap.
 */
export class TermIds {
  private readonly words = new ShardedMap<string>()
  private readonly pairs = Array.from({ length: PAIR_SHARDS }, () => new PairTable())

  get (term: string): number | undefined {
    const code = pairCode(term)
    return code === undefined ? this.words.get(term) : this.pairs[code & (PAIR_SHARDS - 1)]!.get(code)
  }

  set (term: string, id: number): void {
    const code = pairCode(term)
    if (code === undefined) this.words.set(term, id)
    else this.pairs[code & (PAIR_SHARDS - 1)]!.set(code, id)
  }
}

const PAIR_SHARDS = 16
const CJK_LOW = 0x3000
const SPAN = 0x10000 - CJK_LOW
/** keys start at -2^31 so every key is a small integer (V8 keeps them unboxed); never a key: */
const EMPTY = 2 ** 31 - 1

/** Two characters in U+3000..U+FFFF (every BMP CJK block) as one number, else undefined. */
function pairCode (term: string): number | undefined {
  if (term.length !== 2) return undefined
  const a = term.charCodeAt(0) - CJK_LOW
  const b = term.charCodeAt(1) - CJK_LOW
  if (a < 0 || b < 0 || (a >= 0xd800 - CJK_LOW && a < 0xe000 - CJK_LOW) || (b >= 0xd800 - CJK_LOW && b < 0xe000 - CJK_LOW)) return undefined
  return a * SPAN + b - 2 ** 31
}

/** Integer key → number, linear probing, resized at three quarters full (a few probes; half the memory of resizing at half). */
class PairTable {
  private keys = new Int32Array(64).fill(EMPTY)
  private values = new Int32Array(64)
  private size = 0

  get (key: number): number | undefined {
    const mask = this.keys.length - 1
    for (let i = slot(key, mask); ; i = (i + 1) & mask) {
      const k = this.keys[i]!
      if (k === key) return this.values[i]
      if (k === EMPTY) return undefined
    }
  }

  set (key: number, value: number): void {
    if ((this.size + 1) * 4 > this.keys.length * 3) this.resize()
    const mask = this.keys.length - 1
    let i = slot(key, mask)
    while (this.keys[i] !== EMPTY && this.keys[i] !== key) i = (i + 1) & mask
    if (this.keys[i] === EMPTY) this.size++
    this.keys[i] = key
    this.values[i] = value
  }

  private resize (): void {
    const { keys, values } = this
    this.keys = new Int32Array(keys.length * 2).fill(EMPTY)
    this.values = new Int32Array(keys.length * 2)
    this.size = 0
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) this.set(keys[i]!, values[i]!)
  }
}

/** The shard took the low bits; the slot mixes the rest. */
const slot = (key: number, mask: number): number => (Math.imul(key >>> 4, 0x9e3779b1) >>> 7) & mask
