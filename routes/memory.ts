// Memory, variant B (docs/api.md; style B) at /api/memory. Numeric `:id` paths are always primary keys;
// a user's memories live under /user/:userId.
import Router from '@koa/router'
import { dict, type Dict } from '../lib/core/dict.js'
import type { Context } from 'koa'
import { z } from 'zod'
import { badRequest } from '../lib/core/errors.js'
import { summarizeMemories } from '../lib/memory/summarize.js'
import { CATEGORIES, CATEGORY_INFO, type MemoryRecord } from '../lib/memory/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, reply, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { bodyOf, intParam, parseWith, requireFields } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'
import { categoryOf, memoryFields, memoryId, parseMemoryFields, patchOf, switchOn, toA, truthy, userIdParam } from './_http/memory-adapter.js'

const searchBody = z.looseObject({
  query: z.string().max(1000),
  userId: z.union([z.string().max(64), z.number().transform(String)]).optional(),
  groupId: z.union([z.string().max(64), z.number().transform(String)]).optional(),
  category: z.string().max(50).optional(),
  limit: z.unknown().optional()
})
const summarizeBody = z.looseObject({
  useLLM: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  cleanup: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  groupId: z.union([z.string().max(64), z.number().transform(String)]).optional(),
  model: z.string().max(200).optional()
})
const MAX_BATCH = 1000

/** `tree` (default): category → subType → records; `list`: records newest first. */
function shaped (ctx: Context, records: MemoryRecord[]): unknown {
  const format = typeof ctx.query.format === 'string' ? ctx.query.format : 'tree'
  if (format === 'list') return records
  if (format !== 'tree') throw badRequest('format must be tree or list')
  // subType is free text: null-prototype records (a subType `__proto__` is a key like any other)
  const tree = dict<Dict<MemoryRecord[]>>()
  for (const r of records) ((tree[r.category] ??= dict())[r.subType || 'general'] ??= []).push(r)
  return tree
}

const qs = (v: unknown): string | undefined => typeof v === 'string' && v !== '' ? v : undefined

/** A user's records (newest first, at most `limit`, default 1000), shaped; with `offset` or `limit` the envelope adds the paging figures. */
function userPage (ctx: Context, records: MemoryRecord[]): unknown {
  const p = pageParams(ctx, 1000, 10000)
  if (!p) return shaped(ctx, records.slice(0, 1000))
  return reply(shaped(ctx, records.slice(p.offset, p.offset + p.limit)), { extra: { total: records.length, limit: p.limit, offset: p.offset } })
}

