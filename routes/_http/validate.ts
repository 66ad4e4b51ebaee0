// Input validation for routes: zod schemas turned into INVALID_ARGS errors with field paths.
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError, badRequest, type ErrorCode, type FieldError } from '../../lib/core/errors.js'
import { importOptional } from '../../lib/core/packages.js'

export function issuesToErrors (issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldError[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
}

/** A group, user or chat id in a filter or path of the management routes (docs/api.md: 1-64 letters, digits, `_`, `-`). */
const FILTER_ID = /^[\w-]{1,64}$/
/** `name` as such an id: 400 naming it otherwise (`message` where the route says more, e.g. what else it takes). */
export const filterId = (name: string, message = `${name} must be 1-64 letters, digits, _ or -`): z.ZodString => z.string().regex(FILTER_ID, message)

/** Parses `value` with `schema` or throws `code` (default INVALID_ARGS) naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, code: ErrorCode = 'INVALID_ARGS'): z.output<S> {
  const r = schema.safeParse(value)
  if (r.success) return r.data
  const errors = issuesToErrors(r.error.issues)
  const first = errors[0]
  throw new AppError(code, first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid input', { errors })
}

/** The JSON body (an object) of a request, or {} when there was none. */
export function bodyOf (ctx: Context): unknown {
  const body: unknown = ctx.request.body
  return body === undefined ? {} : body
}

export const parseBody = <S extends z.ZodType>(ctx: Context, schema: S, code?: ErrorCode): z.output<S> => parseWith(schema, bodyOf(ctx), code)
export const parseQuery = <S extends z.ZodType>(ctx: Context, schema: S, code?: ErrorCode): z.output<S> => parseWith(schema, ctx.query, code)

/** Integer query parameter with default, clamped; invalid input becomes the default. */
export function intParam (raw: unknown, def: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const s = Array.isArray(raw) ? raw[0] : raw
  const n = typeof s === 'string' && /^-?\d+$/.test(s.trim()) ? Number(s) : typeof s === 'number' ? s : NaN
  if (!Number.isFinite(n)) return def
  return Math.min(max, Math.max(min, Math.trunc(n)))
}

/** Checks the required field first so its message is exactly `<field> is required` (docs/api.md, Errors). */
export function requireFields (body: unknown, fields: string[]): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object')
  const o = body as Record<string, unknown>
  for (const f of fields) {
    const v = o[f]
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) throw badRequest(`${f} is required`)
  }
}

// ---- request bodies -----------------------------------------------------------------------------------
// The one body parser of the API (see README, "Security model"): JSON everywhere; YAML/plain text only
// where a route reads text; multipart only where a route takes an upload. Form-encoded bodies are
// never parsed (a cross-site HTML form can send them). A JSON body must be an object or an array and
// at most MAX_BODY_DEPTH deep, so no handler meets `null`, a bare number or a 20,000-deep nesting.

/** Paths whose POST accepts multipart/form-data uploads (koa-body `ctx.request.files`). */
const MULTIPART_PATHS = new Set(['/api/presets/import'])
/** Paths whose route reads its own multipart upload, with limits of its own (routes/knowledge.ts: knowledge.maxFileBytes; routes/backup.ts: backup.maxUploadMB). */
const OWN_MULTIPART_PATHS = new Set(['/api/knowledge/files', '/api/backup/preview', '/api/backup/restore'])
/** Paths whose POST reads a YAML (or plain) text body: the config and preset imports. */
const TEXT_PATHS = new Set(['/api/config/import', '/api/presets/import'])
const TEXT_TYPES = ['text/yaml', 'text/x-yaml', 'application/yaml', 'application/x-yaml', 'text/plain']
const JSON_TYPES = ['application/json', '+json']
export const MAX_BODY_DEPTH = 64
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Nesting depth of a parsed JSON value, walked without recursion; stops counting past `limit`. */
export function jsonDepth (value: unknown, limit = MAX_BODY_DEPTH): number {
  let max = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length) {
    const [v, d] = stack.pop() as [unknown, number]
    if (typeof v !== 'object' || v === null) continue
    if (d > max) max = d
    if (max > limit) return max
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d + 1])
  }
  return max
}

function parseJsonText (text: string): unknown {
  if (!text.trim()) return undefined
  try { return JSON.parse(text) } catch (err) { throw new AppError('INVALID_ARGS', `Malformed JSON body: ${(err as Error).message.slice(0, 200)}`) }
}

/** True when the request carries body bytes (a Content-Length above 0 or a chunked body). */
function hasBodyBytes (ctx: Context): boolean {
  if (ctx.get('Transfer-Encoding')) return true
  const len = Number(ctx.get('Content-Length') || 0)
  return Number.isFinite(len) && len > 0
}

type Mw = (ctx: Context, next: () => Promise<void>) => Promise<void>

