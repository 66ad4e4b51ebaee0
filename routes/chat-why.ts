// The chat group's "why" routes (style A; docs/api.md, The answer's why): what shaped an answer
// (lib/why), and what the bot would use for a message before it is sent (the dashboard's chat page).
import { z } from 'zod'
import { chatDefaults } from '../lib/chat/defaults.js'
import { apiChatScope, chatPartyId, CONVERSATION_ID } from '../lib/chat/conversations.js'
import { AppError, notFound } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { PER_CONVERSATION } from '../lib/why/store.js'
import { sessionOf } from './_http/auth.js'
import { A, styledRouter } from './_http/envelope.js'
import { routeDoc } from './_http/route-docs.js'
import { parseQuery, parseWith } from './_http/validate.js'
import type Router from '@koa/router'

const whyId = z.string().regex(/^w[a-z0-9]{1,40}$/, 'Invalid why record id')
const listQuery = z.object({
  conversationId: z.string({ error: 'conversationId is required' }).trim().regex(CONVERSATION_ID, 'conversationId is invalid'),
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(PER_CONVERSATION, `limit must be at most ${PER_CONVERSATION}`).optional()
})
const defaultsQuery = z.object({ userId: chatPartyId('userId').optional(), groupId: chatPartyId('groupId').optional() })

export function chatWhyRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/chat' })
  const why = () => {
    const w = rt.optional('why')
    if (!w) throw new AppError('SERVICE_UNAVAILABLE', 'The why records are not available')
    return w
  }

  r.get('/why', A((ctx) => {
    const q = parseQuery(ctx, listQuery)
    const w = why()
    return { records: w.store.list(q.conversationId, q.limit ?? PER_CONVERSATION).map((rec) => w.view(rec)) }
  }))
  routeDoc(r, 'GET', '/why', { query: listQuery, summary: 'The why records of a conversation, newest first' })

  r.get('/why/:id', A((ctx) => {
    const id = parseWith(whyId, ctx.params.id)
    const w = why()
    const rec = w.store.get(id)
    if (!rec) throw notFound('Why record not found', 'NOT_FOUND')
    return w.view(rec)
  }))
  routeDoc(r, 'GET', '/why/:id', { summary: 'What shaped one answer: preset, channel and model, memories, knowledge, skills, tools, tokens, time' })

  r.get('/defaults', A(async (ctx) => {
    const q = parseQuery(ctx, defaultsQuery)
    const c = rt.optional('conversations')
    if (!c) throw new AppError('CHANNEL_UNAVAILABLE', 'Chat is not available')
    return await chatDefaults(rt, c.pipeline, apiChatScope(sessionOf(ctx), q))
  }))
  routeDoc(r, 'GET', '/defaults', { query: defaultsQuery, summary: 'The preset, channel and model the bot would use for a message' })
  return r
}
