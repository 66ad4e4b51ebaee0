// The stores that are on the storage port today (lib/storage/README.md, "What is shared"): what the
// migration command (scripts/storage-migrate.ts) copies between the data folder and PostgreSQL. A domain
// moved onto the port adds its store here.
export interface PortedStore {
  /** The store's name: `<dataDir>/<name>.json` in the files, `lx_records.store` in PostgreSQL. */
  name: string
  /** The key as the domain's own store makes it, type included: journal lines name records by it (a numeric id stays a number). */
  key: (r: Record<string, unknown>) => string | number
  /** Reads a file written in an older layout (as the domain's own JournalStore.open does). */
  upgrade?: (old: Record<string, unknown>) => Array<Record<string, unknown>>
}

export const PORTED_STORES: readonly PortedStore[] = [
  // lib/chat/store.ts; before the journal, the file was { conversations: { [id]: Conversation } }
  { name: 'conversations', key: (c) => String(c.id), upgrade: (old) => Object.values((old.conversations ?? {}) as Record<string, Record<string, unknown>>) },
  // lib/memory/service.ts (numeric ids; its meta `nextId` is copied with the records)
  { name: 'memories', key: (m) => Number(m.id) }
]