/** The one route that takes a bare JSON value: PUT /api/config/<section> for the scalar sections (debug, language...). */
const takesScalar = (ctx: Context): boolean => ctx.method === 'PUT' && /^\/api\/config\/[^/]+\/?$/.test(ctx.path)

/** The code a group names a body of the wrong shape with (variant A presets and the config say so themselves). */
function bodyErrorCode (path: string): ErrorCode {
  if (/^\/api\/presets(\/|$)/.test(path)) return 'INVALID_PRESET'
  if (/^\/api\/config(\/(?!channels(\/|$))[^/]+)?\/?$/.test(path)) return 'INVALID_CONFIG'
  return 'INVALID_ARGS'
}

/**
 * The body parser for /api and /mcp. `limitKb` is read per request so a config change applies at
 * once; the koa-body instances are rebuilt only when it changes.
 */
export function bodyParser (limitKb: () => number, preParsed?: (ctx: Context) => { body: unknown } | undefined): Mw {
  let built: { kb: number; json: Mw; text: Mw; multipart: Mw } | undefined
  const parsers = async (): Promise<NonNullable<typeof built>> => {
    const kb = limitKb()
    if (built?.kb === kb) return built
    // Loaded on the first request with a body: it is the heaviest import of the server (start time).
    // an optional package (lib/core/packages.ts): without it no request with a body can be read; the
    // log names the command (the client gets no local path)
    const { koaBody } = await importOptional('koa-body', () => import('koa-body')).catch(() => {
      throw new AppError('SERVICE_UNAVAILABLE', 'Requests with a body cannot be read: the package koa-body is not installed (the bot\'s log says how to install it)')
    })
    const l = `${kb}kb`
    const only = { json: false, text: false, urlencoded: false, multipart: false }
    built = {
      kb,
      json: koaBody({ ...only, json: true, jsonLimit: l, jsonStrict: false, jsonTypes: JSON_TYPES }),
      text: koaBody({ ...only, text: true, textLimit: l, textTypes: TEXT_TYPES }),
      multipart: koaBody({ ...only, multipart: true, formLimit: l, formidable: { maxFileSize: kb * 1024, maxFiles: 1 } })
    }
    return built
  }
  // not async: most requests (GET, no body) pass straight on without a promise of their own
  return function body (ctx, next) {
    if (!BODY_METHODS.has(ctx.method) || !hasBodyBytes(ctx)) return next()
    const path = ctx.path
    // /mcp reads its own body after the key check, answering JSON-RPC errors (routes/_http/mcp-transport.ts)
    if (!path.startsWith('/api/')) return next()
    if (OWN_MULTIPART_PATHS.has(path) && ctx.is('multipart/form-data')) return next()
    return parse(ctx, next)
  }
  async function parse (ctx: Parameters<Mw>[0], next: Parameters<Mw>[1]): Promise<void> {
    // A host that mounts the app (TRSS shared port) may have read the body already: take its result.
    const pre = preParsed?.(ctx)
    const p = pre ? undefined : await parsers()
    const take = (body: unknown): void => { (ctx.request as { body?: unknown }).body = body }
    if (MULTIPART_PATHS.has(ctx.path) && ctx.is('multipart/form-data')) {
      if (pre) { take(pre.body); return next() }
      return (p as NonNullable<typeof p>).multipart(ctx, next)
    }
    if (TEXT_PATHS.has(ctx.path) && ctx.is(TEXT_TYPES)) {
      if (pre) { take(Buffer.isBuffer(pre.body) ? pre.body.toString('utf8') : pre.body); return next() }
      return (p as NonNullable<typeof p>).text(ctx, next)
    }
    if (!ctx.is(JSON_TYPES)) {
      const sent = ctx.get('Content-Type') || 'none'
      const also = TEXT_PATHS.has(ctx.path) ? ' or a YAML text (Content-Type: text/yaml)' : ''
      const upload = MULTIPART_PATHS.has(ctx.path) ? ' or a multipart/form-data upload' : ''
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `This endpoint takes a JSON body (Content-Type: application/json)${also}${upload}; got Content-Type ${sent.slice(0, 80)}`)
    }
    if (pre) take(Buffer.isBuffer(pre.body) ? parseJsonText(pre.body.toString('utf8')) : pre.body)
    else await (p as NonNullable<typeof p>).json(ctx, async () => {})
    const parsed: unknown = ctx.request.body
    if (parsed === '' || parsed === undefined) {
      take(undefined)
    } else if (parsed === null || (typeof parsed !== 'object' && !takesScalar(ctx))) {
      throw new AppError(bodyErrorCode(ctx.path), `Request body must be a JSON object (or array), not ${parsed === null ? 'null' : typeof parsed}`)
    } else if (jsonDepth(parsed) > MAX_BODY_DEPTH) {
      throw new AppError(bodyErrorCode(ctx.path), `Request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels)`)
    }
    return next()
  }
}
