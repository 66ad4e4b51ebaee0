// Each user's memory choices (lib/memory/README.md, "Scopes"): today one, whether what the bot learnt in a
// private chat may be used in groups (`#lx记忆公开 开|关`). A record per user who chose, in the store
// `memory-users` on the storage port (shared by instances with PostgreSQL); a user who never chose
// follows `memory.privateInGroups`.
import type { RecordsDeps } from '../storage/open.js'
import { openRecords } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import type { MemoryUse } from './scope.js'

export interface MemoryUserPrefs { userId: string; privateInGroups: boolean; updatedAt: number }

export class MemoryPrefs {
  private constructor (private readonly store: RecordStore<MemoryUserPrefs, string>, private readonly now: () => number) {}

  static async open (deps: RecordsDeps): Promise<MemoryPrefs> {
    return new MemoryPrefs(await openRecords<MemoryUserPrefs, string>(deps, 'memory-users', { key: (p) => p.userId }), () => deps.clock.now())
  }

  /** Whether the user's private memories may be used in groups (`fallback`: the config default). */
  privateInGroups (userId: string, fallback: boolean): boolean {
    return this.store.get(userId)?.privateInGroups ?? fallback
  }

  /** Where a turn answers, for lib/memory/scope.ts: the chat's group, the time, and the user's choice. */
  useFor (scope: { userId: string; groupId?: string }, now: number, fallback: boolean): MemoryUse {
    return { ...(scope.groupId ? { groupId: scope.groupId } : {}), now, privateInGroups: this.privateInGroups(scope.userId, fallback) }
  }

  async setPrivateInGroups (userId: string, on: boolean): Promise<void> {
    await this.store.put({ userId, privateInGroups: on, updatedAt: this.now() })
  }

  /** The user asked to be forgotten: the choice goes too. */
  async forget (userId: string): Promise<void> { await this.store.delete(userId) }

  close (): Promise<void> { return this.store.close() }
}
