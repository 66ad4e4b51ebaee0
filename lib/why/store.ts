// The "why" records, kept durably and bounded: `<data>/why.json` + journal (lib/core/journal-store.ts),
// one entry per conversation holding its last PER_CONVERSATION records (a new record is one appended
// journal line); at most MAX_CONVERSATIONS conversations, the least recently answered dropped first.
// On the storage port (`openShared`, store `why`): in PostgreSQL when it is set, so a record kept by one
// instance is found by every other; their changes arrive through onRemote (lib/storage/README.md).
import { join } from 'node:path'
import { JournalStore } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import type { WhyRecord } from './types.js'

export const PER_CONVERSATION = 20
const MAX_CONVERSATIONS = 2000

interface WhyLog { conversationId: string; updatedAt: number; records: WhyRecord[] }

/** The key of a conversation's log (lib/storage/ported.ts makes it the same way). */
const whyKey = (l: WhyLog): string => l.conversationId

export class WhyStore {
  /** record id -> conversation */
  private readonly byId = new Map<string, string>()
  /** user -> the conversations with records answering them */
  private readonly byUser = new Map<string, Set<string>>()
  /** conversations, least recently answered first (Map order) */
  private readonly order = new Map<string, true>()

  private constructor (private readonly store: RecordStore<WhyLog, string>) {
    const logs = [...store.values()].sort((a, b) => a.updatedAt - b.updatedAt)
    for (const log of logs) {
      this.order.set(log.conversationId, true)
      for (const r of log.records) this.index(r)
    }
    store.onRemote((conv, log) => { this.remoteChange(conv, log) })
  }

  /** The file `<dataDir>/why.json` (tests); the plugin opens `openShared`. */
  static async open (dataDir: string, deps: { log?: PluginLogger; now: () => number }): Promise<WhyStore> {
    const store = await JournalStore.open<WhyLog, string>(join(dataDir, 'why.json'), { key: whyKey, now: deps.now, ...(deps.log ? { log: deps.log } : {}) })
    return new WhyStore(store)
  }

  /** The store `why` on the port: `<dataDir>/why.json` as before, or PostgreSQL when set. */
  static async openShared (deps: RecordsDeps): Promise<WhyStore> {
    return new WhyStore(await openRecords<WhyLog, string>(deps, 'why', { key: whyKey }))
  }

  /** Calls `listener` after a change another instance made is applied here (tests, derived views). */
  onRemote (listener: (conversationId: string, log: WhyLog | undefined) => void): () => void { return this.store.onRemote(listener) }

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

  // Another instance kept, erased or forgot records of a conversation (the store holds the new state): the
  // ids of its old records are dropped (a scan of at most MAX_CONVERSATIONS × PER_CONVERSATION ids), the
  // new ones indexed, and the conversation becomes the most recently answered.
  private remoteChange (conv: string, log: WhyLog | undefined): void {
    for (const [id, c] of this.byId) if (c === conv) this.byId.delete(id)
    this.order.delete(conv)
    if (!log) {
      for (const [user, convs] of this.byUser) if (convs.delete(conv) && convs.size === 0) this.byUser.delete(user)
      return
    }
    this.order.set(conv, true)
    for (const r of log.records) this.index(r)
  }

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
