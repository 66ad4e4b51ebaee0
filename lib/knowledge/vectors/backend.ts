// Where the passage vectors are kept (lib/knowledge/README.md, "Found by meaning", "Several instances"):
// the data folder's log (file.ts, the embedded default) or PostgreSQL shared by every instance (shared.ts).
// KnowledgeVectors holds them in memory either way and talks to this surface only.
import type { DocVectors, VectorHit } from './store.js'

/** What the vectors were made with, and what was learned of the endpoint. */
export interface VectorMeta { model: string; dims: number; batchSize?: number }

/** The meta as written: what the vectors are comparable across (address, model, dimensions: vectors.ts keyOf). */
export type HeldMeta = VectorMeta & { key?: string }

export interface VectorBackend {
  /** Where the vectors are, in the owner's words (`GET /api/knowledge/embedding/status`, the start log). */
  readonly where: string
  readMeta(): Promise<HeldMeta | undefined>
  writeMeta(meta: HeldMeta): Promise<void>
  /** The documents' vectors made with `key`. */
  load(key: string): Promise<Map<string, DocVectors>>
  put(d: DocVectors, key: string): Promise<void>
  delete(docId: string): Promise<void>
  /** Another model: the vectors held are not comparable any more. */
  clear(): Promise<void>
  close(): Promise<void>
  /**
   * Shared: takes the embedding of these documents (at these fingerprints) for this instance; answers the
   * ids taken. Another instance's fresh claim keeps a document out: its vectors come from there.
   */
  claim?(docs: ReadonlyArray<{ docId: string; fingerprint: string }>, key: string): Promise<Set<string>>
  /** Shared: calls `fn` with the vectors another instance wrote (with their model key) or removed (undefined). */
  onRemote?(fn: (docId: string, d: DocVectors | undefined, key: string | undefined) => void): void
  /** Shared: the vectors held for a document at this fingerprint and model (undefined: none yet). */
  current?(docId: string, key: string, fingerprint: string): Promise<DocVectors | undefined>
  /** Shared, with pgvector: the nearest passages found by the database's index instead of the one in memory. */
  search?(v: Float32Array, key: string, opts: { limit: number; presetId?: string; docs?: ReadonlySet<string> }): Promise<VectorHit[]>
}
