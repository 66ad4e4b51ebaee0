// Input validation for routes: zod schemas turned into INVALID_ARGS errors with field paths.
import type { Context } from 'koa'
import type { z } from 'zod'
import { AppError, badRequest, type ErrorCode, type FieldError } from '../../lib/core/errors.js'

export function issuesToErrors (issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldError[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
}

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

/** Checks the required field first so its message is exactly `<field> is required` (spec 7.5). */
export function requireFields (body: unknown, fields: string[]): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object')
  const o = body as Record<string, unknown>
  for (const f of fields) {
    const v = o[f]
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) throw badRequest(`${f} is required`)
  }
}
