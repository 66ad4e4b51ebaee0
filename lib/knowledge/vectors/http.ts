// One JSON POST to an embeddings or rerank endpoint through the one outbound fetcher, retried on 429
// (honouring Retry-After, at most MAX_WAIT_MS) and on 5xx and refused connections, with backoff on
// the injected clock. The key is sent as a Bearer token and taken out of any error text.
import { AppError } from '../../core/errors.js'
import type { Clock } from '../../core/clock.js'
import { outboundFetch, type OutboundAccess } from '../../web/outbound.js'

const ATTEMPTS = 3
const MAX_WAIT_MS = 60_000
const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** `wait`: how a retry waits (default: a timer of `clock`; tests record the waits asked). */
export interface PostDeps { access: () => OutboundAccess; clock: Clock; wait?: (ms: number) => Promise<void> }
/** An endpoint's refusal: its status and body text (key removed). */
export class EndpointError extends AppError {
  constructor (readonly httpStatus: number, readonly text: string, message: string) { super(httpStatus === 429 ? 'RATE_LIMITED' : httpStatus >= 500 ? 'CONNECTION_FAILED' : 'BAD_REQUEST', message) }
}

const hidden = (text: string, key: string): string => key ? text.split(key).join('***') : text
const wait = (deps: PostDeps, ms: number): Promise<void> => deps.wait ? deps.wait(ms) : new Promise((resolve) => deps.clock.setTimeout(resolve, ms))

/** Seconds or an HTTP date, in ms from now. */
export function retryAfterMs (value: string | undefined, now: number): number | undefined {
  if (!value) return undefined
  const s = Number(value)
  if (Number.isFinite(s)) return Math.max(0, s * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** POSTs `body` as JSON to `url`; the parsed answer, or an EndpointError / AppError (connection, timeout). */
export async function postJson (url: string, key: string, body: unknown, deps: PostDeps, opts: { timeoutMs: number; what: string; attempts?: number }): Promise<unknown> {
  const attempts = opts.attempts ?? ATTEMPTS
  for (let attempt = 1; ; attempt++) {
    let res: Awaited<ReturnType<typeof outboundFetch>>
    try {
      res = await outboundFetch(url, {
        method: 'POST', body: JSON.stringify(body), maxBytes: MAX_ANSWER_BYTES, timeoutMs: opts.timeoutMs, maxRedirects: 2,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }
      }, { ...deps.access(), clock: deps.clock })
    } catch (err) {
      const retry = err instanceof AppError && err.code === 'CONNECTION_FAILED' && attempt < attempts
      if (!retry) throw err instanceof AppError ? new AppError(err.code, `${opts.what}：${hidden(err.message, key)}`) : err
      await wait(deps, 1000 * 2 ** (attempt - 1))
      continue
    }
    const text = hidden(res.body.toString('utf8'), key)
    if (res.ok) {
      try { return JSON.parse(text) as unknown } catch { throw new AppError('MODEL_ERROR', `${opts.what}返回的不是 JSON：${text.slice(0, 200)}`) }
    }
    if ((res.status === 429 || res.status >= 500) && attempt < attempts) {
      const after = res.status === 429 ? retryAfterMs(res.headers['retry-after'], deps.clock.now()) : undefined
      await wait(deps, Math.min(MAX_WAIT_MS, after ?? 1000 * 2 ** (attempt - 1)))
      continue
    }
    const why = res.status === 401 || res.status === 403 ? '密钥无效或没有权限' : res.status === 429 ? '请求太频繁，已重试仍被限流' : res.status === 404 ? '地址或模型不存在' : '请求被拒绝'
    throw new EndpointError(res.status, text, `${opts.what}${why}（HTTP ${res.status}）：${text.slice(0, 300)}`)
  }
}
