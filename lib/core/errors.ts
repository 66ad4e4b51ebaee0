// Named error codes and their HTTP statuses (docs/api.md, Errors). Domain code throws AppError; the web
// layer turns it into the envelope of the group that answered. Messages pass the redactor
// (lib/core/redact.ts): an upstream that echoed a stored secret into an error never shows it.
import { redact } from './redact.js'

export const CODE_STATUS = {
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  INVALID_CONFIG: 400,
  PARSE_ERROR: 400,
  INVALID_PRESET: 400,
  INVALID_ARGS: 400,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  SYSTEM_PRESET: 403,
  TOOL_DISABLED: 403,
  NOT_FOUND: 404,
  BASE_NOT_FOUND: 404,
  SECTION_NOT_FOUND: 404,
  SERVER_NOT_FOUND: 404,
  PRESET_NOT_FOUND: 404,
  TOOL_NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ALREADY_CONNECTED: 409,
  PRESET_EXISTS: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  EXECUTION_ERROR: 500,
  CONNECTION_FAILED: 502,
  MODEL_ERROR: 502,
  CHANNEL_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  TIMEOUT: 504
} as const

export type ErrorCode = keyof typeof CODE_STATUS

export interface FieldError { path: string; message: string }

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly errors?: FieldError[]
  /** Set when the message may be shown to clients (all AppErrors are; plain Errors are not). */
  readonly expose = true

  constructor (code: ErrorCode, message: string, opts: { status?: number; errors?: FieldError[]; cause?: unknown } = {}) {
    super(redact(message), opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'AppError'
    this.code = code
    this.status = opts.status ?? CODE_STATUS[code]
    if (opts.errors) this.errors = opts.errors.map((e) => ({ path: e.path, message: redact(e.message) }))
  }
}

export const badRequest = (message: string, errors?: FieldError[]): AppError =>
  new AppError('INVALID_ARGS', message, errors ? { errors } : {})

export const notFound = (message: string, code: ErrorCode = 'NOT_FOUND'): AppError => new AppError(code, message)

/** A readable one-line message of any thrown value (for logs, never for clients), secrets redacted. */
export function errorText (e: unknown): string {
  if (e instanceof Error) return redact(e.message)
  return redact(typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e)))
}
