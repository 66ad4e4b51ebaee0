// The shared configuration's record (lib/config/README.md, "Shared configuration"): with PostgreSQL, the
// shared part of the user's configuration (config.yaml without its local sections, local-keys.ts) is one
// record of the store `config`, the YAML text with its comments. The runtime opens the store through the
// storage port (lib/storage/README.md) and hands it to ConfigService.share(); this folder imports only
// lib/core, so the store is described here by the part of the port it uses.

/** The one record: the YAML text of the shared configuration. */
export interface SharedConfigRecord {
  id: string
  yaml: string
  /** When it was written (ms), for people reading the table. */
  updatedAt: number
}

/** The record's key in the store `config`. */
export const SHARED_CONFIG_KEY = 'shared'
/** The store's name (lx_records.store). */
export const SHARED_CONFIG_STORE = 'config'

/** What ConfigService uses of the store (a RecordStore<SharedConfigRecord, string> fits). */
export interface SharedConfigStore {
  get(id: string): SharedConfigRecord | undefined
  put(rec: SharedConfigRecord): Promise<void>
  /** Changes another instance made (record undefined: deleted); answers the unsubscribe. */
  onRemote(listener: (key: string, rec: SharedConfigRecord | undefined) => void): () => void
}
