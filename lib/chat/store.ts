// Stored conversations (conversations.json + its journal): the user/assistant messages of each
// conversation, bounded by chat.maxStoredMessages (oldest dropped first). A turn journals only its new
// messages (an `appendTo` line carrying the bound, so the trim replays too); the first turn of a
// conversation stores it whole (it holds only those messages). See lib/core/journal-store.ts.
// Opened through the storage port (lib/storage/open.ts): the files of the data folder, or PostgreSQL
// shared with other instances, whose changes arrive through onRemote and update the derived indexes here.
import { type FoldReport, JournalStore } from '../core/journal-store.js'
import { RecencyOrder } from '../core/recency-order.js'
import type { Runtime } from '../runtime.js'
import { openRecords } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'

export interface StoredMessage {
  role: 'user' | 'assistant'
  content: string
  timestamp: number
  /** user messages: the head the model read before the text (lib/chat/turn-note.ts), replayed unchanged */
  note?: string
  /** the note holds words of others (the group's messages): a turn whose context holds it is tainted */
  foreign?: true
}

/** The model's summary of the messages up to `through` (a message timestamp), for the context. */
export interface ContextSummary { text: string; through: number }

export interface Conversation {
  id: string
  userId: string
  groupId?: string
  createdAt: number
  updatedAt: number
  messages: StoredMessage[]
  summary?: ContextSummary
}

export interface ConversationSummary {
  id: string
  userId: string
  groupId: string
  messageCount: number
  lastMessage: string
  updatedAt: number
}

/** Which conversations a list holds (both filters optional; groupId '' = private ones). */
export interface ConversationFilter { userId?: string; groupId?: string }

export class ConversationStore {
  /** ids by updatedAt, kept on every write: pages never sort the store */
  private readonly order: RecencyOrder<string>
  /** ids per user and per group ('' = private): a filtered list reads its share, not the store */
  private readonly byUser = new IdSets()
  private readonly byGroup = new IdSets()

  private constructor (private readonly rt: Runtime, private readonly store: RecordStore<Conversation, string>) {
    const entries: Array<[string, number]> = []
    for (const c of store.values()) {
      entries.push([c.id, c.updatedAt])
      this.link(c)
    }
    this.order = new RecencyOrder(entries)
    store.onRemote((id, c) => { this.remoteChange(id, c) })
  }

  // Another instance changed a conversation (the store already holds it). The user and group sets of a
  // deleted one keep its id: the filtered lists check each id against the store (summaryPage, matches).
  private remoteChange (id: string, c: Conversation | undefined): void {
    if (!c) { this.order.delete(id); return }
    this.order.set(id, c.updatedAt)
    this.link(c)
  }

  private link (c: Conversation): void {
    this.byUser.add(c.userId, c.id)
    this.byGroup.add(c.groupId ?? '', c.id)
  }

  static async open (rt: Runtime): Promise<ConversationStore> {
    const store = await openRecords<Conversation, string>(rt, 'conversations', {
      key: (c) => c.id,
      // before the journal, the file was { conversations: { [id]: Conversation } }
      upgrade: (old) => Object.values((old.conversations ?? {}) as Record<string, Conversation>)
    })
    rt.onStop.push(() => store.close())
    return new ConversationStore(rt, store)
  }

  get (id: string): Conversation | undefined { return this.store.get(id) }

  /** Calls `listener` after another instance's change of a conversation is applied here (undefined: deleted). */
  onRemote (listener: (id: string, c: Conversation | undefined) => void): () => void { return this.store.onRemote(listener) }

  /** Messages of a conversation, oldest first ([] when unknown). */
  history (id: string): StoredMessage[] { return this.get(id)?.messages ?? [] }

  get size (): number { return this.store.size }

  /** Every conversation, most recently updated first. */
  list (): Conversation[] {
    return this.conversations(this.order.newest())
  }

  /** One page of the conversations, most recently updated first, and how many there are. */
  page (offset: number, limit: number): { items: Conversation[]; total: number } {
    return { items: this.conversations(this.order.page(offset, limit)), total: this.order.size }
  }

  summaries (filter: ConversationFilter = {}): ConversationSummary[] {
    return this.summaryPage(filter, 0, Number.MAX_SAFE_INTEGER).items
  }

