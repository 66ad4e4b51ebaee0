// HTTP client for both envelope styles (A: {success,data,message}; B: {code,data,message}) and SSE over fetch;
// errText() puts a failure into the page language.
import { lang, t, tv } from './i18n'

const isZh = (): boolean => lang.get() === 'zh'
// Where the dashboard is mounted: '' on its own port, '/lingxi' under TRSS, or any prefix a reverse
// proxy adds (https://example.com/bot/). The bundle lives in <base>/assets/, so its own URL says it.
export const BASE = new URL('../', import.meta.url).pathname.replace(/\/+$/, '')
const TOKEN_KEY = 'lingxi.token'
const EXP_KEY = 'lingxi.expiresAt'

export class ApiError extends Error {
  constructor (message: string, public status: number, public code?: string, public errors?: Array<{ path: string, message: string }>,
    /** A style A error's machine-readable facts (docs/api.md, Envelopes), e.g. `reason`. */
    public details?: Record<string, unknown>) { super(message) }
}

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  expiresAt: (): number => Number(localStorage.getItem(EXP_KEY) ?? 0),
  set (token: string, expiresAt: number): void { localStorage.setItem(TOKEN_KEY, token); localStorage.setItem(EXP_KEY, String(expiresAt)) },
  clear (): void { localStorage.removeItem(TOKEN_KEY); localStorage.removeItem(EXP_KEY) }
}

let onUnauthorized: () => void = () => {}
export function setUnauthorizedHandler (fn: () => void): void { onUnauthorized = fn }

export interface ReqOpts { method?: string, json?: unknown, body?: BodyInit, headers?: Record<string, string>, raw?: boolean, signal?: AbortSignal }

function headersFor (opts: ReqOpts): Headers {
  const h = new Headers(opts.headers)
  const t = session.token()
  if (t) h.set('Authorization', `Bearer ${t}`)
  if (opts.json !== undefined) h.set('Content-Type', 'application/json')
  return h
}

async function send (path: string, opts: ReqOpts): Promise<Response> {
  const res = await fetch(BASE + path, {
    method: opts.method ?? (opts.json !== undefined || opts.body !== undefined ? 'POST' : 'GET'),
    headers: headersFor(opts),
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body,
    credentials: 'same-origin',
    signal: opts.signal
  })
  if (res.status === 401 && !path.startsWith('/api/auth/login')) {
    session.clear()
    onUnauthorized()
  }
  return res
}

/** The fields of either envelope (style A `{success, data, message}`, style B `{code, data, message}`). */
interface Envelope { success?: boolean, code?: number | string, data?: unknown, message?: string, errors?: Array<{ path: string, message: string }>, details?: unknown }
const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null

/**
 * Unwraps either envelope; throws ApiError with the server's message on failure. `T` is the route's
 * `data` type (resources/src/contracts.ts); without one the answer is `unknown`.
 */
export async function api<T> (path: string, opts: ReqOpts = {}): Promise<T> {
  const res = await send(path, opts)
  const text = await res.text()
  let body: unknown = text
  try { body = JSON.parse(text) } catch { /* text answer (YAML export) */ }
  const env = isEnvelope(body) ? body : undefined
  const failed = !res.ok || (env !== undefined && (env.success === false || (typeof env.code === 'number' && env.code !== 0)))
  if (failed) {
    const msg = env?.message || (typeof body === 'string' && body) || `HTTP ${res.status}`
    const details = typeof env?.details === 'object' && env.details !== null ? env.details as Record<string, unknown> : undefined
    throw new ApiError(String(msg), res.status, typeof env?.code === 'string' ? env.code : undefined, env?.errors, details)
  }
  if (opts.raw || env === undefined) return body as T
  return ('data' in env ? env.data : env) as T
}

export interface SseFrame { event: string, data: any }

/** POST (or GET) an SSE endpoint with fetch streaming; calls onFrame per frame until the stream ends. */
export async function sse (path: string, opts: ReqOpts, onFrame: (f: SseFrame) => void): Promise<void> {
  const res = await send(path, { ...opts, headers: { Accept: 'text/event-stream', ...opts.headers } })
  const type = res.headers.get('content-type') ?? ''
  if (!type.includes('text/event-stream')) {
    const text = await res.text()
    let msg = text
    try { msg = JSON.parse(text).message ?? text } catch { /* plain */ }
    throw new ApiError(msg || `HTTP ${res.status}`, res.status)
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buf = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buf += value
    let i: number
    while ((i = buf.search(/\r?\n\r?\n/)) >= 0) {
      const chunk = buf.slice(0, i)
      buf = buf.slice(i).replace(/^\r?\n\r?\n/, '')
      let event = 'message'
      const data: string[] = []
      for (const line of chunk.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim()
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
      }
      if (!data.length) continue
      const text = data.join('\n')
      let parsed: any = text
      try { parsed = JSON.parse(text) } catch { /* text */ }
      onFrame({ event, data: parsed })
    }
  }
}

