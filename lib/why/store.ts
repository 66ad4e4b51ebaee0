// The "why" records, kept durably and bounded: `<data>/why.json` + journal (lib/core/journal-store.ts),
// one entry per conversation holding its last PER_CONVERSATION records (a new record is one appended
// journal line); at most MAX_CONVERSATIONS conversations, the least recently answered dropped first.
import { join } from 'node:path'
import { JournalStore } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import type { WhyRecord } from './types.js'

export const PER_CONVERSATION = 20
const MAX_CONVERSATIONS = 2000

interface WhyLog { conversationId: string; updatedAt: number; records: WhyRecord[] }

export class WhyStore {
  /** record id -> conversation */
  private readonly byId = new Map<string, string>()
  /** user -> the conversations with records answering them */
  private readonly byUser = new Map<string, Set<string>>()
  /** conversations, least recently answered first (Map order) */
  private readonly order = new Map<string, true>()

  private constructor (private readonly store: JournalStore<WhyLog, string>) {
    const logs = [...store.values()].sort((a, b) => a.updatedAt - b.updatedAt)
    for (const log of logs) {
      this.order.set(log.conversationId, true)
      for (const r of log.records) this.index(r)
    }
  }

  static async open (dataDir: string, deps: { log?: PluginLogger; now: () => number }): Promise<WhyStore> {
    const store = await JournalStore.open<WhyLog, string>(join(dataDir, 'why.json'), { key: (l) => l.conversationId, now: deps.now, ...(deps.log ? { log: deps.log } : {}) })
    return new WhyStore(store)
  }

  async add (r: WhyRecord): Promise<void> {
    const log = this.store.get(r.conversationId)
    this.order.delete(r.conversationId)
    this.order.set(r.conversationId, true)
    this.index(r)
    if (!log) {
      await Promise.all([this.store.put({ conversationId: r.conversationId, updatedAt: r.at, records: [r] }), this.trimConversations()])
      return
    }
    for (const old of log.records.slice(0, Math.max(0, log.records.length + 1 - PER_CONVERSATION))) this.byId.delete(old.id)
    await this.store.appendTo(r.conversationId, 'records', [r], { max: PER_CONVERSATION, set: { updatedAt: r.at } })
  }

  get (id: string): WhyRecord | undefined {
    const conv = this.byId.get(id)
    return conv === undefined ? undefined : this.store.get(conv)?.records.find((r) => r.id === id)
  }

  /** A conversation's records, newest first. */
  list (conversationId: string, limit: number): WhyRecord[] {
    return (this.store.get(conversationId)?.records ?? []).slice(-limit).reverse()
  }

  /** The last answer to a user, in one group (`groupId`), in private chats (`''`) or anywhere (undefined). */
  lastFor (userId: string, groupId?: string): WhyRecord | undefined {
    let best: WhyRecord | undefined
    for (const conv of this.byUser.get(userId) ?? []) {
      const records = this.store.get(conv)?.records ?? []
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i]
        if (!r || r.userId !== userId || (groupId !== undefined && (r.groupId ?? '') !== groupId)) continue
        if (!best || r.at > best.at) best = r
        break
      }
    }
    return best
  }

  /** Erases the texts of a user's memories from every record (`#lx忘记我`): the ids stay, marked removed. */
  async eraseMemoriesOf (userId: string): Promise<number> {
    const erased = (r: WhyRecord): boolean => r.memories.some((m) => m.userId === userId && !m.removed)
    const writes: Array<Promise<boolean>> = []
    for (const log of this.store.values()) {
      if (!log.records.some(erased)) continue
      const records = log.records.map((r) => erased(r)
        ? { ...r, memories: r.memories.map((m) => m.userId === userId ? { id: m.id, userId, category: m.category, content: '', removed: true as const } : m) }
        : r)
      writes.push(this.store.patch(log.conversationId, { records }))
    }
    await Promise.all(writes)
    return writes.length
  }

  /** Forgets a conversation's records (the conversation was cleared). */
  async forget (conversationId: string): Promise<void> {
    const log = this.store.get(conversationId)
    if (!log) return
    this.unindex(log)
    this.order.delete(conversationId)
    await this.store.delete(conversationId)
  }

  async clear (): Promise<void> {
    this.byId.clear()
    this.byUser.clear()
    this.order.clear()
    await this.store.clear()
  }

  close (): Promise<void> { return this.store.close() }

  private index (r: WhyRecord): void {
    this.byId.set(r.id, r.conversationId)
    let convs = this.byUser.get(r.userId)
    if (!convs) this.byUser.set(r.userId, (convs = new Set()))
    convs.add(r.conversationId)
  }

  private unindex (log: WhyLog): void {
    for (const r of log.records) {
      this.byId.delete(r.id)
      const convs = this.byUser.get(r.userId)
      convs?.delete(log.conversationId)
      if (convs?.size === 0) this.byUser.delete(r.userId)
    }
  }

  private async trimConversations (): Promise<void> {
    const drop: string[] = []
    for (const conv of this.order.keys()) {
      if (this.order.size - drop.length <= MAX_CONVERSATIONS) break
      drop.push(conv)
    }
    await Promise.all(drop.map(async (c) => await this.forget(c)))
  }
}
