// Knowledge base (docs/api.md, Groups of routes; style B) at /api/knowledge: documents (pasted, files,
// URLs), their status and passages, the passage search (the bases: knowledge-bases.ts).
import { readFile, rm } from 'node:fs/promises'
import Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError, badRequest } from '../lib/core/errors.js'
import { importOptional } from '../lib/core/packages.js'
import { SUPPORTED_EXTENSIONS, typeOfName } from '../lib/knowledge/extract/index.js'
import { FILE_TYPES, LIMITS } from '../lib/knowledge/types.js'
import type { Runtime } from '../lib/runtime.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { bodyOf, filterId, intParam, parseQuery, parseWith, requireFields } from './_http/validate.js'
import { done } from './_http/answers.js'
import { routeDoc, type Data } from './_http/route-docs.js'

// a document's base (bases routes: knowledge-bases.ts); unknown: 404 BASE_NOT_FOUND
const baseIdField = filterId('baseId')
const docFields = z.strictObject({
  title: z.string().max(LIMITS.title, `title is longer than ${LIMITS.title} characters`),
  content: z.string().max(LIMITS.content, `content is longer than ${LIMITS.content} characters`),
  presetId: z.string().max(LIMITS.presetId),
  baseId: baseIdField
}).partial()
const urlFields = z.strictObject({
  url: z.string().max(LIMITS.url, `url is longer than ${LIMITS.url} characters`),
  presetId: z.string().max(LIMITS.presetId).optional(),
  baseId: baseIdField.optional()
})
const baseQuery = z.object({ baseId: baseIdField.optional() })
const listQuery = baseQuery.extend({ limit: z.int().optional(), offset: z.int().optional() })
const presetField = z.string().max(LIMITS.presetId, `presetId is longer than ${LIMITS.presetId} characters`)

// what GET /search reads (the handler reads the query by hand; this describes it for the document)
const searchQuery = z.object({ query: z.string().max(1000).optional(), q: z.string().max(1000).optional(), presetId: z.string().optional(), baseId: z.string().optional(), limit: z.int().min(1).max(100).optional() })
const source = z.union([
  z.object({ kind: z.literal('text') }),
  z.object({ kind: z.literal('file'), name: z.string(), type: z.enum(FILE_TYPES), bytes: z.number() }),
  z.object({ kind: z.literal('url'), url: z.string() })
])
// a document; listed, its content is cut to the first 500 characters (contentLength, truncated say so)
const docData = z.object({
  id: z.string(), title: z.string(), content: z.string(), presetId: z.string(), baseId: z.string(), createdAt: z.string(), updatedAt: z.string(),
  status: z.enum(['processing', 'ready', 'failed']), error: z.string().optional(), chunks: z.number(), source, pageStarts: z.array(z.number()).optional()
})
const listItem = docData.extend({ contentLength: z.number(), truncated: z.boolean() })
const hitData = z.object({
  docId: z.string(), id: z.string(), title: z.string(), presetId: z.string(), text: z.string(), score: z.number(),
  heading: z.string().optional(), page: z.number().optional(), retrievers: z.array(z.enum(['bm25', 'vector', 'rerank'])), snippet: z.string(), highlighted: z.string()
})
const passageData = z.object({ index: z.number(), heading: z.string(), page: z.number().optional(), text: z.string() })
const fileResult = z.object({ id: z.string(), title: z.string(), status: z.enum(['processing', 'ready', 'failed']), error: z.string().optional() })
const qs = (v: unknown): string | undefined => typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined

/** Files one upload takes at most. */
const MAX_FILES = 20

interface UploadedFile { filepath: string; originalFilename?: string | null; size: number }

type Mw = (ctx: Context, next: () => Promise<void>) => Promise<void>
let multipart: { limit: number; parse: Mw } | undefined
/** koa-body's multipart parser with the knowledge base's own limits (`knowledge.maxFileBytes`, MAX_FILES). */
async function parserFor (limit: number): Promise<Mw> {
  if (multipart?.limit === limit) return multipart.parse
  const { koaBody } = await importOptional('koa-body', () => import('koa-body')).catch(() => {
    throw new AppError('SERVICE_UNAVAILABLE', 'Uploads cannot be read: the package koa-body is not installed (the bot\'s log says how to install it)')
  })
  const parse = koaBody({
    json: false, text: false, urlencoded: false, multipart: true,
    formidable: { maxFileSize: limit, maxTotalFileSize: limit * MAX_FILES, maxFiles: MAX_FILES, allowEmptyFiles: true, minFileSize: 0 }
  }) as Mw
  multipart = { limit, parse }
  return parse
}