// Server errors in the page language. The server speaks English: a style A body names its code, a style B
// body only has the HTTP status (docs/api.md section 4), so the code comes from the status there. Known
// messages get their own sentence; otherwise the code's sentence is shown (in English the server's own,
// more specific message). Where the detail is an upstream's text (a model, a script, a YAML parser), it follows.
const STATUS_CODE: Record<number, string> = {
  400: 'INVALID_ARGS', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 429: 'RATE_LIMITED', 500: 'INTERNAL_ERROR', 502: 'MODEL_ERROR',
  503: 'SERVICE_UNAVAILABLE', 504: 'TIMEOUT'
}
/**
 * codes whose message carries words worth showing in either language after the code's sentence: an
 * upstream's (a model, a script, a YAML parser), or a validation rule's that names the value
 */
const DETAIL_CODES = new Set(['CHANNEL_UNAVAILABLE', 'EXECUTION_ERROR', 'MODEL_ERROR', 'CONNECTION_FAILED', 'PARSE_ERROR', 'INVALID_ARGS', 'BAD_REQUEST', 'INVALID_CONFIG', 'INVALID_PRESET', 'CONFLICT'])
/** exact server messages with a sentence of their own */
const KNOWN: Array<[RegExp, string]> = [
  [/^Not authenticated$/, 'er.UNAUTHORIZED'], [/^Token is invalid$/, 'er.INVALID_TOKEN'], [/^Token has expired$/, 'er.TOKEN_EXPIRED'],
  [/^Preset not found$/, 'er.PRESET_NOT_FOUND'], [/^Conversation not found$/, 'er.CONVERSATION_NOT_FOUND'], [/^Server not found$/, 'er.SERVER_NOT_FOUND'],
  [/^Channel does not exist$/, 'er.channelMissing'], [/^No testable models$/, 'er.noTestableModels'], [/^Memory not found$/, 'er.memoryMissing'],
  [/^(No model channel is available|No available channels)( for \w+)?$/, 'er.noChannel'], [/^Cannot (update|delete) builtin server$/, 'er.builtinServer'],
  [/^Too many failed attempts/, 'er.loginLimited'], [/^Request body is too large$/, 'er.PAYLOAD_TOO_LARGE'], [/^Malformed JSON body/, 'er.badJson'],
  [/^The model did not answer in time$/, 'er.TIMEOUT'], [/^Internal server error$/, 'er.INTERNAL_ERROR'], [/^Failed to fetch$|^NetworkError|^Load failed$/, 'er.network']
]

/**
 * The channel gateway's failures of one named channel (lib/channels): the sentence names the channel and
 * says what happened to it. Only "no channel" asks for a new one: a channel that is listed but down, off
 * or over its budget is not missing.
 */
const CHANNEL: Array<[RegExp, string]> = [
  [/^Channel (.+?) does not exist$/, 'er.channelNamedMissing'], [/^Channel (.+?) is disabled$/, 'er.channelDisabled'],
  [/^Channel (.+?) has spent its monthly budget$/, 'er.channelBudget'], [/^Channel (.+?) has no model configured$/, 'er.channelNoModel'],
  [/^Every channel has spent its monthly budget$/, 'er.allBudgets'],
  // the gateway's connection failure: `Channel <name>: Channel unreachable: <cause>`
  [/^Channel (.+?): (?:Channel unreachable: )?(.+)$/, 'er.channelDown']
]

