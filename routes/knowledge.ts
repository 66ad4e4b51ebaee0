// Knowledge base (docs/api.md, Groups of routes; style B) at /api/knowledge.
import Router from '@koa/router'
import { z } from 'zod'
import { badRequest } from '../lib/core/errors.js'
import { LIMITS } from '../lib/knowledge/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { bodyOf, intParam, parseWith, requireFields } from './_http/validate.js'
import { done } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const docFields = z.strictObject({
  title: z.string().max(LIMITS.title, `title is longer than ${LIMITS.title} characters`),
  content: z.string().max(LIMITS.content, `content is longer than ${LIMITS.content} characters`),
  presetId: z.string().max(LIMITS.presetId)
}).partial()

// what GET /search reads (the handler reads the query by hand; this describes it for the document)
const searchQuery = z.object({ query: z.string().max(1000).optional(), q: z.string().max(1000).optional(), presetId: z.string().optional(), limit: z.int().min(1).max(100).optional() })
// a document; listed, its content is cut to the first 500 characters (contentLength, truncated say so)
const docData = z.object({ id: z.string(), title: z.string(), content: z.string(), presetId: z.string(), createdAt: z.string(), updatedAt: z.string() })
const listItem = docData.extend({ contentLength: z.number(), truncated: z.boolean() })
const hitData = z.object({ id: z.string(), title: z.string(), presetId: z.string(), score: z.number(), snippet: z.string(), highlighted: z.string(), contentLength: z.number(), createdAt: z.string() })
const qs = (v: unknown): string | undefined => typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined

export function knowledgeRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/knowledge' })
  const kb = () => rt.need('knowledge')

  // the whole list (a plain array), or with `limit`/`offset` a page of it (routes/_http/paging.ts)
  r.get('/', B((ctx) => {
    const p = pageParams(ctx)
    if (!p) return kb().list()
    const { items, total } = kb().page(p.offset, p.limit)
    return paged(items, total, p)
  }))
  routeDoc(r, 'GET', '/', { summary: 'The knowledge documents, content cut (a page of them with limit/offset)', data: z.array(listItem) })
  r.get('/search', B(async (ctx) => {
    const query = qs(ctx.query.query) ?? qs(ctx.query.q)
    if (!query?.trim()) throw badRequest('query is required')
    if (query.length > 1000) throw badRequest('query is longer than 1000 characters')
    const presetId = qs(ctx.query.presetId)
    return kb().search(query, { ...(presetId ? { presetId } : {}), limit: intParam(ctx.query.limit, 10, 1, 100) })
  }))
  routeDoc(r, 'GET', '/search', { summary: 'Search the knowledge documents (query or q is required)', query: searchQuery, errors: [400], data: z.array(hitData) })
  r.get('/:id', B((ctx): Data<typeof docData> => kb().get(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/:id', { summary: 'A knowledge document', data: docData })
  r.post('/', B(async (ctx) => {
    requireFields(bodyOf(ctx), ['title', 'content'])
    const b = parseWith(docFields, bodyOf(ctx))
    return created(await kb().create({ title: b.title ?? '', content: b.content ?? '', ...(b.presetId !== undefined ? { presetId: b.presetId } : {}) }))
  }))
  routeDoc(r, 'POST', '/', { body: docFields, summary: 'Add a knowledge document', status: 201, data: docData })
  r.put('/:id', B(async (ctx) => {
    const body = bodyOf(ctx)
    const b = parseWith(docFields, body)
    if (Object.keys(b).length === 0) throw badRequest('Nothing to update: send title, content or presetId')
    return kb().update(ctx.params.id ?? '', b)
  }))
  routeDoc(r, 'PUT', '/:id', { body: docFields, summary: 'Update a knowledge document', data: docData })
  r.delete('/:id', B(async (ctx) => {
    await kb().remove(ctx.params.id ?? '')
    return { success: true }
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a knowledge document', data: done })
  return r
}
