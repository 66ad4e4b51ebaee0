// Stored conversations (conversations.json + its journal): the user/assistant messages of each
// conversation, bounded by chat.maxStoredMessages (oldest dropped first). A turn appends one journal
// line holding its conversation instead of rewriting every conversation.
import { join } from 'node:path'
import { JournalStore } from '../core/journal-store.js'
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
    const c = this.store.get(owner.id) ??
      { id: owner.id, userId: owner.userId, ...(owner.groupId ? { groupId: owner.groupId } : {}), createdAt: now, updatedAt: now, messages: [] }
    const all = [...c.messages, ...messages]
    await this.store.put({ ...c, messages: all.length > max ? all.slice(all.length - max) : all, updatedAt: now })
  }

  /** Stores the context summary of a conversation (ignored when the conversation is gone meanwhile). */
  async setSummary (id: string, summary: ContextSummary): Promise<void> {
    const c = this.store.get(id)
    if (c) await this.store.put({ ...c, summary })
  }

  /** Deletes a conversation; false when it did not exist. */
  async delete (id: string): Promise<boolean> {
    return await this.store.delete(id)
  }

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
