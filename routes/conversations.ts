// Conversations and context, variant B (docs/api.md, Groups of routes; style B): stored conversations and the in-memory
// context state of the chat pipeline.
import Router from '@koa/router'
import { z } from 'zod'
import { notFound } from '../lib/core/errors.js'
import { chatPartyId, clearAllConversations, clearConversation, clearUserContext, CONVERSATION_ID, conversationIdParam } from '../lib/chat/conversations.js'
import type { Conversation } from '../lib/chat/store.js'
import type { Runtime } from '../lib/runtime.js'
import { B, reply, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { intParam, parseBody } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

const clearBody = z.strictObject({
  userId: chatPartyId('userId').min(1, 'userId must not be empty').optional(),
  conversationId: z.string().trim().regex(CONVERSATION_ID, 'conversationId is invalid').optional()
}).refine((b) => b.userId !== undefined || b.conversationId !== undefined, { message: 'userId or conversationId is required', path: ['userId'] })

const listItem = ({ messages, ...rest }: Conversation): Omit<Conversation, 'messages'> & { messageCount: number; lastMessage: string } =>
  ({ ...rest, messageCount: messages.length, lastMessage: messages.at(-1)?.content ?? '' })

export function conversationRoutesB (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api' })
  const c = () => rt.need('conversations')

  // Fixed paths before /:id.
  // the whole list (a plain array), or with `limit`/`offset` a page of it (routes/_http/paging.ts)
  r.get('/conversations/list', B((ctx) => {
    const p = pageParams(ctx)
    if (!p) return c().store.list().map(listItem)
    const { items, total } = c().store.page(p.offset, p.limit)
    return paged(items.map(listItem), total, p)
  }))
  r.delete('/conversations/clear-all', B(async () => {
    const deletedCount = await clearAllConversations(c())
    return { success: true, deletedCount }
  }))
  r.get('/conversations/:id/messages', B((ctx) => {
    const id = conversationIdParam(ctx.params.id)
    const conv = c().store.get(id)
    if (!conv) throw notFound('Conversation not found', 'CONVERSATION_NOT_FOUND')
    return conv.messages.slice(-intParam(ctx.query.limit, 100, 1, 100000))
  }))
  r.delete('/conversations/:id', B(async (ctx) => {
    const id = conversationIdParam(ctx.params.id)
    if (!await clearConversation(c(), id)) throw notFound('Conversation not found', 'CONVERSATION_NOT_FOUND')
    return { success: true }
  }))

  r.get('/context/list', B(() => c().pipeline.contexts()))
  r.post('/context/clear', B(async (ctx) => {
    const body = parseBody(ctx, clearBody)
    await clearUserContext(c(), body)
    return reply({ success: true, message: 'Context cleared' }, { message: 'Context cleared' })
  }))
  routeDoc(r, 'POST', '/context/clear', { body: clearBody, summary: 'Clear a conversation context' })
  return r
}
