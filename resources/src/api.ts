// HTTP client for both envelope styles (A: {success,data,message}; B: {code,data,message}) and SSE over fetch.
// Where the dashboard is mounted: '' on its own port, '/lingxi' under TRSS, or any prefix a reverse
// proxy adds (https://example.com/bot/). The bundle lives in <base>/assets/, so its own URL says it.
export const BASE = new URL('../', import.meta.url).pathname.replace(/\/+$/, '')
const TOKEN_KEY = 'lingxi.token'
const EXP_KEY = 'lingxi.expiresAt'

export class ApiError extends Error {
  constructor (message: string, public status: number, public code?: string, public errors?: Array<{ path: string, message: string }>) { super(message) }
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
interface Envelope { success?: boolean, code?: number | string, data?: unknown, message?: string, errors?: Array<{ path: string, message: string }> }
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
    throw new ApiError(String(msg), res.status, typeof env?.code === 'string' ? env.code : undefined, env?.errors)
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

export function errText (e: unknown): string {
  if (e instanceof ApiError && e.errors?.length) return `${e.message}: ${e.errors.map(x => `${x.path} ${x.message}`).join('; ')}`
  return e instanceof Error ? e.message : String(e)
}
