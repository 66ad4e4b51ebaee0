// Chat and conversations, variant A (docs/api.md; style A): send a message (JSON or SSE stream,
// docs/api.md Server-sent events) and read or clear conversations. DELETE /api/conversations/:id is variant B's.
import Router from '@koa/router'
import { z } from 'zod'
import { AppError, notFound } from '../lib/core/errors.js'
import type { ChatScope, ChatTurn, TurnEvent, TurnStep } from '../lib/chat/contracts.js'
import { newTurn, runTurn } from '../lib/chat/steps.js'
import { apiChatScope, chatPartyId, clearConversation, CONVERSATION_ID, conversationIdParam } from '../lib/chat/conversations.js'
import type { ReplyOptions } from '../lib/chat/service.js'
import { redact } from '../lib/core/redact.js'
import type { Runtime } from '../lib/runtime.js'
import { sessionOf } from './_http/auth.js'
import { A, reply, styledRouter } from './_http/envelope.js'
import { openSse, type SseStream } from './_http/sse.js'
import { intParam, parseBody, parseQuery } from './_http/validate.js'
import { storedMessage } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const MAX_MESSAGE = 20000

const chatBody = z.object({
  message: z.string({ error: 'message is required' }).trim().min(1, 'message must not be empty').max(MAX_MESSAGE, `message is longer than ${MAX_MESSAGE} characters`),
  userId: chatPartyId('userId').optional(),
  groupId: chatPartyId('groupId').optional(),
  preset: z.string().trim().max(100, 'preset is too long').optional(),
  // the dashboard's chat page: a channel and model of the caller's choice, and its own conversations
  channel: z.string().trim().max(100, 'channel is too long').optional(),
  model: z.string().trim().max(200, 'model is too long').optional(),
  conversationId: z.string().trim().regex(CONVERSATION_ID, 'conversationId is invalid').optional()
})

/** The reply options a chat body asks for. */
const optionsOf = (body: z.output<typeof chatBody>): ReplyOptions => ({
  ...(body.preset ? { presetId: body.preset } : {}),
  ...(body.channel ? { channel: body.channel } : {}),
  ...(body.model ? { model: body.model } : {})
})

/** A turn event as a stream frame: texts redacted and cut (a tool result can be long). */
function eventFrame (ev: TurnEvent): Record<string, unknown> {
  if (ev.type === 'tool_call') return { ...ev, arguments: redact(ev.arguments).slice(0, FRAME_TEXT) }
  if (ev.type === 'tool_result') return { ...ev, result: redact(ev.result).slice(0, FRAME_TEXT) }
  return { ...ev }
}
const FRAME_TEXT = 4000

const conversationsData = z.object({
  conversations: z.array(z.object({ id: z.string(), userId: z.string(), groupId: z.string(), messageCount: z.number(), lastMessage: z.string(), updatedAt: z.number() })),
  total: z.number()
})
const chatReply = z.object({
  response: z.string(),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
  conversationId: z.string(),
  whyId: z.string().optional()
})
const conversationData = z.object({ id: z.string(), messages: z.array(storedMessage) })

