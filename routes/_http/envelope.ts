// The two response envelopes of spec 1.2 and the handler wrappers that apply them.
// Style A: { success, data?, message? } / { success:false, code, message, errors? }
// Style B: { code: 0, data, message: 'ok' } / { code: -1, data: null, message }
import type { Context, Middleware } from 'koa'
import { AppError, CODE_STATUS, type ErrorCode, type FieldError } from '../../lib/core/errors.js'

export type Style = 'A' | 'B'

/** A handler result that carries a message or status besides the data. */
export class Reply<T = unknown> {
  constructor (readonly data: T, readonly opts: { message?: string; status?: number; extra?: Record<string, unknown> } = {}) {}
}
export const reply = <T>(data: T, opts: { message?: string; status?: number; extra?: Record<string, unknown> } = {}): Reply<T> => new Reply(data, opts)
export const created = <T>(data: T, message?: string): Reply<T> => new Reply(data, message ? { status: 201, message } : { status: 201 })

type Handler = (ctx: Context) => Promise<unknown> | unknown

function wrap (style: Style, fn: Handler): Middleware {
  return async (ctx) => {
    ctx.state.style = style
    const result = await fn(ctx)
    // A handler that streamed (SSE) or set a raw body (YAML, file) answers itself.
    if (ctx.respond === false || ctx.body !== undefined) return
    const r = result instanceof Reply ? result : new Reply(result)
    if (r.opts.status) ctx.status = r.opts.status
    ctx.body = style === 'A' ? bodyA(r) : bodyB(r)
  }
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

export function errorBody (style: Style, code: ErrorCode, message: string, errors?: FieldError[]): Record<string, unknown> {
  if (style === 'B') return { code: -1, data: null, message }
  return errors?.length ? { success: false, code, message, errors } : { success: false, code, message }
}

/** Style B paths (DECISIONS part 2); everything else under /api answers in style A. */
const STYLE_B_PREFIXES = [
  '/api/preset/', '/api/presets/config', '/api/presets/builtin', '/api/presets/categories',
  '/api/tools', '/api/skills', '/api/mcp', '/api/memory/', '/api/conversations', '/api/context',
  '/api/knowledge', '/api/image', '/api/game', '/api/test-panel'
]
const STYLE_A_EXCEPTIONS = [/^\/api\/memories(\/|$)/, /^\/api\/chat(\/|$)/, /^\/api\/conversations\/?$/, /^\/api\/conversations\/[^/]+\/clear$/, /^\/api\/skills\/toggle-(category|tool)$/,
  /^\/api\/mcp\/servers\/[^/]+\/(connect|disconnect)$/, /^\/api\/tools\/?$/, /^\/api\/tools\/call$/,
  /^\/api\/tools\/category\/[^/]+\/toggle$/, /^\/api\/tools\/(?!dangerous\/|watcher\/|builtin\/|toggle\/)[^/]+\/toggle$/, /^\/api\/skills\/mcp\/servers\/[^/]+\/(connect|disconnect|reload)$/]

/** The style of a path when no handler chose one (unknown routes, body and auth errors). */
export function styleForPath (path: string): Style {
  if (STYLE_A_EXCEPTIONS.some((r) => r.test(path))) return 'A'
  if (path === '/api/memory') return 'B'
  return STYLE_B_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p.endsWith('/') ? p : `${p}/`) || path === p) ? 'B' : 'A'
}

export function statusOf (code: ErrorCode): number { return CODE_STATUS[code] }
export { AppError }
