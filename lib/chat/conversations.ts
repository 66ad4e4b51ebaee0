// Conversation operations both API variants share (routes/conversations.ts, routes/chat.ts): the id
// rule, and clearing, the one owner of "forget a conversation" (its stored messages, the pipeline's
// in-memory context and the "why" records of its answers, lib/why).
import { z } from 'zod'
import { badRequest } from '../core/errors.js'
import type { ChatScope } from './contracts.js'
import type { ChatPipeline } from './service.js'
import { conversationIdOf, type ConversationStore } from './store.js'

/** What a conversation id may look like (`private:<user>`, `group:<group>:<user>`, a client's own id). */
export const CONVERSATION_ID = /^[\w:.@-]{1,200}$/

/**
 * A user or group id from input (the chat routes of both variants): trimmed, at most 64 letters,
 * digits, `_`, `.`, `@` or `-`. Empty passes (the caller's own id then); add `.min(1)` where it is required.
 */
export const chatPartyId = (name: string): z.ZodString =>
  z.string().trim().max(64, `${name} is too long`).regex(/^[\w.@-]*$/, `${name} has invalid characters`)

/** The scope of a chat through the API: the ids given (checked with chatPartyId), else the session's user. */
export function apiChatScope (session: { sub: string; isMaster: boolean }, ids: { userId?: string | undefined; groupId?: string | undefined; conversationId?: string | undefined }): ChatScope {
  const userId = ids.userId || session.sub
  const groupId = ids.groupId || undefined
  return { userId, ...(groupId ? { groupId } : {}), isMaster: session.isMaster, via: 'api', conversationId: ids.conversationId || conversationIdOf(userId, groupId) }
}

/** A conversation id from input (a path parameter); 400 when malformed. */
export function conversationIdParam (raw: string | undefined): string {
  const id = (raw ?? '').trim()
  if (!CONVERSATION_ID.test(id)) throw badRequest('Invalid conversation id')
  return id
}

/** The chat domain parts clearing touches (rt.need('conversations')). */
export interface ConversationParts { store: ConversationStore; pipeline: ChatPipeline }

/**
 * Clears one conversation once the turns asked before it have ended (an answer still on its way is
 * forgotten too, not stored after the clear); false when neither stored messages nor an in-memory
 * context existed.
 */
export async function clearConversation (c: ConversationParts, conversationId: string): Promise<boolean> {
  return await c.pipeline.afterTurns(conversationId, async () => {
    const forgotten = c.pipeline.forget(conversationId)
    const [deleted] = await Promise.all([c.store.delete(conversationId), c.pipeline.forgetRecords(conversationId)])
    return deleted || forgotten
  })
}

/** Clears every conversation and resets the pipeline's in-memory state; the number of stored ones removed. */
export async function clearAllConversations (c: ConversationParts): Promise<number> {
  const [deleted] = await Promise.all([c.store.clearAll(), c.pipeline.forgetRecords()])
  c.pipeline.reset()
  return deleted
}

/**
 * Clears a user's context: the given conversation, or the user's private conversation. Clearing
 * what does not exist is no error (the result says whether anything was there).
 */
export async function clearUserContext (c: ConversationParts, target: { userId?: string | undefined; conversationId?: string | undefined }): Promise<boolean> {
  const id = target.conversationId ?? conversationIdOf(target.userId ?? '')
  return await clearConversation(c, id)
}