export function chatRoutesA (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api' })

  const scopeOf = (ctx: Parameters<Parameters<typeof A>[0]>[0], body: z.output<typeof chatBody>): ChatScope => apiChatScope(sessionOf(ctx), body)
  const chat = () => {
    const c = rt.optional('conversations')
    if (!c) throw new AppError('CHANNEL_UNAVAILABLE', 'Chat is not available')
    return c.pipeline
  }

  /** The turn's result once the named steps ran (lib/chat/steps.ts: preset, rate limit, reply, and `extra`). */
  const run = async (turn: ChatTurn, extra: TurnStep[] = []): Promise<NonNullable<ChatTurn['result']>> => {
    chat()
    await runTurn(rt.chat.steps, turn, extra)
    if (!turn.result) throw new AppError('CHANNEL_UNAVAILABLE', 'Chat is not available')
    return turn.result
  }

  r.post('/chat', A(async (ctx): Promise<Data<typeof chatReply>> => {
    const body = parseBody(ctx, chatBody)
    // an unknown preset: 404 at the preset step, before the turn counts
    return await run(newTurn('api', body.message, { scope: scopeOf(ctx, body), options: optionsOf(body) }))
  }))
  routeDoc(r, 'POST', '/chat', { body: chatBody, summary: 'Send a chat message', data: chatReply, errors: [404, 429, 502, 503, 504] })

  r.post('/chat/stream', A(async (ctx) => {
    const body = parseBody(ctx, chatBody)
    const scope = scopeOf(ctx, body)
    let sse: SseStream | undefined
    // the stream opens once the preset and the rate limit let the turn through: a 404 or a 429 answers
    // as JSON, never as a frame after `start`
    const stream: TurnStep = {
      name: 'stream',
      via: ['api'],
      after: ['rate-limit'],
      before: ['reply'],
      run (turn) {
        const abort = new AbortController()
        const opened = sse = openSse(ctx, rt.bus)
        opened.onClose(() => abort.abort())
        opened.data({ type: 'start', conversationId: scope.conversationId })
        Object.assign(turn.options, {
          signal: abort.signal,
          onDelta: (text: string) => { if (text) opened.data({ type: 'content', text }) },
          onEvent: (ev: TurnEvent) => opened.data(eventFrame(ev))
        })
      }
    }
    try {
      const res = await run(newTurn('api', body.message, { scope, options: optionsOf(body) }), [stream])
      const why = res.whyId ? rt.optional('why') : undefined
      const record = res.whyId ? why?.store.get(res.whyId) : undefined
      sse?.data({ type: 'end', conversationId: res.conversationId, usage: res.usage, response: res.response, ...(res.whyId ? { whyId: res.whyId } : {}), ...(record && why ? { why: why.view(record) } : {}) })
    } catch (err) {
      if (!sse) throw err
      const code = err instanceof AppError ? err.code : 'INTERNAL_ERROR'
      const message = err instanceof AppError ? err.message : 'Internal server error'
      if (!(err instanceof AppError)) rt.log.error('Chat stream failed', { conversationId: scope.conversationId }, err)
      sse.data({ type: 'error', code, message })
    } finally {
      sse?.close()
    }
  }))
  routeDoc(r, 'POST', '/chat/stream', { body: chatBody, summary: 'Send a chat message, answer streamed (SSE)', contentType: 'text/event-stream', events: ['unnamed data frames { type }: start { conversationId }', 'content { text } (repeated)', 'tool_call, tool_approval, tool_result', 'end { conversationId, usage, response, whyId?, why? } or error { code, message }'], errors: [404, 429, 503] })

  // the filters are ids as the chat routes take them (chatPartyId; empty: no filter); limit and offset are read
  // like every numeric parameter, never a 400 (docs/api.md, Paging)
  const conversationsQuery = z.object({
    userId: chatPartyId('userId').optional(),
    groupId: chatPartyId('groupId').optional(),
    offset: z.unknown().optional().describe('items skipped (default 0)'),
    limit: z.unknown().optional().describe('page size (default 50, 1-1000)')
  })
  r.get('/conversations', A((ctx): Data<typeof conversationsData> => {
    const q = parseQuery(ctx, conversationsQuery)
    const userId = q.userId || undefined
    const groupId = q.groupId || undefined
    const offset = intParam(q.offset, 0, 0)
    const limit = intParam(q.limit, 50, 1, 1000)
    // from the store's recency order: one page built, nothing sorted
    const { items, total } = rt.need('conversations').store.summaryPage({ ...(userId ? { userId } : {}), ...(groupId ? { groupId } : {}) }, offset, limit)
    return { conversations: items, total }
  }))
  routeDoc(r, 'GET', '/conversations', { query: conversationsQuery, summary: 'A page of the stored conversations, newest first (userId, groupId, offset, limit)', data: conversationsData })
  r.get('/conversations/:id', A((ctx): Data<typeof conversationData> => {
    const id = conversationIdParam(ctx.params.id)
    const conv = rt.need('conversations').store.get(id)
    if (!conv) throw notFound('Conversation not found', 'CONVERSATION_NOT_FOUND')
    return { id, messages: conv.messages }
  }))
  routeDoc(r, 'GET', '/conversations/:id', { summary: 'A stored conversation\'s messages', data: conversationData })
  r.post('/conversations/:id/clear', A(async (ctx) => {
    const id = conversationIdParam(ctx.params.id)
    if (!await clearConversation(rt.need('conversations'), id)) throw notFound('Conversation not found', 'CONVERSATION_NOT_FOUND')
    return reply(undefined, { message: 'Context cleared' })
  }))
  routeDoc(r, 'POST', '/conversations/:id/clear', { summary: 'Clear a stored conversation', data: null })
  return r
}
