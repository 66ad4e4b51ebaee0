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
  { name: 'memories', key: (m) => Number(m.id) },
  // lib/knowledge/service.ts and bases.ts (the vectors' log is not a store: the first instance on the database
  // brings it in itself, lib/knowledge/vectors/shared.ts; uploads waiting to be processed stay in the data folder)
  { name: 'knowledge', key: (d) => String(d.id) },
  { name: 'knowledge-bases', key: (b) => String(b.id) },
  // lib/presets/rows.ts: records preset:<id>, user:<id>, group:<id>; the lowdb file was { presets: [...], users: {}, groups: {} }
  { name: 'presets', key: (r) => String(r.id), upgrade: (old) => [
    ...(Array.isArray(old.presets) ? old.presets as Array<Record<string, unknown>> : []).map((p) => ({ id: `preset:${String(p.id)}`, preset: p })),
    ...(['user', 'group'] as const).flatMap((k) => Object.entries((old[`${k}s`] ?? {}) as Record<string, unknown>).map(([who, choice]) => ({ id: `${k}:${who}`, choice: String(choice) })))
  ] },
  // lib/reminders/service.ts (their claims, lx_reminder_claims, are not copied: a stopped bot holds none)
  { name: 'reminders', key: (r) => String(r.id) },
  // lib/tasks/service.ts: the scheduled tasks (claimed like the reminders) and their runs
  { name: 'tasks', key: (t) => String(t.id) },
  { name: 'task-runs', key: (r) => String(r.id) },
  // lib/initiative/service.ts: each group's openers after silence (last opener, unanswered streak, day count)
  { name: 'initiative', key: (g) => String(g.id) },
  // lib/why/store.ts: one record per conversation (its last answers' why records)
  { name: 'why', key: (l) => String(l.conversationId) },
  // lib/grouplog/service.ts: one record per group, in the folder group-log/ of the data folder
  { name: 'group-log/groups', key: (g) => String(g.id) },
  // lib/memory/prefs.ts: each user's memory choices (#lx记忆公开)
  { name: 'memory-users', key: (u) => String(u.userId) },
  // lib/memory/uses.ts: how often each memory was recalled (numeric ids, as the memories')
  { name: 'memory-uses', key: (u) => Number(u.id) }
]
