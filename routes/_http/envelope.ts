// The two response envelopes (docs/api.md, Envelopes), the handler wrappers that apply them, and the routers that
// declare them. Style A: { success, data?, message? } / { success:false, code, message, errors? }
// Style B: { code: 0, data, message: 'ok' } / { code: -1, data: null, message }
// A request's style is declared, never guessed from its path: each router is created with its group's
// style (styledRouter), a handler wrapped in A() or B() answers in that style (a router of one style
// may hold a route of the other), and errors raised before or without a handler (401, 405, a bad body)
// take the style of the route the request was for (styleOf). Only a path no router knows falls back
// to the style of its group's name (UNMATCHED_STYLE_B).
import Router, { type RouterOptions } from '@koa/router'
import type Koa from 'koa'
import type { Context, Middleware } from 'koa'
import type { ErrorCode, FieldError } from '../../lib/core/errors.js'

export type Style = 'A' | 'B'

/** A handler result that carries a message or status besides the data. */
export class Reply<T = unknown> {
  constructor (readonly data: T, readonly opts: { message?: string; status?: number; extra?: Record<string, unknown> } = {}) {}
}
export const reply = <T>(data: T, opts: { message?: string; status?: number; extra?: Record<string, unknown> } = {}): Reply<T> => new Reply(data, opts)
export const created = <T>(data: T, message?: string): Reply<T> => new Reply(data, message ? { status: 201, message } : { status: 201 })

/** Data a handler serialized itself (a figure cached per second): put into the envelope as it is. */
export class JsonText {
  constructor (readonly text: string) {}
}

type Handler = (ctx: Context) => Promise<unknown> | unknown

/** The style each router and each wrapped handler declared (read by styleOf). */
const declared = new WeakMap<object, Style>()

/** A router whose routes answer in `style`, the style of its group's API variant. */
export function styledRouter (style: Style, opts?: RouterOptions): Router {
  const r = new Router(opts)
  declared.set(r, style)
  return r
}

const JSON_TYPE = 'application/json; charset=utf-8'

function wrap (style: Style, fn: Handler): Middleware {
  const mw: Middleware = async (ctx) => {
    ctx.state.style = style
    const result = await fn(ctx)
    // A handler that streamed (SSE) or set a raw body (YAML, file) answers itself.
    if (ctx.respond === false || ctx.body !== undefined) return
    if (result instanceof JsonText) {
      ctx.set('Content-Type', JSON_TYPE)
      ctx.body = style === 'A' ? `{"success":true,"data":${result.text}}` : `{"code":0,"data":${result.text},"message":"ok"}`
      return
    }
    const r = result instanceof Reply ? result : new Reply(result)
    if (r.opts.status) ctx.status = r.opts.status
    // Serialized here with the type already set: Koa would otherwise look the type up per response
    // (mime-types, charset) and stringify after the error middleware, where a failure is not enveloped.
    ctx.set('Content-Type', JSON_TYPE)
    ctx.body = JSON.stringify(style === 'A' ? bodyA(r) : bodyB(r))
  }
  declared.set(mw, style)
  return mw
}

function bodyA (r: Reply): Record<string, unknown> {
  const body: Record<string, unknown> = { success: true }
  if (r.data !== undefined) body.data = r.data
  if (r.opts.message) body.message = r.opts.message
  return { ...body, ...r.opts.extra }
}

function bodyB (r: Reply): Record<string, unknown> {
  return { code: 0, data: r.data === undefined ? null : r.data, message: r.opts.message ?? 'ok', ...r.opts.extra }
}

/** Wraps a handler answering in style A. */
export const A = (fn: Handler): Middleware => wrap('A', fn)
/** Wraps a handler answering in style B. */
export const B = (fn: Handler): Middleware => wrap('B', fn)

/**
 * A failure's body. Style A also carries `errors` (a validation failure's fields) and `details` (machine-readable
 * facts of the failure, e.g. an update check's refusal `reason`: docs/api.md, Errors); style B has no room for them.
 */
export function errorBody (style: Style, code: ErrorCode, message: string, errors?: FieldError[], details?: Record<string, unknown>): Record<string, unknown> {
  if (style === 'B') return { code: -1, data: null, message }
  return { success: false, code, message, ...(errors?.length ? { errors } : {}), ...(details ? { details } : {}) }
}

/**
 * The fallback for paths no router knows (an unknown /api path, or one refused before routing):
 * /api/<group>/... answers in style B for these groups, in style A otherwise.
 */
const UNMATCHED_STYLE_B = new Set(['preset', 'tools', 'skills', 'mcp', 'memory', 'conversations', 'context', 'knowledge', 'image', 'game', 'test-panel'])

function unmatchedStyle (path: string): Style {
  const group = /^\/api\/([^/]+)/.exec(path)?.[1] ?? ''
  return UNMATCHED_STYLE_B.has(group) ? 'B' : 'A'
}

/** The routers mounted on an app, in order (`router.routes()` marks its middleware with `.router`). */
export function mountedRouters (app: Koa): Router[] {
  const out: Router[] = []
  for (const mw of app.middleware) {
    const r = (mw as { router?: unknown }).router
    if (r instanceof Router) out.push(r)
    // the one dispatcher of mount-routers.ts holds the group routers in order
    const group = (mw as { routers?: unknown }).routers
    if (Array.isArray(group)) for (const g of group) if (g instanceof Router) out.push(g)
  }
  return out
}

/** The declared style of the first route (in mount order) on this path, of this method or, for a 405, any. */
function routeStyle (routers: Router[], path: string, method: string | undefined): Style | undefined {
  for (const r of routers) {
    for (const layer of r.stack) {
      if (layer.methods.length === 0 || (method !== undefined && !layer.methods.includes(method)) || !layer.match(path)) continue
      const handler = layer.stack.at(-1)
      return (handler ? declared.get(handler) : undefined) ?? declared.get(r) ?? unmatchedStyle(path)
    }
  }
  return undefined
}

/** The declared style of one route: its handler's (A() or B()), else its router's (undefined: neither declared). */
export function declaredStyle (r: Router, layer: Router['stack'][number]): Style | undefined {
  const handler = layer.stack.at(-1)
  return (handler ? declared.get(handler) : undefined) ?? declared.get(r)
}

/**
 * The style of a request's answer: the handler's when one ran, else the declared style of the route the
 * request was for (the route of its method, or any route on its path for a 405), else the fallback.
 */
export function styleOf (ctx: Context): Style {
  const chosen = ctx.state.style as Style | undefined
  if (chosen) return chosen
  const routers = mountedRouters(ctx.app)
  return routeStyle(routers, ctx.path, ctx.method) ?? routeStyle(routers, ctx.path, undefined) ?? unmatchedStyle(ctx.path)
}

