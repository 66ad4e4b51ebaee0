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
import { routeDoc, type Data } from './_http/route-docs.js'
import { parseQuery, parseWith } from './_http/validate.js'
import type Router from '@koa/router'

const whyId = z.string().regex(/^w[a-z0-9]{1,40}$/, 'Invalid why record id')
const listQuery = z.object({
  conversationId: z.string({ error: 'conversationId is required' }).trim().regex(CONVERSATION_ID, 'conversationId is invalid'),
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(PER_CONVERSATION, `limit must be at most ${PER_CONVERSATION}`).optional()
})
// a why record as the API answers it (lib/why/types.ts WhyRecord)
const whyRecord = z.object({
  id: z.string(),
  conversationId: z.string(),
  userId: z.string(),
  groupId: z.string().optional(),
  via: z.enum(['bot', 'api', 'mcp', 'admin-test']),
  at: z.number(),
  question: z.string(),
  preset: z.object({ id: z.string(), name: z.string() }),
  channel: z.string(),
  model: z.string(),
  memories: z.array(z.object({ id: z.number(), userId: z.string(), category: z.string(), content: z.string(), removed: z.literal(true).optional() })),
  knowledge: z.array(z.object({ documentId: z.string(), title: z.string(), excerpt: z.string() })),
  skills: z.array(z.object({ name: z.string(), description: z.string() })),
  tools: z.array(z.object({
    id: z.string(), name: z.string(), arguments: z.string(), result: z.string(), isError: z.boolean(),
    approval: z.enum(['none', 'waiting', 'approved', 'refused', 'timeout', 'denied']), durationMs: z.number()
  })),
  // cachedTokens: input served from the provider's cache; calls: the turn's model calls (both absent in older records)
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number(), cachedTokens: z.number().optional() }),
  calls: z.array(z.object({ channel: z.string(), model: z.string(), promptTokens: z.number(), completionTokens: z.number(), cachedTokens: z.number(), reusedChars: z.number().optional(), previousChars: z.number().optional() })).optional(),
  durationMs: z.number()
})
const whyList = z.object({ records: z.array(whyRecord) })
const defaultsData = z.object({ preset: z.object({ id: z.string(), name: z.string() }), channel: z.string(), model: z.string() })
const defaultsQuery = z.object({ userId: chatPartyId('userId').optional(), groupId: chatPartyId('groupId').optional() })

export function chatWhyRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/chat' })
  const why = () => {
    const w = rt.optional('why')
    if (!w) throw new AppError('SERVICE_UNAVAILABLE', 'The why records are not available')
    return w
  }

  r.get('/why', A((ctx): Data<typeof whyList> => {
    const q = parseQuery(ctx, listQuery)
    const w = why()
    return { records: w.store.list(q.conversationId, q.limit ?? PER_CONVERSATION).map((rec) => w.view(rec)) }
  }))
  routeDoc(r, 'GET', '/why', { query: listQuery, summary: 'The why records of a conversation, newest first', data: whyList, errors: [503] })

  r.get('/why/:id', A((ctx): Data<typeof whyRecord> => {
    const id = parseWith(whyId, ctx.params.id)
    const w = why()
    const rec = w.store.get(id)
    if (!rec) throw notFound('Why record not found', 'NOT_FOUND')
    return w.view(rec)
  }))
  routeDoc(r, 'GET', '/why/:id', { summary: 'What shaped one answer: preset, channel and model, memories, knowledge, skills, tools, tokens, time', data: whyRecord, errors: [503] })

  r.get('/defaults', A(async (ctx): Promise<Data<typeof defaultsData>> => {
    const q = parseQuery(ctx, defaultsQuery)
    const c = rt.optional('conversations')
    if (!c) throw new AppError('CHANNEL_UNAVAILABLE', 'Chat is not available')
    return await chatDefaults(rt, c.pipeline, apiChatScope(sessionOf(ctx), q))
  }))
  routeDoc(r, 'GET', '/defaults', { query: defaultsQuery, summary: 'The preset, channel and model the bot would use for a message', data: defaultsData, errors: [503] })
  return r
}
