// How often each memory was recalled for a message (the use term of the recall score, lib/memory/README.md
// "Recall"). Counted here and written in batches, at most once a minute, to its own small store
// `memory-uses` on the storage port: a count per turn written through MemoryService.update would append a
// journal line per recalled memory per turn and move the memory's `updatedAt` (its age in the score, the
// dashboard's "last update"). Counts are added to what the store holds at the flush, so instances that
// share PostgreSQL add up rather than overwrite. A count whose memory is gone is dropped at the flush.
import type { PluginLogger } from '../core/logger.js'
import { type RecordsDeps, openRecords } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'

interface UseCount { id: number; uses: number; lastUsedAt: number }

const FLUSH_EVERY_MS = 60_000

export class MemoryUses {
  /** counted since the last flush */
  private readonly pending = new Map<number, UseCount>()
  private lastFlush: number
  private flushing: Promise<void> = Promise.resolve()

  private constructor (
    private readonly store: RecordStore<UseCount, number>,
    private readonly deps: { now: () => number; live: (id: number) => boolean; log: PluginLogger }
  ) { this.lastFlush = deps.now() }

  static async open (rt: RecordsDeps, live: (id: number) => boolean): Promise<MemoryUses> {
    const store = await openRecords<UseCount, number>(rt, 'memory-uses', { key: (u) => u.id })
    return new MemoryUses(store, { now: () => rt.clock.now(), live, log: rt.log })
  }

  /** Times `id` was recalled (stored and not yet written). */
  uses (id: number): number { return (this.store.get(id)?.uses ?? 0) + (this.pending.get(id)?.uses ?? 0) }

  /** Counts one recall of each id; writes the counts when the last write is a minute old. */
  note (ids: readonly number[]): void {
    const now = this.deps.now()
    for (const id of ids) {
      const u = this.pending.get(id)
      if (u) { u.uses++; u.lastUsedAt = now } else this.pending.set(id, { id, uses: 1, lastUsedAt: now })
    }
    if (now - this.lastFlush >= FLUSH_EVERY_MS) void this.flush()
  }

  /** Writes what was counted (in one batch); resolves once it is durable. */
  flush (): Promise<void> {
    this.lastFlush = this.deps.now()
    const batch = [...this.pending.values()]
    this.pending.clear()
    const write = async (): Promise<void> => {
      const gone = batch.filter((u) => !this.deps.live(u.id) && this.store.has(u.id))
      const recs = batch.filter((u) => this.deps.live(u.id)).map((u) => ({ ...u, uses: u.uses + (this.store.get(u.id)?.uses ?? 0) }))
      if (recs.length > 0) await this.store.putMany(recs)
      for (const u of gone) await this.store.delete(u.id)
    }
    this.flushing = this.flushing.then(write).catch((err: unknown) => { this.deps.log.warn('Writing memory use counts failed', { error: String(err) }) })
    return this.flushing
  }

  async close (): Promise<void> {
    await this.flush()
    await this.store.close()
  }
}
