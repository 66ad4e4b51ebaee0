// The one outbound fetcher: every server-side request to an address that users, models, other servers
// or a setting chose goes through here (fetch_url's pages, images and voice messages of chat messages,
// images a drawing API answers with, custom HTTP tools, the remote drawing-preset source). What it
// guarantees (README, Security model):
// - http and https only, no user name or password in the URL;
// - the host of every hop resolved once, every address it resolves to checked in every spelling
//   (address.ts) and the connection pinned to the checked addresses (pinned-lookup.ts): loopback,
//   private, link-local (169.254.169.254, the cloud metadata address), CGNAT and reserved addresses are
//   refused unless the master named the host or address in `web.allowPrivateHosts` (or, for fetch_url,
//   turned `webTools.fetch.allowPrivate` on);
// - redirects followed by hand (at most `maxRedirects`), each hop checked again; a 303 (and a 301/302
//   of a POST) goes on as GET without a body, 307/308 keep method and body;
// - credentials (Authorization, Proxy-Authorization, Cookie, X-Api-Key and every header the caller
//   marks secret) are dropped as soon as a redirect leaves the first origin (scheme, host, port);
// - one time limit over all hops and the body; the body read up to `maxBytes` and the connection
//   dropped there (an error, or the start of the body with `truncate`).
// undici and ipaddr.js are loaded with the first request (lib/core/packages.ts); without them nothing
// is fetched (SERVICE_UNAVAILABLE naming the package), never an unchecked address.
import type { Dispatcher } from 'undici'
import type { Clock } from '../core/clock.js'
import { systemClock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import { importOptional } from '../core/packages.js'
import { readCapped, tooLargeError } from '../core/read-body.js'
import { pinnedLookup, resolveChecked, systemResolver, type AddressPolicy, type Resolver } from './pinned-lookup.js'

type Undici = typeof import('undici')
let undici: Promise<Undici> | undefined
/** undici, loaded once (a failed load is tried again next time); SERVICE_UNAVAILABLE naming the package without it. */
function loadUndici (): Promise<Undici> {
  return (undici ??= importOptional('undici', () => import('undici')).catch((err: unknown) => {
    undici = undefined
    throw new AppError('SERVICE_UNAVAILABLE', errorText(err), { cause: err })
  }))
}

/** Who may be reached besides public addresses (from the config with `outboundAccess`). */
export interface OutboundAccess {
  /** Every address (fetch_url's `webTools.fetch.allowPrivate`). */
  allowPrivate?: boolean
  /** `web.allowPrivateHosts`: host names (every address they resolve to) or addresses, any spelling. */
  allowPrivateHosts?: readonly string[]
  /** Addresses allowed although not public, canonical spelling (tests reach their servers this way). */
  allowAddresses?: ReadonlySet<string>
  resolver?: Resolver
  clock?: Clock
}

/** The access the master's config gives (`web.allowPrivateHosts`). */
export const outboundAccess = (cfg: { web: { allowPrivateHosts?: readonly string[] } }): OutboundAccess =>
  ({ allowPrivateHosts: cfg.web.allowPrivateHosts ?? [] })

interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  headers?: Record<string, string>
  body?: string | Buffer
  /** Header names (any case) dropped with the built-in credential headers when a redirect leaves the first origin. */
  secretHeaders?: readonly string[]
  /** Bytes of the body read at most. */
  maxBytes: number
  /** Over maxBytes: 'error' (default; `tooLarge()`, or PAYLOAD_TOO_LARGE) or 'truncate' (the first maxBytes, `truncated` set). */
  overLimit?: 'error' | 'truncate'
  tooLarge?: () => Error
  /** One time limit over every hop and the body (ms). */
  timeoutMs: number
  maxRedirects?: number
  signal?: AbortSignal
  /** Checked before the body is read (status and content type known); throw to refuse the answer unread. */
  check?: (answer: { status: number; contentType: string }) => void
}

interface OutboundResponse {
  /** The URL after redirects. */
  url: string
  status: number
  ok: boolean
  /** Lower-case mime type without parameters ('' when none). */
  contentType: string
  headers: Record<string, string>
  body: Buffer
  truncated: boolean
}

/** Headers that carry a credential: never sent to another origin than the first. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key']
/** Headers that describe the body: dropped with it. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding']

/** A URL that may be fetched: http(s), no credentials in it. */
function checkUrl (raw: string): URL {
  let url: URL
  try { url = new URL(raw) } catch { throw new AppError('BAD_REQUEST', 'Not a valid URL') }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('BAD_REQUEST', `Only http and https URLs can be fetched, not ${url.protocol}`)
  if (url.username || url.password) throw new AppError('BAD_REQUEST', 'URLs with a user name or password are not fetched')
  return url
}

/** An allowPrivateHosts entry as a URL host spells it (IPv4 and IPv6 literals canonical, names lower case), or undefined. */
function hostSpelling (entry: string): string | undefined {
  const e = entry.trim().replace(/^\[(.*)\]$/, '$1')
  if (!e) return undefined
  try { return new URL(`http://${e.includes(':') ? `[${e}]` : e}/`).hostname.replace(/^\[(.*)\]$/, '$1') } catch { return undefined }
}

