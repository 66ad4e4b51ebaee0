// Memory, variant A (docs/api.md; style A) at /api/memories over the same store as variant B; categories
// are shown with variant A's names (basic_info, preferences, events, relationships, interests, custom).
import Router from '@koa/router'
import { summarizeMemories } from '../lib/memory/summarize.js'
import { CATEGORIES, CATEGORY_INFO, type MemoryRecord, type UserEntry } from '../lib/memory/types.js'
import type { Runtime } from '../lib/runtime.js'
import { A, created, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { bodyOf, intParam, requireFields } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'
import { badRequest } from '../lib/core/errors.js'
import { A_CATEGORIES, categoryOf, fromA, memoryFields, memoryId, parseMemoryFields, patchOf, switchOn, toA, truthy, userIdParam } from './_http/memory-adapter.js'

const view = (r: MemoryRecord): Record<string, unknown> => ({ ...r, category: toA(r.category) })
const qs = (v: unknown): string | undefined => typeof v === 'string' && v !== '' ? v : undefined

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
  r.get('/stats', A(() => {
    const s = m().stats()
    return { totalMemories: s.total, totalUsers: s.users, categories: Object.fromEntries(CATEGORIES.map((c) => [toA(c), s.byCategory[c]])) }
  }))
  r.get('/categories', A(() => A_CATEGORIES.map((id) => {
    const b = fromA(id)
    return { id, name: CATEGORY_INFO[b].name, nameEn: CATEGORY_INFO[b].nameEn, description: CATEGORY_INFO[b].description }
  })))
  r.get('/search', A(async (ctx) => {
    const query = qs(ctx.query.query) ?? qs(ctx.query.q)
    if (!query?.trim()) throw badRequest('query is required')
    const userId = qs(ctx.query.userId)
    const hits = await m().search({ query, ...(userId ? { userId } : {}), limit: intParam(ctx.query.limit, 20, 1, 100) })
    return hits.map((h) => ({ ...view(h), score: h.score }))
  }))
  r.get('/user/:userId', A((ctx) => {
    const all = m().list({ userId: userIdParam(ctx.params.userId), category: categoryOf(qs(ctx.query.category)) })
    const p = pageParams(ctx, 100, 1000)
    if (!p) return all.slice(0, 100).map(view)
    return paged(all.slice(p.offset, p.offset + p.limit).map(view), all.length, p)
  }))
  r.post('/user/:userId/summarize', A(async (ctx) => {
    const b = bodyOf(ctx) as Record<string, unknown>
    return summarizeMemories(m(), rt.chat.models, userIdParam(ctx.params.userId), { useLLM: switchOn(b.useLLM), cleanup: switchOn(b.cleanup) })
  }))
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
  routeDoc(r, 'POST', '/user/:userId', { body: memoryFields, summary: 'Add a memory for a user' })
  r.delete('/user/:userId', A(async (ctx) => ({ deleted: await m().clearUser(userIdParam(ctx.params.userId), truthy(ctx.query.hard)) })))
  r.put('/:id', A(async (ctx) => view(await m().update(memoryId(ctx.params.id), patchOf(bodyOf(ctx))))))
  r.delete('/:id', A(async (ctx) => {
    const id = memoryId(ctx.params.id)
    await m().remove(id, truthy(ctx.query.hard))
    return { id }
  }))
  return r
}
