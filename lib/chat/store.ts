// Stored conversations (conversations.json): the user/assistant messages of each conversation,
// bounded by chat.maxStoredMessages (oldest dropped first).
import { join } from 'node:path'
import { Store } from '../core/store.js'
import type { Runtime } from '../runtime.js'

export interface StoredMessage { role: 'user' | 'assistant'; content: string; timestamp: number }

export interface Conversation {
  id: string
  userId: string
  groupId?: string
  createdAt: number
  updatedAt: number
  messages: StoredMessage[]
}

export interface ConversationSummary {
  id: string
  userId: string
  groupId: string
  messageCount: number
  lastMessage: string
  updatedAt: number
}

interface Data { conversations: Record<string, Conversation> }

export class ConversationStore {
  private constructor (private readonly rt: Runtime, private readonly store: Store<Data>) {}

  static async open (rt: Runtime): Promise<ConversationStore> {
    const store = await Store.open<Data>(join(rt.paths.dataDir, 'conversations.json'), { conversations: {} }, { log: rt.log })
    return new ConversationStore(rt, store)
  }

  get (id: string): Conversation | undefined {
    return Object.hasOwn(this.store.data.conversations, id) ? this.store.data.conversations[id] : undefined
  }

  /** Messages of a conversation, oldest first ([] when unknown). */
  history (id: string): StoredMessage[] { return this.get(id)?.messages ?? [] }

  list (): Conversation[] {
    return Object.values(this.store.data.conversations).sort((a, b) => b.updatedAt - a.updatedAt)
  }

  summaries (filter: { userId?: string; groupId?: string } = {}): ConversationSummary[] {
    return this.list()
      .filter((c) => (filter.userId === undefined || c.userId === filter.userId) && (filter.groupId === undefined || (c.groupId ?? '') === filter.groupId))
      .map(summaryOf)
  }

  async append (owner: { id: string; userId: string; groupId?: string }, messages: StoredMessage[]): Promise<void> {
    const max = this.rt.config.get().chat.maxStoredMessages
    const now = this.rt.clock.now()
    await this.store.update((d) => {
      let c = Object.hasOwn(d.conversations, owner.id) ? d.conversations[owner.id] : undefined
      if (!c) {
        c = { id: owner.id, userId: owner.userId, ...(owner.groupId ? { groupId: owner.groupId } : {}), createdAt: now, updatedAt: now, messages: [] }
        d.conversations[owner.id] = c
      }
      c.messages.push(...messages)
      if (c.messages.length > max) c.messages.splice(0, c.messages.length - max)
      c.updatedAt = now
    })
  }

  /** Deletes a conversation; false when it did not exist. */
  async delete (id: string): Promise<boolean> {
    if (!this.get(id)) return false
    await this.store.update((d) => { delete d.conversations[id] })
    return true
  }

  async clearAll (): Promise<number> {
    return await this.store.update((d) => {
      const n = Object.keys(d.conversations).length
      d.conversations = {}
      return n
    })
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