export function memoryRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/memory' })
  const m = () => rt.need('memory')

  // whole lists (plain arrays), or with `limit`/`offset` a page and its `total` (routes/_http/paging.ts)
  r.get('/users', B((ctx) => {
    const p = pageParams(ctx)
    if (!p) return m().users()
    const { items, total } = m().usersPage(p.offset, p.limit)
    return paged(items, total, p)
  }))
  r.get('/stats', B(() => m().stats()))
  r.get('/categories', B(() => CATEGORIES.map((id) => ({ id, ...CATEGORY_INFO[id], aliases: [toA(id)] }))))

  r.get('/user/:userId/stats', B((ctx) => m().userStats(userIdParam(ctx.params.userId))))
  r.get('/user/:userId/group/:groupId', B((ctx) => userPage(ctx, m().list({
    userId: userIdParam(ctx.params.userId), groupId: ctx.params.groupId ?? '', category: categoryOf(qs(ctx.query.category))
  }))))
  r.get('/user/:userId', B((ctx) => userPage(ctx, m().list({
    userId: userIdParam(ctx.params.userId),
    ...(qs(ctx.query.groupId) !== undefined ? { groupId: qs(ctx.query.groupId) } : {}),
    category: categoryOf(qs(ctx.query.category))
  }))))
  r.get('/group/:groupId', B((ctx) => {
    const all = m().list({
      groupId: ctx.params.groupId ?? '',
      ...(qs(ctx.query.userId) !== undefined ? { userId: qs(ctx.query.userId) } : {}),
      category: categoryOf(qs(ctx.query.category))
    })
    const p = pageParams(ctx, 100, 1000)
    return p ? paged(all.slice(p.offset, p.offset + p.limit), all.length, p) : all.slice(0, 100)
  }))

  r.post('/search', B(async (ctx) => {
    requireFields(bodyOf(ctx), ['query'])
    const b = parseWith(searchBody, bodyOf(ctx))
    return m().search({
      query: b.query,
      ...(b.userId ? { userId: b.userId } : {}),
      ...(b.groupId !== undefined && b.groupId !== '' ? { groupId: b.groupId } : {}),
      category: categoryOf(b.category),
      limit: intParam(b.limit, 20, 1, 100)
    })
  }))
  routeDoc(r, 'POST', '/search', { body: searchBody, summary: 'Search memories' })

  r.post('/user/:userId/cleanup', B(async (ctx) => m().cleanup(userIdParam(ctx.params.userId))))
  r.post('/user/:userId/summarize', B(async (ctx) => {
    const userId = userIdParam(ctx.params.userId)
    const b = parseWith(summarizeBody, bodyOf(ctx))
    return summarizeMemories(m(), rt.chat.models, userId, {
      useLLM: switchOn(b.useLLM), cleanup: switchOn(b.cleanup), ...(b.groupId !== undefined ? { groupId: b.groupId } : {}), ...(b.model ? { model: b.model } : {})
    })
  }))
  routeDoc(r, 'POST', '/user/:userId/summarize', { body: summarizeBody, summary: 'Summarize a user\'s memories' })
  r.post('/user/:userId', B(async (ctx) => {
    const userId = userIdParam(ctx.params.userId)
    requireFields(bodyOf(ctx), ['content'])
    const f = parseMemoryFields(bodyOf(ctx))
    return m().add({
      userId, content: f.content ?? '', category: categoryOf(f.category) ?? 'custom', source: 'manual',
      ...(f.subType !== undefined ? { subType: f.subType } : {}), ...(f.confidence !== undefined ? { confidence: f.confidence } : {}),
      ...(f.groupId !== undefined ? { groupId: f.groupId } : {}), ...(f.metadata !== undefined ? { metadata: f.metadata } : {}),
      ...(f.expiresAt !== undefined ? { expiresAt: f.expiresAt } : {})
    })
  }))
  routeDoc(r, 'POST', '/user/:userId', { body: memoryFields, summary: 'Add a memory for a user' })
  r.post('/batch', B(async (ctx) => {
    const body = bodyOf(ctx)
    const items = Array.isArray(body) ? body : (body as { memories?: unknown }).memories
    if (!Array.isArray(items)) throw badRequest('Body must be an array of memories')
    if (items.length > MAX_BATCH) throw badRequest(`At most ${MAX_BATCH} memories per batch`)
    const results = await Promise.all(items.map(async (item: unknown, index) => {
      try {
        requireFields(item, ['userId', 'content'])
        const f = parseMemoryFields(item)
        const rec = await m().add({
          userId: f.userId ?? '', content: f.content ?? '', category: categoryOf(f.category) ?? 'custom', source: 'batch',
          ...(f.subType !== undefined ? { subType: f.subType } : {}), ...(f.confidence !== undefined ? { confidence: f.confidence } : {}),
          ...(f.groupId !== undefined ? { groupId: f.groupId } : {}), ...(f.metadata !== undefined ? { metadata: f.metadata } : {})
        })
        return { index, success: true, id: rec.id }
      } catch (err) {
        return { index, success: false, error: err instanceof Error ? err.message : 'invalid item' }
      }
    }))
    const saved = results.filter((x) => x.success).length
    return { total: items.length, saved, failed: items.length - saved, results }
  }))
  r.post('/merge/:userId', B(async (ctx) => m().merge(userIdParam(ctx.params.userId))))
  r.post('/', B(async (ctx) => {
    requireFields(bodyOf(ctx), ['userId', 'content'])
    const f = parseMemoryFields(bodyOf(ctx))
    return created(await m().add({
      userId: f.userId ?? '', content: f.content ?? '', category: categoryOf(f.category) ?? 'custom',
      source: 'manual', confidence: 0.9, ...(f.metadata !== undefined ? { metadata: f.metadata } : {})
    }))
  }))
  routeDoc(r, 'POST', '/', { body: memoryFields, summary: 'Add a memory' })

  r.delete('/user/:userId', B(async (ctx) => {
    const deleted = await m().clearUser(userIdParam(ctx.params.userId), truthy(ctx.query.hard))
    return { success: true, deleted }
  }))
  r.get('/:id', B((ctx) => m().mustGet(memoryId(ctx.params.id))))
  r.put('/:id', B(async (ctx) => {
    const id = memoryId(ctx.params.id)
    return m().update(id, patchOf(bodyOf(ctx)))
  }))
  r.delete('/:id', B(async (ctx) => {
    const id = memoryId(ctx.params.id)
    const hard = truthy(ctx.query.hard)
    await m().remove(id, hard)
    return { success: true, id, hard }
  }))
  return r
}
