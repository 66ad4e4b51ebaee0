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
    return this.memory.list(userId !== undefined ? { userId } : {}).filter((r) => r.status === 'pending').reverse().slice(0, limit)
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
