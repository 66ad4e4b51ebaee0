// A memory's history (lib/memory/README.md, "Provenance"): before a memory is corrected, confirmed,
// superseded or edited, its state until then is appended to `history` (the last MAX_HISTORY kept).
// Erasing a memory (`#lx忘记我`, a hard delete) erases its history with it.
import { MAX_HISTORY, type MemoryRecord, type MemoryRevision } from './types.js'

/** `r.history` with r's present state appended, ended by `what` done by `by` (now: r is about to change). */
export function revised (r: MemoryRecord, by: MemoryRevision['by'], what: MemoryRevision['what'], until: number): MemoryRevision[] {
  const entry: MemoryRevision = { content: r.content, category: r.category, confidence: r.confidence, until, by, what, ...(r.status ? { status: r.status } : {}) }
  return [...(r.history ?? []), entry].slice(-MAX_HISTORY)
}
