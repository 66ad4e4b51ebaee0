// The one error middleware: every failure becomes an error envelope with the right status, in the
// style its route declared (styleOf in envelope.ts; the 404 of an unknown path and the 405s come here
// too). Clients never see stack traces or internal paths; the log gets them.
import type { Context, Next } from 'koa'
import { AppError, type ErrorCode } from '../../lib/core/errors.js'
import type { PluginLogger } from '../../lib/core/logger.js'
import { errorBody, styleOf } from './envelope.js'

/**
 * A domain failure answered with machine-readable `details` beside its code and message (style A, docs/api.md
 * Errors): what a client decides on, so it never matches the English message. Same code, status and message as
 * the failure it wraps.
 */
export class DetailedError extends AppError {
  constructor (from: AppError, readonly details: Record<string, unknown>) {
    super(from.code, from.message, { status: from.status, ...(from.errors ? { errors: from.errors } : {}), cause: from })
    this.name = 'DetailedError'
  }
}

interface HttpishError { status?: number; statusCode?: number; httpCode?: number; expose?: boolean; message?: string; type?: string; originalError?: { name?: string; message?: string } }

const STATUS_CODE: Record<number, ErrorCode> = {
  400: 'INVALID_ARGS', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 429: 'RATE_LIMITED', 503: 'SERVICE_UNAVAILABLE', 504: 'TIMEOUT'
}

/** Maps anything thrown to a named code, status and a message safe for clients. */
function classify (err: unknown, path: string): { code: ErrorCode; status: number; message: string; errors?: AppError['errors']; details?: Record<string, unknown> } {
  if (err instanceof AppError) return { code: err.code, status: err.status, message: err.message, ...(err.errors ? { errors: err.errors } : {}), ...(err instanceof DetailedError ? { details: err.details } : {}) }
  const e = (err ?? {}) as HttpishError
  const status = e.status ?? e.statusCode ?? e.httpCode ?? 500
  if (status === 401) {
    // koa-jwt: no originalError means no token at all.
    const orig = e.originalError
    if (!orig) return { code: 'UNAUTHORIZED', status, message: 'Not authenticated' }
    if (orig.name === 'TokenExpiredError') return { code: 'TOKEN_EXPIRED', status, message: 'Token has expired' }
    return { code: 'INVALID_TOKEN', status, message: 'Token is invalid' }
  }
  if (status === 413 || e.type === 'entity.too.large') return { code: 'PAYLOAD_TOO_LARGE', status: 413, message: 'Request body is too large' }
  // the JSON parser (co-body, bourne) refuses a "__proto__" key anywhere in a body
  if (status === 400 && /forbidden prototype property/.test(e.message ?? '')) {
    return { code: 'INVALID_ARGS', status: 400, message: 'Request body must not contain a "__proto__" key (a reserved name)' }
  }
  if (status === 400 && (e.type === 'entity.parse.failed' || /JSON|Unexpected token|Expected/i.test(e.message ?? ''))) {
    return { code: 'INVALID_ARGS', status: 400, message: `Malformed JSON body: ${(e.message ?? '').replace(/\s+at .*$/s, '').slice(0, 200)}` }
  }
  if (status >= 400 && status < 500) {
    const code = STATUS_CODE[status] ?? 'INVALID_ARGS'
    return { code, status, message: e.expose && e.message ? e.message : defaultMessage(code) }
  }
  if (status === 503 || status === 504) {
    const code = STATUS_CODE[status] as ErrorCode
    return { code, status, message: e.expose && e.message ? e.message : defaultMessage(code) }
  }
  void path
  return { code: 'INTERNAL_ERROR', status: 500, message: 'Internal server error' }
}

function defaultMessage (code: ErrorCode): string {
  return code.toLowerCase().replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())
}

export function errorMiddleware (log: PluginLogger) {
  return async function errors (ctx: Context, next: Next): Promise<void> {
    try {
      await next()
    } catch (err) {
      const info = classify(err, ctx.path)
      if (info.status >= 500) log.error(`${ctx.method} ${ctx.path} failed`, { status: info.status }, err)
      if (ctx.respond === false || ctx.headerSent) return
      const style = styleOf(ctx)
      ctx.status = info.status
      ctx.set('Cache-Control', 'no-store')
      if (info.code === 'RATE_LIMITED' && err instanceof AppError && typeof (err as AppError & { retryAfter?: number }).retryAfter === 'number') {
        ctx.set('Retry-After', String((err as AppError & { retryAfter?: number }).retryAfter))
      }
      ctx.body = errorBody(style, info.code, info.message, info.errors, info.details)
    }
  }
}
