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
import { done, storedMessage } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const clearBody = z.strictObject({
  userId: chatPartyId('userId').min(1, 'userId must not be empty').optional(),
  conversationId: z.string().trim().regex(CONVERSATION_ID, 'conversationId is invalid').optional()
}).refine((b) => b.userId !== undefined || b.conversationId !== undefined, { message: 'userId or conversationId is required', path: ['userId'] })

// a stored conversation as listed: without its messages, with their count and the last one's text
const listItemData = z.object({
  id: z.string(), userId: z.string(), groupId: z.string().optional(), createdAt: z.number(), updatedAt: z.number(),
  summary: z.object({ text: z.string(), through: z.number() }).optional(),
  messageCount: z.number(), lastMessage: z.string()
})
const contextsData = z.array(z.object({ conversationId: z.string(), userId: z.string(), groupId: z.string(), turns: z.number(), processing: z.boolean(), lastActiveAt: z.number() }))
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
  routeDoc(r, 'GET', '/conversations/list', { summary: 'The stored conversations (a page of them with limit/offset: total, limit and offset beside data)', data: z.array(listItemData) })
  r.delete('/conversations/clear-all', B(async () => {
    const deletedCount = await clearAllConversations(c())
    return { success: true, deletedCount }
  }))
  routeDoc(r, 'DELETE', '/conversations/clear-all', { summary: 'Remove every stored conversation', data: done.extend({ deletedCount: z.number() }) })
  r.get('/conversations/:id/messages', B((ctx): Data<z.ZodArray<typeof storedMessage>> => {
    const id = conversationIdParam(ctx.params.id)
    const conv = c().store.get(id)
    if (!conv) throw notFound('Conversation not found', 'CONVERSATION_NOT_FOUND')
    return conv.messages.slice(-intParam(ctx.query.limit, 100, 1, 100000))
  }))
  routeDoc(r, 'GET', '/conversations/:id/messages', { summary: 'A conversation\'s last messages (limit, default 100)', data: z.array(storedMessage) })
  r.delete('/conversations/:id', B(async (ctx) => {
    const id = conversationIdParam(ctx.params.id)
    if (!await clearConversation(c(), id)) throw notFound('Conversation not found', 'CONVERSATION_NOT_FOUND')
    return { success: true }
  }))
  routeDoc(r, 'DELETE', '/conversations/:id', { summary: 'Remove a stored conversation', data: done })

  r.get('/context/list', B((): Data<typeof contextsData> => c().pipeline.contexts()))
  routeDoc(r, 'GET', '/context/list', { summary: 'The conversations in the pipeline\'s memory', data: contextsData })
  r.post('/context/clear', B(async (ctx) => {
    const body = parseBody(ctx, clearBody)
    await clearUserContext(c(), body)
    return reply({ success: true, message: 'Context cleared' }, { message: 'Context cleared' })
  }))
  routeDoc(r, 'POST', '/context/clear', { body: clearBody, summary: 'Clear a conversation context', data: done.extend({ message: z.string() }) })
  return r
}
