// The memory review routes (docs/api.md, memory group; lib/memory/README.md, "Review"), style B under
// /api/memory beside routes/memory.ts: the review queue, confirm, correct, bulk confirm or delete, a
// memory's provenance and history, and the review counts. The master reviews here (history `by: master`).
// Mounted before routes/memory.ts: its `GET /:id` would otherwise take `/pending`.
import type Router from '@koa/router'
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { MemoryReview, reviewCounts, reviewMany } from '../lib/memory/review.js'
import { MAX_CONTENT, memoryRecordSchema } from '../lib/memory/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, styledRouter } from './_http/envelope.js'
import { memoryId } from './_http/memory-adapter.js'
import { routeDoc, type Data } from './_http/route-docs.js'
import { bodyOf, parseBody, parseQuery, requireFields } from './_http/validate.js'

const MAX_BULK = 200

const pendingQuery = z.object({
  userId: z.string().trim().min(1, 'userId must be 1-64 characters').max(64, 'userId must be 1-64 characters').optional(),
  limit: z.string().regex(/^\d{1,4}$/, 'limit must be a number from 1 to 500').transform(Number)
    .refine((n) => n >= 1 && n <= 500, 'limit must be a number from 1 to 500').optional()
})
const correctBody = z.object({
  content: z.string({ error: 'content is required' }).trim().min(1, 'content is required').max(MAX_CONTENT, `content is longer than ${MAX_CONTENT} characters`)
})
const bulkBody = z.object({
  ids: z.array(z.number().int().positive(), { error: 'ids must be an array of memory ids' }).min(1, 'ids must name at least one memory').max(MAX_BULK, `At most ${MAX_BULK} ids at once`),
  action: z.enum(['confirm', 'delete'], { error: 'action must be confirm or delete' })
})

const records = z.array(memoryRecordSchema)
const bulkData = z.object({
  action: z.enum(['confirm', 'delete']),
  done: z.number(),
  results: z.array(z.object({ id: z.number(), outcome: z.enum(['confirmed', 'deleted', 'not_pending', 'not_found']) }))
})
const historyData = memoryRecordSchema.pick({ id: true, userId: true, content: true, category: true, confidence: true, groupId: true, createdAt: true, updatedAt: true, origin: true, status: true, supersededBy: true })
  .extend({ history: memoryRecordSchema.shape.history.unwrap() })
const countsData = z.object({ pending: z.number(), superseded: z.number(), confirmed: z.number() })

export function memoryReviewRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/memory' })
  const m = () => rt.need('memory')
  const review = () => new MemoryReview(m(), rt.clock)

  r.get('/pending', B((ctx) => {
    const q = parseQuery(ctx, pendingQuery)
    return review().pending(q.userId, q.limit ?? 100)
  }))
  routeDoc(r, 'GET', '/pending', { query: pendingQuery, summary: 'The review queue: pending memories (of one user or everyone), oldest first, with their origin', data: records })

  r.get('/review/stats', B((): Data<typeof countsData> => reviewCounts(m())))
  routeDoc(r, 'GET', '/review/stats', { summary: 'How many memories are pending, superseded, and in use after a confirmation', data: countsData })

  r.post('/review', B(async (ctx): Promise<Data<typeof bulkData>> => {
    const b = parseBody(ctx, bulkBody)
    const results = await reviewMany(review(), m(), [...new Set(b.ids)], b.action, 'master')
    return { action: b.action, done: results.filter((x) => x.outcome === 'confirmed' || x.outcome === 'deleted').length, results }
  }))
  routeDoc(r, 'POST', '/review', { body: bulkBody, summary: `Confirm or delete (soft) up to ${MAX_BULK} memories; answers per id what happened`, data: bulkData })

  r.post('/:id/confirm', B(async (ctx) => {
    const id = memoryId(ctx.params.id)
    if (!await review().confirm(id, 'master')) throw new AppError('CONFLICT', `Memory ${id} is not pending: only a pending memory can be confirmed`)
    return m().mustGet(id)
  }))
  routeDoc(r, 'POST', '/:id/confirm', { summary: 'Confirm a pending memory: it is used from now on (409 when not pending)', data: memoryRecordSchema, errors: [409] })

  r.post('/:id/correct', B(async (ctx) => {
    const id = memoryId(ctx.params.id)
    requireFields(bodyOf(ctx), ['content']) // `content is required`, as the neighbouring routes say it
    const b = parseBody(ctx, correctBody)
    return review().correct(id, b.content, 'master')
  }))
  routeDoc(r, 'POST', '/:id/correct', { body: correctBody, summary: 'Correct a memory\'s text: used at once, confidence 1, the old text kept in its history', data: memoryRecordSchema })

  r.get('/:id/history', B((ctx): Data<typeof historyData> => {
    const x = m().mustGet(memoryId(ctx.params.id))
    return {
      id: x.id, userId: x.userId, content: x.content, category: x.category, confidence: x.confidence, groupId: x.groupId, createdAt: x.createdAt, updatedAt: x.updatedAt,
      ...(x.origin ? { origin: x.origin } : {}), ...(x.status ? { status: x.status } : {}), ...(x.supersededBy !== undefined ? { supersededBy: x.supersededBy } : {}),
      history: x.history ?? []
    }
  }))
  routeDoc(r, 'GET', '/:id/history', { summary: 'Where a memory came from, its status, what superseded it and its earlier states (oldest first)', data: historyData })
  return r
}