  /** A page of summaries matching the filter, newest first, and how many match (one pass, no sort). */
  summaryPage (filter: ConversationFilter, offset: number, limit: number): { items: ConversationSummary[]; total: number } {
    if (filter.userId === undefined && filter.groupId === undefined) {
      const p = this.page(offset, limit)
      return { items: p.items.map(summaryOf), total: p.total }
    }
    // the smaller share of the two filters, then the other filter, ordered like the whole list
    const user = filter.userId !== undefined ? this.byUser.ids(filter.userId) : undefined
    const group = filter.groupId !== undefined ? this.byGroup.ids(filter.groupId) : undefined
    const ids = user && group ? (group.length < user.length ? group : user) : user ?? group ?? []
    const matches = (id: string): boolean => {
      const c = this.store.get(id)
      return c !== undefined && (filter.userId === undefined || c.userId === filter.userId) && (filter.groupId === undefined || (c.groupId ?? '') === filter.groupId)
    }
    // a large share (all private conversations): one walk of the order beats sorting it
    const matching = ids.length * 16 > this.order.size ? [...this.order.newest()].filter(matches) : this.order.sortNewest(ids).filter(matches)
    return { items: this.conversations(matching.slice(offset, offset + limit)).map(summaryOf), total: matching.length }
  }

  private conversations (ids: Iterable<string>): Conversation[] {
    const out: Conversation[] = []
    for (const id of ids) {
      const c = this.store.get(id)
      if (c) out.push(c)
    }
    return out
  }

  async append (owner: { id: string; userId: string; groupId?: string }, messages: StoredMessage[]): Promise<void> {
    const max = this.rt.config.get().chat.maxStoredMessages
    const now = this.rt.clock.now()
    // decided and applied synchronously: two turns racing on a new conversation both land
    if (this.store.has(owner.id)) {
      this.order.set(owner.id, now)
      await this.store.appendTo(owner.id, 'messages', messages, { max, set: { updatedAt: now } })
      return
    }
    const fresh = messages.length > max ? messages.slice(messages.length - max) : messages
    const conv: Conversation = { id: owner.id, userId: owner.userId, ...(owner.groupId ? { groupId: owner.groupId } : {}), createdAt: now, updatedAt: now, messages: fresh }
    this.order.set(owner.id, now)
    this.link(conv)
    await this.store.put(conv)
  }

  /** Stores the context summary of a conversation (ignored when the conversation is gone meanwhile). */
  async setSummary (id: string, summary: ContextSummary): Promise<void> {
    await this.store.patch(id, { summary })
  }

  /** Deletes a conversation; false when it did not exist. */
  async delete (id: string): Promise<boolean> {
    const c = this.store.get(id)
    if (c) {
      this.byUser.remove(c.userId, id)
      this.byGroup.remove(c.groupId ?? '', id)
    }
    this.order.delete(id)
    return await this.store.delete(id)
  }

  /** Folds the journal into the snapshot now, without blocking the event loop (maintenance, benchmarks). */
  async fold (): Promise<FoldReport | undefined> { return this.store instanceof JournalStore ? await this.store.fold() : undefined }

  async clearAll (): Promise<number> {
    const n = this.store.size
    this.order.clear()
    this.byUser.clear()
    this.byGroup.clear()
    await this.store.clear()
    return n
  }
}

/** Ids under a key; a key with one id holds it as a string (most users have one conversation). */
class IdSets {
  private readonly m = new Map<string, string | Set<string>>()
  add (key: string, id: string): void {
    const v = this.m.get(key)
    if (v === undefined) this.m.set(key, id)
    else if (typeof v === 'string') { if (v !== id) this.m.set(key, new Set([v, id])) } else v.add(id)
  }

  remove (key: string, id: string): void {
    const v = this.m.get(key)
    if (v === id) this.m.delete(key)
    else if (typeof v !== 'string' && v?.delete(id) && v.size === 1) this.m.set(key, v.values().next().value!)
  }

  ids (key: string): string[] {
    const v = this.m.get(key)
    return v === undefined ? [] : typeof v === 'string' ? [v] : [...v]
  }

  clear (): void { this.m.clear() }
}

export function summaryOf (c: Conversation): ConversationSummary {
  const last = c.messages.at(-1)
  return { id: c.id, userId: c.userId, groupId: c.groupId ?? '', messageCount: c.messages.length, lastMessage: last?.content ?? '', updatedAt: c.updatedAt }
}

/** The conversation id of a user (private) or of a user in a group. */
export function conversationIdOf (userId: string, groupId?: string): string {
  return groupId ? `group:${groupId}:${userId}` : `private:${userId}`
}