/** The uploaded files and fields of a multipart request (parsed here unless the body parser did). */
async function uploadOf (ctx: Context, limit: number): Promise<{ files: UploadedFile[]; fields: Record<string, unknown> }> {
  if (!ctx.request.files) {
    if (!ctx.is('multipart/form-data')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data, field "file" (repeatable)')
    try {
      await (await parserFor(limit))(ctx, async () => {})
    } catch (err) {
      if (err instanceof AppError) throw err
      const code = (err as { httpCode?: number }).httpCode
      if (code === 413) throw new AppError('PAYLOAD_TOO_LARGE', `A file is larger than ${limit} bytes (knowledge.maxFileBytes), or the upload holds more than ${MAX_FILES} files`)
      throw badRequest(`The upload could not be read: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`)
    }
  }
  const all = Object.entries(ctx.request.files ?? {}).flatMap(([, f]) => Array.isArray(f) ? f : [f]) as UploadedFile[]
  const named = ctx.request.files?.file
  const files = (named === undefined ? [] : Array.isArray(named) ? named : [named]) as UploadedFile[]
  const strays = all.filter((f) => !files.includes(f))
  await Promise.all(strays.map((f) => rm(f.filepath, { force: true })))
  const body = bodyOf(ctx)
  return { files, fields: typeof body === 'object' && body !== null && !Array.isArray(body) ? body as Record<string, unknown> : {} }
}

export function knowledgeRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/knowledge' })
  const kb = () => rt.need('knowledge')
  /** The `baseId` of a query, its base checked (404 BASE_NOT_FOUND). */
  const baseOfQuery = (ctx: Context): string | undefined => {
    const { baseId } = parseQuery(ctx, baseQuery)
    if (baseId !== undefined) kb().bases.get(baseId)
    return baseId
  }

  // the whole list (a plain array), or with `limit`/`offset` a page of it (routes/_http/paging.ts); `baseId`: one base's
  r.get('/', B((ctx) => {
    const baseId = baseOfQuery(ctx)
    const p = pageParams(ctx)
    if (!p) return kb().list(baseId)
    const { items, total } = kb().page(p.offset, p.limit, baseId)
    return paged(items, total, p)
  }))
  routeDoc(r, 'GET', '/', { summary: 'The knowledge documents, content cut (a page of them with limit/offset; one base\'s with baseId)', query: listQuery, data: z.array(listItem) })
  r.get('/search', B(async (ctx): Promise<Data<z.ZodArray<typeof hitData>>> => {
    const query = qs(ctx.query.query) ?? qs(ctx.query.q)
    if (!query?.trim()) throw badRequest('query is required')
    if (query.length > 1000) throw badRequest('query is longer than 1000 characters')
    const presetId = qs(ctx.query.presetId)
    const baseId = baseOfQuery(ctx)
    return kb().search(query, { ...(presetId ? { presetId } : {}), ...(baseId !== undefined ? { baseIds: [baseId] } : {}), limit: intParam(ctx.query.limit, 10, 1, 100) })
  }))
  routeDoc(r, 'GET', '/search', { summary: 'The passages best matching a query, best first (query or q is required; presetId, baseId narrow it)', query: searchQuery, errors: [400], data: z.array(hitData) })

  // files: multipart/form-data, field `file` (repeatable), optional fields `presetId`, `baseId`; each recorded
  // `processing` and read in the background (GET /:id tells when it is ready or why it failed)
  r.post('/files', B(async (ctx): Promise<ReturnType<typeof created<Data<z.ZodArray<typeof fileResult>>>>> => {
    const limit = rt.config.get().knowledge.maxFileBytes
    const { files, fields } = await uploadOf(ctx, limit)
    try {
      if (files.length === 0) throw badRequest('file is required (multipart field "file", repeatable)')
      const presetId = fields.presetId === undefined ? undefined : parseWith(z.object({ presetId: presetField }), { presetId: fields.presetId }).presetId
      const baseId = fields.baseId === undefined || fields.baseId === '' ? undefined : parseWith(z.object({ baseId: baseIdField }), { baseId: fields.baseId }).baseId
      if (baseId !== undefined) kb().bases.get(baseId) // 404 before anything of the upload is kept
      const names = files.map((f) => (f.originalFilename ?? '').trim())
      const bad = names.find((n) => !typeOfName(n))
      if (bad !== undefined) throw badRequest(`Unsupported file type: ${bad || '(a file without a name)'}. Supported: ${SUPPORTED_EXTENSIONS}`)
      const big = files.find((f) => f.size > limit)
      if (big) throw new AppError('PAYLOAD_TOO_LARGE', `A file is larger than ${limit} bytes (knowledge.maxFileBytes)`)
      const out: Array<{ id: string; title: string; status: 'processing' | 'ready' | 'failed'; error?: string }> = []
      for (const [i, f] of files.entries()) {
        const d = await kb().addFile({ name: names[i]!, bytes: await readFile(f.filepath), ...(presetId ? { presetId } : {}), ...(baseId !== undefined ? { baseId } : {}) })
        out.push({ id: d.id, title: d.title, status: d.status, ...(d.error ? { error: d.error } : {}) })
      }
      return created(out)
    } finally {
      await Promise.all(files.map((f) => rm(f.filepath, { force: true })))
    }
  }))
  routeDoc(r, 'POST', '/files', { summary: `Upload files (multipart/form-data: file, repeatable, at most ${MAX_FILES}; presetId; baseId): ${FILE_TYPES.map((t) => `.${t}`).join(' ')}; each is processed in the background`, status: 201, errors: [413, 415], data: z.array(fileResult) })

  r.post('/url', B(async (ctx): Promise<ReturnType<typeof created<Data<typeof fileResult>>>> => {
    requireFields(bodyOf(ctx), ['url'])
    const b = parseWith(urlFields, bodyOf(ctx))
    const d = await kb().addUrl({ url: b.url, ...(b.presetId ? { presetId: b.presetId } : {}), ...(b.baseId !== undefined ? { baseId: b.baseId } : {}) })
    return created({ id: d.id, title: d.title, status: d.status, ...(d.error ? { error: d.error } : {}) })
  }))
  routeDoc(r, 'POST', '/url', { body: urlFields, summary: 'Add a web page or file by its URL (fetched through the outbound fetcher, in the background)', status: 201, data: fileResult })

  r.get('/:id', B((ctx): Data<typeof docData> => kb().get(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/:id', { summary: 'A knowledge document with its status and number of passages', data: docData })
  r.get('/:id/passages', B((ctx): Data<z.ZodArray<typeof passageData>> => kb().passagesOf(ctx.params.id ?? '')))
  routeDoc(r, 'GET', '/:id/passages', { summary: 'A document\'s passages in order, with heading path and page ([] until it is ready)', data: z.array(passageData) })
  r.post('/', B(async (ctx) => {
    requireFields(bodyOf(ctx), ['title', 'content'])
    const b = parseWith(docFields, bodyOf(ctx))
    return created(await kb().create({ title: b.title ?? '', content: b.content ?? '', ...(b.presetId !== undefined ? { presetId: b.presetId } : {}), ...(b.baseId !== undefined ? { baseId: b.baseId } : {}) }))
  }))
  routeDoc(r, 'POST', '/', { body: docFields, summary: 'Add a knowledge document (pasted text, ready at once)', status: 201, data: docData })
  r.put('/:id', B(async (ctx): Promise<Data<typeof docData>> => {
    const body = bodyOf(ctx)
    const b = parseWith(docFields, body)
    if (Object.keys(b).length === 0) throw badRequest('Nothing to update: send title, content, presetId or baseId')
    return kb().update(ctx.params.id ?? '', b)
  }))
  routeDoc(r, 'PUT', '/:id', { body: docFields, summary: 'Update a knowledge document (its passages are cut again)', errors: [409], data: docData })
  r.delete('/:id', B(async (ctx) => {
    await kb().remove(ctx.params.id ?? '')
    return { success: true }
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a knowledge document (its passages are never retrieved again)', data: done })
  return r
}
