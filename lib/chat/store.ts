// Stored conversations (conversations.json + its journal): the user/assistant messages of each
// conversation, bounded by chat.maxStoredMessages (oldest dropped first). A turn journals only its new
// messages (an `appendTo` line carrying the bound, so the trim replays too); the first turn of a
// conversation stores it whole (it holds only those messages). See lib/core/journal-store.ts.
import { join } from 'node:path'
import { type FoldReport, JournalStore } from '../core/journal-store.js'
import type { Runtime } from '../runtime.js'

export interface StoredMessage { role: 'user' | 'assistant'; content: string; timestamp: number }

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

export class ConversationStore {
  private constructor (private readonly rt: Runtime, private readonly store: JournalStore<Conversation, string>) {}

  static async open (rt: Runtime): Promise<ConversationStore> {
    const store = await JournalStore.open<Conversation, string>(join(rt.paths.dataDir, 'conversations.json'), {
      key: (c) => c.id,
      log: rt.log,
      now: () => rt.clock.now(),
      // before the journal, the file was { conversations: { [id]: Conversation } }
      upgrade: (old) => Object.values((old.conversations ?? {}) as Record<string, Conversation>)
    })
    rt.onStop.push(() => store.close())
    return new ConversationStore(rt, store)
  }

  get (id: string): Conversation | undefined { return this.store.get(id) }

  /** Messages of a conversation, oldest first ([] when unknown). */
  history (id: string): StoredMessage[] { return this.get(id)?.messages ?? [] }

  list (): Conversation[] {
    return [...this.store.values()].sort((a, b) => b.updatedAt - a.updatedAt)
  }

  summaries (filter: { userId?: string; groupId?: string } = {}): ConversationSummary[] {
    return this.list()
      .filter((c) => (filter.userId === undefined || c.userId === filter.userId) && (filter.groupId === undefined || (c.groupId ?? '') === filter.groupId))
      .map(summaryOf)
  }

  async append (owner: { id: string; userId: string; groupId?: string }, messages: StoredMessage[]): Promise<void> {
    const max = this.rt.config.get().chat.maxStoredMessages
    const now = this.rt.clock.now()
    // decided and applied synchronously: two turns racing on a new conversation both land
    if (this.store.has(owner.id)) {
      await this.store.appendTo(owner.id, 'messages', messages, { max, set: { updatedAt: now } })
      return
    }
    const fresh = messages.length > max ? messages.slice(messages.length - max) : messages
    await this.store.put({ id: owner.id, userId: owner.userId, ...(owner.groupId ? { groupId: owner.groupId } : {}), createdAt: now, updatedAt: now, messages: fresh })
  }

  /** Stores the context summary of a conversation (ignored when the conversation is gone meanwhile). */
  async setSummary (id: string, summary: ContextSummary): Promise<void> {
    await this.store.patch(id, { summary })
  }

  /** Deletes a conversation; false when it did not exist. */
  async delete (id: string): Promise<boolean> {
    return await this.store.delete(id)
  }

  /** Folds the journal into the snapshot now, without blocking the event loop (maintenance, benchmarks). */
  async fold (): Promise<FoldReport | undefined> { return await this.store.fold() }

  async clearAll (): Promise<number> {
    const n = this.store.size
    await this.store.clear()
    return n
  }
}

export function summaryOf (c: Conversation): ConversationSummary {
  const last = c.messages.at(-1)
  return { id: c.id, userId: c.userId, groupId: c.groupId ?? '', messageCount: c.messages.length, lastMessage: last?.content ?? '', updatedAt: c.updatedAt }
}

/** The conversation id of a user (private) or of a user in a group. */
export function conversationIdOf (userId: string, groupId?: string): string {
  return groupId ? `group:${groupId}:${userId}` : `private:${userId}`
}