function policyOf (access: OutboundAccess): AddressPolicy {
  const hosts = new Set<string>()
  for (const h of access.allowPrivateHosts ?? []) {
    const s = hostSpelling(h)
    if (s) hosts.add(s)
  }
  // an address entry also allows a name that resolves to it
  const addresses = new Set([...(access.allowAddresses ?? []), ...[...hosts].filter((h) => /^[\d.]+$|:/.test(h))])
  return { allowPrivate: access.allowPrivate ?? false, allowAddresses: addresses, allowHosts: hosts }
}

/**
 * Fetches `raw` under the rules above. Answers with any status (`ok` says 2xx); throws AppError:
 * BAD_REQUEST (the URL), FORBIDDEN (an address), TIMEOUT, CONNECTION_FAILED, SERVICE_UNAVAILABLE (a
 * package missing), PAYLOAD_TOO_LARGE (or the caller's `tooLarge()`), or what `check` throws.
 */
export async function outboundFetch (raw: string, req: OutboundRequest, access: OutboundAccess = {}): Promise<OutboundResponse> {
  const clock = access.clock ?? systemClock
  const controller = new AbortController()
  let timedOut = false
  const timer = clock.setTimeout(() => { timedOut = true; controller.abort() }, req.timeoutMs)
  const onAbort = (): void => controller.abort()
  if (req.signal?.aborted) controller.abort()
  req.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    return await hops(checkUrl(raw), req, access, controller.signal)
  } catch (err) {
    if (timedOut) throw new AppError('TIMEOUT', `No answer within ${req.timeoutMs} ms`)
    if (req.signal?.aborted) throw new AppError('TIMEOUT', 'Aborted')
    if (err instanceof Passed) throw err.err
    if (err instanceof AppError) throw err
    throw new AppError('CONNECTION_FAILED', `The request failed (${errorText(err)})`)
  } finally {
    clock.clearTimeout(timer)
    req.signal?.removeEventListener('abort', onAbort)
  }
}

/** An error of the caller's (`check`, `tooLarge`), passed on as it is. */
class Passed { constructor (readonly err: unknown) {} }

function lowerHeaders (h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v
  return out
}

async function hops (start: URL, req: OutboundRequest, access: OutboundAccess, signal: AbortSignal): Promise<OutboundResponse> {
  const policy = policyOf(access)
  const resolver = access.resolver ?? systemResolver
  const maxRedirects = req.maxRedirects ?? 5
  const secret = new Set([...CREDENTIAL_HEADERS, ...(req.secretHeaders ?? []).map((h) => h.toLowerCase())])
  const { Agent, request } = await loadUndici()
  const origin = start.origin
  let url = start
  let method: Dispatcher.HttpMethod = req.method ?? 'GET'
  let body = method === 'GET' ? undefined : req.body
  let headers = lowerHeaders(req.headers)
  for (let hop = 0; ; hop++) {
    if (url.origin !== origin) for (const h of secret) delete headers[h]
    const pinned = await resolveChecked(url.hostname, resolver, policy)
    if (signal.aborted) throw new AppError('TIMEOUT', 'Aborted')
    // One agent per hop: its connections can only reach this hop's checked addresses.
    const agent = new Agent({ connect: { lookup: pinnedLookup(pinned) }, connections: 1, pipelining: 0 })
    try {
      const res = await request(url, {
        method,
        dispatcher: agent,
        signal,
        headers,
        ...(body !== undefined ? { body } : {}),
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs
      })
      const location = res.headers.location
      if (res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304 && location) {
        discard(res.body)
        if (hop >= maxRedirects) throw new AppError('CONNECTION_FAILED', `Too many redirects (more than ${maxRedirects})`)
        url = checkUrl(new URL(String(location), url).href)
        // 303 (any method but HEAD), and 301/302 of a POST, go on as GET without a body (the Fetch standard)
        if ((res.statusCode === 303 && method !== 'HEAD') || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET'
          body = undefined
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !BODY_HEADERS.includes(k)))
        }
        continue
      }
      const contentType = String(res.headers['content-type'] ?? '').toLowerCase().split(';')[0]!.trim()
      try {
        req.check?.({ status: res.statusCode, contentType })
      } catch (err) {
        discard(res.body)
        throw new Passed(err)
      }
      const tooLarge = req.tooLarge ?? ((): Error => tooLargeError(req.maxBytes))
      if (req.overLimit !== 'truncate' && Number(res.headers['content-length'] ?? 0) > req.maxBytes) {
        discard(res.body)
        throw new Passed(tooLarge())
      }
      const read = await readCapped(res.body, req.maxBytes, () => discard(res.body))
      if (read.truncated && req.overLimit !== 'truncate') throw new Passed(tooLarge())
      const out: Record<string, string> = {}
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v)
      return { url: url.href, status: res.statusCode, ok: res.statusCode >= 200 && res.statusCode < 300, contentType, headers: out, body: read.body, truncated: read.truncated }
    } finally {
      agent.destroy().catch(() => { /* already closed */ })
    }
  }
}

type Body = AsyncIterable<Buffer> & { destroy(): void; on(event: 'error', fn: () => void): unknown }

/** Drops a body not read: destroying it emits an abort error, which nobody needs to hear. */
function discard (body: Body): void {
  body.on('error', () => { /* the body was not wanted */ })
  body.destroy()
}
