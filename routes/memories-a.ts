// Memory, variant A (docs/api.md; style A) at /api/memories over the same store as variant B; categories
// are shown with variant A's names (basic_info, preferences, events, relationships, interests, custom).
import Router from '@koa/router'
import { z } from 'zod'
import { summarizeMemories } from '../lib/memory/summarize.js'
import { CATEGORIES, CATEGORY_INFO, memoryRecordSchema, type MemoryRecord, type UserEntry } from '../lib/memory/types.js'
import type { Runtime } from '../lib/runtime.js'
import { A, created, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { bodyOf, intParam, requireFields } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'
import { badRequest } from '../lib/core/errors.js'
import { A_CATEGORIES, categoryOf, fromA, memoryFields, memoryId, parseMemoryFields, patchOf, switchOn, toA, truthy, userIdParam } from './_http/memory-adapter.js'

const view = (r: MemoryRecord): Record<string, unknown> => ({ ...r, category: toA(r.category) })
const qs = (v: unknown): string | undefined => typeof v === 'string' && v !== '' ? v : undefined
// what GET /search reads (the handler reads the query by hand; this describes it for the document)
const summarizeData = z.object({
  before: z.number(), after: z.number(), usedModel: z.boolean(), lines: z.array(z.string()), merged: z.number().optional(),
  cleanup: z.object({ removed: z.number(), remaining: z.number(), reasons: z.record(z.string(), z.number()) }).optional()
})
const searchQuery = z.object({ query: z.string().optional(), q: z.string().optional(), userId: z.string().optional(), limit: z.int().min(1).max(100).optional() })

export function memoriesRoutesA (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/memories' })
  const m = () => rt.need('memory')

  // whole lists (plain arrays), or with `limit`/`offset` a page and its `total` (routes/_http/paging.ts)
  r.get('/users', A((ctx) => {
    const entry = (u: UserEntry): { userId: string; memoryCount: number } => ({ userId: u.userId, memoryCount: u.count })
    const p = pageParams(ctx)
    if (!p) return m().users().map(entry)
    const { items, total } = m().usersPage(p.offset, p.limit)
    return paged(items.map(entry), total, p)
  }))
  routeDoc(r, 'GET', '/users', { summary: 'The users with memories (a page of them with limit/offset)', data: z.array(z.object({ userId: z.string(), memoryCount: z.number() })) })
  r.get('/stats', A(() => {
    const s = m().stats()
    return { totalMemories: s.total, totalUsers: s.users, categories: Object.fromEntries(CATEGORIES.map((c) => [toA(c), s.byCategory[c]])) }
  }))
  routeDoc(r, 'GET', '/stats', { summary: 'Memory counts (variant A category names)', data: z.object({ totalMemories: z.number(), totalUsers: z.number(), categories: z.record(z.string(), z.number()) }) })
  r.get('/categories', A(() => A_CATEGORIES.map((id) => {
    const b = fromA(id)
    return { id, name: CATEGORY_INFO[b].name, nameEn: CATEGORY_INFO[b].nameEn, description: CATEGORY_INFO[b].description }
  })))
  routeDoc(r, 'GET', '/categories', { summary: 'The memory categories (variant A names)', data: z.array(z.object({ id: z.string(), name: z.string(), nameEn: z.string(), description: z.string() })) })
  r.get('/search', A(async (ctx) => {
    const query = qs(ctx.query.query) ?? qs(ctx.query.q)
    if (!query?.trim()) throw badRequest('query is required')
    const userId = qs(ctx.query.userId)
    const hits = await m().search({ query, ...(userId ? { userId } : {}), limit: intParam(ctx.query.limit, 20, 1, 100) })
    return hits.map((h) => ({ ...view(h), score: h.score }))
  }))
  routeDoc(r, 'GET', '/search', { summary: 'Search memories (query or q is required)', query: searchQuery, errors: [400], data: z.array(memoryRecordSchema.extend({ score: z.number() })) })
  r.get('/user/:userId', A((ctx) => {
    const all = m().list({ userId: userIdParam(ctx.params.userId), category: categoryOf(qs(ctx.query.category)) })
    const p = pageParams(ctx, 100, 1000)
    if (!p) return all.slice(0, 100).map(view)
    return paged(all.slice(p.offset, p.offset + p.limit).map(view), all.length, p)
  }))
  routeDoc(r, 'GET', '/user/:userId', { summary: 'A user\'s memories (category; at most 100 without paging)', data: z.array(memoryRecordSchema) })
  r.post('/user/:userId/summarize', A(async (ctx) => {
    const b = bodyOf(ctx) as Record<string, unknown>
    return summarizeMemories(m(), rt.optional('models'), userIdParam(ctx.params.userId), { useLLM: switchOn(b.useLLM), cleanup: switchOn(b.cleanup) })
  }))
  routeDoc(r, 'POST', '/user/:userId/summarize', { summary: 'Summarize a user\'s memories', data: summarizeData })
  r.post('/user/:userId', A(async (ctx) => {
    const userId = userIdParam(ctx.params.userId)
    requireFields(bodyOf(ctx), ['content'])
    const f = parseMemoryFields(bodyOf(ctx))
    return created(view(await m().add({
      userId, content: f.content ?? '', category: categoryOf(f.category) ?? 'custom', source: 'manual',
      ...(f.confidence !== undefined ? { confidence: f.confidence } : {}), ...(f.groupId !== undefined ? { groupId: f.groupId } : {}),
      ...(f.metadata !== undefined ? { metadata: f.metadata } : {})
    })))
  }))
  routeDoc(r, 'POST', '/user/:userId', { body: memoryFields, summary: 'Add a memory for a user', status: 201, data: memoryRecordSchema })
  r.delete('/user/:userId', A(async (ctx) => ({ deleted: await m().clearUser(userIdParam(ctx.params.userId), truthy(ctx.query.hard)) })))
  routeDoc(r, 'DELETE', '/user/:userId', { summary: 'Remove a user\'s memories (hard: from disk)', data: z.object({ deleted: z.number() }) })
  r.put('/:id', A(async (ctx) => view(await m().update(memoryId(ctx.params.id), patchOf(bodyOf(ctx))))))
  routeDoc(r, 'PUT', '/:id', { summary: 'Change a memory', data: memoryRecordSchema })
  r.delete('/:id', A(async (ctx) => {
    const id = memoryId(ctx.params.id)
    await m().remove(id, truthy(ctx.query.hard))
    return { id }
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a memory (hard: from disk)', data: z.object({ id: z.number() }) })
  return r
}
