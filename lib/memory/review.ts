// Review and correction of memories (lib/memory/README.md, "Review"): confirming a pending memory,
// correcting a memory's text, and the owner's checks of the chat commands (a user touches only their own
// memories; an id of someone else's reads as unknown, so ids cannot be probed). One place for the rules
// the commands (apps/memory.ts) and the routes (routes/memory-review.ts) share.
import type { Clock } from '../core/clock.js'
import { revised } from './history.js'
import type { MemoryService } from './service.js'
import type { MemoryRecord, MemoryRevision } from './types.js'

type By = MemoryRevision['by']

export class MemoryReview {
  constructor (private readonly memory: MemoryService, private readonly clock: Clock) {}

  /** The memory `id` when `userId` may touch it (their own, live); undefined otherwise. */
  ownedBy (id: number, userId: string): MemoryRecord | undefined {
    const r = this.memory.get(id)
    return r && r.userId === userId ? r : undefined
  }

  /** Pending memories (of one user, or everyone's), oldest first: the review queue. */
  pending (userId?: string, limit = 100): MemoryRecord[] {
    if (userId === undefined) return this.memory.inState('pending', limit)
    return this.memory.list({ userId }).filter((r) => r.status === 'pending').reverse().slice(0, limit)
  }

  /** A pending memory becomes used; false when it was not pending. */
  async confirm (id: number, by: By): Promise<boolean> {
    const r = this.memory.mustGet(id)
    if (r.status !== 'pending') return false
    await this.memory.update(id, { status: undefined, history: revised(r, by, 'confirmed', this.clock.now()) })
    return true
  }

  /**
   * The memory says `content` from now on, as a fact the user stated (confidence 1, used at once, no
   * longer superseded); the old text stays in its history.
   */
  async correct (id: number, content: string, by: By): Promise<MemoryRecord> {
    const r = this.memory.mustGet(id)
    const now = this.clock.now()
    return this.memory.update(id, {
      content,
      confidence: 1,
      status: undefined,
      supersededBy: undefined,
      origin: { ...(r.origin ?? { chat: 'api' as const, at: now }), kind: by === 'user' ? 'stated' : 'manual', at: now },
      history: revised(r, by, 'corrected', now)
    })
  }
}

/** What a bulk review did to one id (routes/memory-review.ts answers it per id). */
export type BulkOutcome = 'confirmed' | 'deleted' | 'not_pending' | 'not_found'

/** Counts of the review states of the live memories (kept by the service on every write). */
export function reviewCounts (memory: MemoryService): { pending: number; superseded: number; confirmed: number } {
  return memory.stateCounts()
}

/**
 * Confirms or (soft) deletes each id in turn, by `by`; an unknown id or, for confirm, one not pending is
 * answered as such and the others go on (one bad id does not undo the rest).
 */
export async function reviewMany (review: MemoryReview, memory: MemoryService, ids: readonly number[], action: 'confirm' | 'delete', by: By): Promise<Array<{ id: number; outcome: BulkOutcome }>> {
  const out: Array<{ id: number; outcome: BulkOutcome }> = []
  for (const id of ids) {
    if (!memory.get(id)) { out.push({ id, outcome: 'not_found' }); continue }
    if (action === 'delete') {
      await memory.remove(id, false)
      out.push({ id, outcome: 'deleted' })
    } else out.push({ id, outcome: (await review.confirm(id, by)) ? 'confirmed' : 'not_pending' })
  }
  return out
}