/** The sentence for a failure; `detail` false leaves out the upstream text (used where the fields are listed). */
function sentence (e: ApiError): string {
  for (const [re, key] of KNOWN) if (re.test(e.message)) return t(key)
  if (e.code === 'CHANNEL_UNAVAILABLE') {
    for (const [re, key] of CHANNEL) {
      const m = e.message.match(re)
      if (m) return tv(key, { name: m[1]!, reason: m[2] ?? '' })
    }
  }
  // style B validation: "path: message" (several joined by "; ")
  const parts = e.status === 400 ? e.message.split('; ').map(x => x.match(/^([\w.[\]-]+): (.+)$/)) : []
  if (parts.length && parts.every(Boolean)) return `${t('er.fields')}${parts.map(m => `${pathLabel(m![1]!)}${t('bs.colon')}${fieldMessage(m![2]!)}`).join(t('er.sep'))}`
  const req = e.message.match(/^([\w.[\]-]+) is required$/)
  if (req) return `${pathLabel(req[1]!)}${t('bs.colon')}${t('er.f.required')}`
  const code = e.code ?? STATUS_CODE[e.status] ?? (e.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_ARGS')
  const key = `er.${code}`
  const known = t(key) !== key
  if (!known) return isZh() ? tv('er.unknown', { status: e.status }) : e.message
  if (DETAIL_CODES.has(code) && e.message) return `${t(key)}${t('bs.colon')}${e.message}`
  // English: the server's message is the more specific sentence; Chinese: the code's
  return isZh() ? t(key) : e.message
}

/** A validation message of one field (zod's wording, or `<field> is required`) in the page language. */
export function fieldMessage (message: string): string {
  const m = message.trim()
  let r: RegExpMatchArray | null
  if (/^Required$|is required$|received undefined$/i.test(m)) return t('er.f.required')
  if ((r = m.match(/^Invalid input: expected (\w+), received (\w+)/))) return tv('er.f.type', { type: t(`er.t.${r[1]}`) === `er.t.${r[1]}` ? r[1]! : t(`er.t.${r[1]}`) })
  if ((r = m.match(/^Too small: expected \w+ to (?:have|be) (>=?)\s*(\S+?)(?: characters| items)?$/))) return tv(r[1] === '>' ? 'er.f.gt' : 'er.f.min', { n: r[2]! })
  if ((r = m.match(/^Too big: expected \w+ to (?:have|be) (<=?)\s*(\S+?)(?: characters| items)?$/))) return tv(r[1] === '<' ? 'er.f.lt' : 'er.f.max', { n: r[2]! })
  if ((r = m.match(/^Invalid option: expected one of (.+)$/))) return tv('er.f.oneOf', { list: r[1]!.replace(/"/g, '') })
  if (/^Invalid (url|URL)|^must be a valid http\(s\) URL$/.test(m)) return t('er.f.url')
  // the configuration schema's own rules (lib/config/schema.ts)
  if (/^(not a timezone Intl knows|unknown timezone)/.test(m)) return t('er.f.timezone')
  if (m === 'HH:MM') return t('er.f.hhmm')
  if (/^a masked key that matches no stored key/.test(m)) return t('er.f.maskedKey')
  if (/^a SearXNG provider needs/.test(m)) return t('er.f.searxngUrl')
  if ((r = m.match(/^duplicate (?:provider|channel) name (.+)$/))) return tv('er.f.dupName', { name: r[1]! })
  if ((r = m.match(/^duplicate price for (.+)$/))) return tv('er.f.dupPrice', { name: r[1]! })
  if (/^must not start with \*, %, \/ or a space$/.test(m)) return t('er.f.badStart')
  // a rule's own words (e.g. "a SearXNG provider needs baseUrl"): kept, after a translated frame
  return isZh() && /[A-Za-z]{3}/.test(m) ? `${t('er.f.invalid')}（${m}）` : m
}

/** Names a configuration path by its schema title; form-engine.tsx sets it once it has GET /api/config/schema. */
let schemaLabel: (path: string) => string | undefined = () => undefined
export function labelPathsWith (f: (path: string) => string | undefined): void { schemaLabel = f }

/** A field's path by its label: the configuration schema's title, else the dictionary's `f_<key>`, else the path. */
function pathLabel (path: string): string {
  const own = schemaLabel(path)
  if (own) return own
  const key = `f_${path.split('.').pop()}`
  const l = t(key)
  return l !== key ? l : path
}

/** What failed, in the page language: one line, the fields listed once. */
export function errText (e: unknown): string {
  if (e instanceof ApiError) {
    if (e.errors?.length) return `${t('er.fields')}${e.errors.map(x => `${x.path ? `${pathLabel(x.path)}${t('bs.colon')}` : ''}${fieldMessage(x.message)}`).join(t('er.sep'))}`
    return sentence(e)
  }
  if (e instanceof TypeError && /fetch|network/i.test(e.message)) return t('er.network')
  return e instanceof Error ? e.message : String(e)
}
