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

  delete (id: K): void {
    if (isDense(id)) { if ((id as number) < this.dense.length) this.dense[id as number] = 0 } else this.sparse.delete(id)
  }

  clear (): void { this.dense = new Int32Array(0); this.sparse.clear() }
}

const isDense = (id: string | number): boolean => typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < DENSE_MAX

/** A Map spread over 32 shards by a cheap hash. */
export class ShardedMap<K extends string | number> {
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
