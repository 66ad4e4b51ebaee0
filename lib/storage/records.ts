// The storage port of a keyed record store (lib/storage/README.md): the surface of the embedded
// JournalStore (lib/core/journal-store.ts) that the domains use, so a domain holds a RecordStore and does
// not know whether the files of its data folder or PostgreSQL (lib/storage/pg/record-store.ts) serve it.
// Both hold the records in memory (reads are synchronous); a write resolves once it is durable.
import type { JournalStore, ListField, NumberField } from '../core/journal-store.js'

export type { ListField, NumberField }

/** A change another instance made (`record` undefined: deleted); the embedded store never reports one. */
export type RemoteListener<R, K> = (key: K, record: R | undefined) => void

export interface RecordStore<R extends object, K extends string | number, M extends object = Record<string, never>> {
  readonly size: number
  readonly meta: Readonly<M>
  get(id: K): R | undefined
  has(id: K): boolean
  values(): IterableIterator<R>
  /** Stores the record whole (with an optional meta patch, written together); resolves once durable. */
  put(rec: R, metaPatch?: Partial<M>): Promise<void>
  /** Several records acknowledged together. */
  putMany(recs: R[]): Promise<void>
  /** Appends to a record's list (keeping the last `max`) and sets `set`; false when the record is unknown. */
  appendTo<F extends ListField<R>>(id: K, field: F, items: NonNullable<R[F]>, opts?: { max?: number; set?: Partial<R> }): Promise<boolean>
  /** Sets some fields of a record; false when the record is unknown. */
  patch(id: K, set: Partial<R>): Promise<boolean>
  delete(id: K): Promise<boolean>
  setMeta(patch: Partial<M>): Promise<void>
  /**
   * Takes `count` consecutive numbers from the meta counter `field` (1 when unset) and answers the first:
   * in PostgreSQL one statement on the shared row, so two instances never take the same number.
   */
  reserve(field: NumberField<M>, count?: number): Promise<number>
  /** Removes every record. */
  clear(): Promise<void>
  /** Resolves once no write is pending. */
  idle(): Promise<void>
  close(): Promise<void>
  /** Calls `listener` for each change another instance made (after it is applied here); answers the unsubscribe. */
  onRemote(listener: RemoteListener<R, K>): () => void
}

/**
 * The embedded store as the port. JournalStore cannot say `implements RecordStore` itself: lib/core may not
 * import lib/storage (the structure rule `bottom-layer-core`); this assignment is the same compile-time check.
 */
export function journalAsRecords<R extends object, K extends string | number, M extends object> (store: JournalStore<R, K, M>): RecordStore<R, K, M> {
  return store
}
