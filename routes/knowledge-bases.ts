// Knowledge bases (docs/api.md, "Knowledge base"; style B; lib/knowledge/bases.ts) at
// /api/knowledge/bases: mounted before routes/knowledge.ts (its `/:id` would take `bases` for a
// document id).
import type Router from '@koa/router'
import { z } from 'zod'
import { badRequest } from '../lib/core/errors.js'
import type { Runtime } from '../lib/runtime.js'
import { LIMITS, type KnowledgeBase, type KnowledgeBaseView } from '../lib/knowledge/types.js'
import { done } from './_http/answers.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { routeDoc, type Data } from './_http/route-docs.js'
import { filterId, parseBody, parseQuery, requireFields, bodyOf } from './_http/validate.js'

const presetIds = z.array(z.string().max(LIMITS.presetId, `a preset id is longer than ${LIMITS.presetId} characters`)).max(LIMITS.basePresets, `presetIds holds more than ${LIMITS.basePresets} presets`)
const baseFields = z.strictObject({
  name: z.string().max(LIMITS.baseName, `name is longer than ${LIMITS.baseName} characters`),
  description: z.string().max(LIMITS.baseDescription, `description is longer than ${LIMITS.baseDescription} characters`),
  presetIds
}).partial()
const newBase = baseFields.extend({ id: filterId('id').optional() })
const removeQuery = z.object({ withDocuments: z.enum(['true', 'false'], 'withDocuments must be true or false').optional() })
const baseData = z.object({
  id: z.string(), name: z.string(), description: z.string(), presetIds: z.array(z.string()), createdAt: z.string(), updatedAt: z.string(), documents: z.number()
})

export function knowledgeBaseRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/knowledge' })
  const kb = () => rt.need('knowledge')
  const view = (b: KnowledgeBase): KnowledgeBaseView => ({ ...b, documents: kb().baseSize(b.id) })

  r.get('/bases', B((): Data<z.ZodArray<typeof baseData>> => kb().bases.list().map(view)))
  routeDoc(r, 'GET', '/bases', { summary: 'The knowledge bases (the default one first) with their number of documents', data: z.array(baseData) })

  r.post('/bases', B(async (ctx) => {
    requireFields(bodyOf(ctx), ['name'])
    const b = parseBody(ctx, newBase)
    return created(view(await kb().bases.create({
      name: b.name ?? '', ...(b.id !== undefined ? { id: b.id } : {}), ...(b.description !== undefined ? { description: b.description } : {}), ...(b.presetIds ? { presetIds: b.presetIds } : {})
    })))
  }))
  routeDoc(r, 'POST', '/bases', { body: newBase, summary: 'Make a knowledge base (id optional: letters, digits, _ or -; else one is made)', status: 201, errors: [409], data: baseData })

  r.get('/bases/:baseId', B((ctx): Data<typeof baseData> => view(kb().bases.get(ctx.params.baseId ?? ''))))
  routeDoc(r, 'GET', '/bases/:baseId', { summary: 'A knowledge base with its number of documents', data: baseData })

  r.put('/bases/:baseId', B(async (ctx): Promise<Data<typeof baseData>> => {
    const b = parseBody(ctx, baseFields)
    if (Object.keys(b).length === 0) throw badRequest('Nothing to update: send name, description or presetIds')
    return view(await kb().bases.update(ctx.params.baseId ?? '', b))
  }))
  routeDoc(r, 'PUT', '/bases/:baseId', { body: baseFields, summary: 'Rename a knowledge base, change its description or the presets bound to it', data: baseData })

  r.delete('/bases/:baseId', B(async (ctx) => {
    const q = parseQuery(ctx, removeQuery)
    await kb().removeBase(ctx.params.baseId ?? '', q.withDocuments === 'true')
    return { success: true }
  }))
  routeDoc(r, 'DELETE', '/bases/:baseId', { query: removeQuery, summary: 'Remove a knowledge base (409 while it holds documents unless withDocuments=true; the default base is never removed)', errors: [409], data: done })
  return r
}
