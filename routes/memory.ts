// Memory, variant B (docs/api.md; style B) at /api/memory. Numeric `:id` paths are always primary keys;
// a user's memories live under /user/:userId.
import Router from '@koa/router'
import { dict, type Dict } from '../lib/core/dict.js'
import type { Context } from 'koa'
import { z } from 'zod'
import { badRequest, errorText } from '../lib/core/errors.js'
import { summarizeMemories } from '../lib/memory/summarize.js'
import { CATEGORIES, CATEGORY_INFO, memoryRecordSchema, type MemoryRecord } from '../lib/memory/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, reply, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { bodyOf, intParam, parseWith, requireFields } from './_http/validate.js'
import { done } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'
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
const byCategory = z.record(z.string(), z.number())
const userStatsData = z.object({ total: z.number(), byCategory })
const statsData = z.object({ total: z.number(), users: z.number(), byCategory: z.record(z.string(), z.number()) })

const records = z.array(memoryRecordSchema)
// format=tree (default): category -> subType -> records; format=list: the records, newest first
const shapedRecords = z.union([z.record(z.string(), z.record(z.string(), records)), records])
const usersData = z.array(z.object({ userId: z.string(), count: z.number(), lastUpdate: z.number(), categories: z.array(z.string()) }))
const cleanupData = z.object({ removed: z.number(), remaining: z.number(), reasons: z.object({ lowConfidence: z.number(), expired: z.number(), tooOld: z.number(), tooShort: z.number() }) })
const summarizeData = z.object({ before: z.number(), after: z.number(), usedModel: z.boolean(), lines: z.array(z.string()), cleanup: cleanupData.optional(), merged: z.number().optional() })

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
  routeDoc(r, 'GET', '/users', { summary: 'The users with memories (a page of them with limit/offset)', data: usersData })
  r.get('/stats', B((): Data<typeof statsData> => m().stats()))
  routeDoc(r, 'GET', '/stats', { summary: 'Memory counts', data: statsData })
  r.get('/categories', B(() => CATEGORIES.map((id) => ({ id, ...CATEGORY_INFO[id], aliases: [toA(id)] }))))
  routeDoc(r, 'GET', '/categories', { summary: 'The memory categories', data: z.array(z.object({ id: z.string(), name: z.string(), nameEn: z.string(), description: z.string(), aliases: z.array(z.string()) })) })

  r.get('/user/:userId/stats', B((ctx): Data<typeof userStatsData> => m().userStats(userIdParam(ctx.params.userId))))
  routeDoc(r, 'GET', '/user/:userId/stats', { summary: 'A user\'s memory counts', data: userStatsData })
  r.get('/user/:userId/group/:groupId', B((ctx) => userPage(ctx, m().list({
    userId: userIdParam(ctx.params.userId), groupId: ctx.params.groupId ?? '', category: categoryOf(qs(ctx.query.category))
  }))))
  routeDoc(r, 'GET', '/user/:userId/group/:groupId', { summary: 'A user\'s memories in a group (format tree or list)', data: shapedRecords })
  r.get('/user/:userId', B((ctx) => userPage(ctx, m().list({
    userId: userIdParam(ctx.params.userId),
    ...(qs(ctx.query.groupId) !== undefined ? { groupId: qs(ctx.query.groupId) } : {}),
    category: categoryOf(qs(ctx.query.category))
  }))))
  routeDoc(r, 'GET', '/user/:userId', { summary: 'A user\'s memories (format tree or list; groupId, category)', data: shapedRecords })
  r.get('/group/:groupId', B((ctx) => {
    const all = m().list({
      groupId: ctx.params.groupId ?? '',
      ...(qs(ctx.query.userId) !== undefined ? { userId: qs(ctx.query.userId) } : {}),
      category: categoryOf(qs(ctx.query.category))
    })
    const p = pageParams(ctx, 100, 1000)
    return p ? paged(all.slice(p.offset, p.offset + p.limit), all.length, p) : all.slice(0, 100)
  }))
  routeDoc(r, 'GET', '/group/:groupId', { summary: 'A group\'s memories (userId, category; at most 100 without paging)', data: records })

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
  routeDoc(r, 'POST', '/search', { body: searchBody, summary: 'Search memories', data: z.array(memoryRecordSchema.extend({ score: z.number() })) })

  r.post('/user/:userId/cleanup', B(async (ctx) => m().cleanup(userIdParam(ctx.params.userId))))
  routeDoc(r, 'POST', '/user/:userId/cleanup', { summary: 'Remove a user\'s low-quality memories', data: cleanupData })
  r.post('/user/:userId/summarize', B(async (ctx) => {
    const userId = userIdParam(ctx.params.userId)
    const b = parseWith(summarizeBody, bodyOf(ctx))
    return summarizeMemories(m(), rt.optional('models'), userId, {
      useLLM: switchOn(b.useLLM), cleanup: switchOn(b.cleanup), ...(b.groupId !== undefined ? { groupId: b.groupId } : {}), ...(b.model ? { model: b.model } : {})
    })
  }))
  routeDoc(r, 'POST', '/user/:userId/summarize', { body: summarizeBody, summary: 'Summarize a user\'s memories', data: summarizeData })
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
  routeDoc(r, 'POST', '/user/:userId', { body: memoryFields, summary: 'Add a memory for a user', data: memoryRecordSchema })
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
        return { index, success: false, error: errorText(err) }
      }
    }))
    const saved = results.filter((x) => x.success).length
    return { total: items.length, saved, failed: items.length - saved, results }
  }))
  routeDoc(r, 'POST', '/batch', { summary: 'Add many memories', data: z.object({ total: z.number(), saved: z.number(), failed: z.number(), results: z.array(z.object({ index: z.number(), success: z.boolean(), id: z.number().optional(), error: z.string().optional() })) }) })
  r.post('/merge/:userId', B(async (ctx) => m().merge(userIdParam(ctx.params.userId))))
  routeDoc(r, 'POST', '/merge/:userId', { summary: 'Merge a user\'s duplicate memories', data: z.object({ merged: z.number(), remaining: z.number() }) })
  r.post('/', B(async (ctx) => {
    requireFields(bodyOf(ctx), ['userId', 'content'])
    const f = parseMemoryFields(bodyOf(ctx))
    return created(await m().add({
      userId: f.userId ?? '', content: f.content ?? '', category: categoryOf(f.category) ?? 'custom',
      source: 'manual', confidence: 0.9, ...(f.metadata !== undefined ? { metadata: f.metadata } : {})
    }))
  }))
  routeDoc(r, 'POST', '/', { body: memoryFields, summary: 'Add a memory', status: 201, data: memoryRecordSchema })

  r.delete('/user/:userId', B(async (ctx) => {
    const deleted = await m().clearUser(userIdParam(ctx.params.userId), truthy(ctx.query.hard))
    return { success: true, deleted }
  }))
  routeDoc(r, 'DELETE', '/user/:userId', { summary: 'Remove a user\'s memories (hard: from disk)', data: done.extend({ deleted: z.number() }) })
  r.get('/:id', B((ctx): Data<typeof memoryRecordSchema> => m().mustGet(memoryId(ctx.params.id))))
  routeDoc(r, 'GET', '/:id', { summary: 'A memory', data: memoryRecordSchema })
  r.put('/:id', B(async (ctx) => {
    const id = memoryId(ctx.params.id)
    return m().update(id, patchOf(bodyOf(ctx)))
  }))
  routeDoc(r, 'PUT', '/:id', { summary: 'Change a memory', data: memoryRecordSchema })
  r.delete('/:id', B(async (ctx) => {
    const id = memoryId(ctx.params.id)
    const hard = truthy(ctx.query.hard)
    await m().remove(id, hard)
    return { success: true, id, hard }
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a memory (hard: from disk)', data: done.extend({ id: z.number(), hard: z.boolean() }) })
  return r
}
