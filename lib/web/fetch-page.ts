// fetch_url's HTTP side: one GET per hop through undici, the host resolved and checked first and the
// connection pinned to the checked address (pinned-lookup.ts); redirects followed by hand so every
// hop's address is checked again; a time limit over the whole fetch (all hops and the body); the body
// read up to `maxBytes` and no further; HTML, text and JSON only.
// undici (like the page parsers of readable.ts) is loaded with the first fetch, never at start
// (lib/core/packages.ts): without it fetch_url fails with the text naming the package (and is not
// offered at all, lib/tools/builtin/web.ts).
import type { Clock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import { importOptional } from '../core/packages.js'
import { pinnedLookup, resolveChecked, type AddressPolicy, type Resolver } from './pinned-lookup.js'
import { readableText } from './readable.js'

type Undici = typeof import('undici')
let undici: Promise<Undici> | undefined
/** undici, loaded once (a failed load is tried again next time); SERVICE_UNAVAILABLE naming the package without it. */
function loadUndici (): Promise<Undici> {
  return (undici ??= importOptional('undici', () => import('undici')).catch((err: unknown) => {
    undici = undefined
    throw new AppError('SERVICE_UNAVAILABLE', errorText(err), { cause: err })
  }))
}

export interface FetchLimits {
  maxBytes: number
  timeoutMs: number
  maxRedirects: number
  allowPrivate: boolean
  userAgent: string
}

export interface FetchedPage {
  /** The URL after redirects. */
  url: string
  status: number
  contentType: string
  title: string
  text: string
  /** The body was longer than maxBytes: only its first maxBytes were read. */
  truncated: boolean
}

const HTML = /^(text\/html|application\/xhtml\+xml)$/
const TEXT = /^(text\/plain|text\/markdown|text\/csv|application\/json|application\/[\w.+-]+\+json|text\/json)$/

function checkUrl (raw: string): URL {
  let url: URL
  try { url = new URL(raw) } catch { throw new AppError('BAD_REQUEST', 'Not a valid URL') }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('BAD_REQUEST', `Only http and https URLs can be fetched, not ${url.protocol}`)
  if (url.username || url.password) throw new AppError('BAD_REQUEST', 'URLs with a user name or password are not fetched')
  return url
}

/** The charset of a content type, else of a `<meta charset>` near the start of an HTML page. */
function charsetOf (contentType: string, head: Buffer, html: boolean): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]
  if (fromHeader) return fromHeader
  if (html) {
    const m = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head.subarray(0, 4096).toString('latin1'))
    if (m?.[1]) return m[1]
  }
  return 'utf-8'
}

function decode (body: Buffer, charset: string): string {
  try { return new TextDecoder(charset).decode(body) } catch { return new TextDecoder('utf-8').decode(body) }
}

export interface FetchDeps {
  clock: Clock
  resolver: Resolver
  signal?: AbortSignal
  /** Addresses allowed although not public (tests reach their page server on 127.0.0.1 this way). */
  allowAddresses?: ReadonlySet<string>
}

/** Fetches `raw` and returns its readable text. Throws AppError (never with a secret in its message). */
export async function fetchPage (raw: string, limits: FetchLimits, deps: FetchDeps): Promise<FetchedPage> {
  const controller = new AbortController()
  let timedOut = false
  const timer = deps.clock.setTimeout(() => { timedOut = true; controller.abort() }, limits.timeoutMs)
  const onAbort = (): void => controller.abort()
  deps.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    return await fetchHops(checkUrl(raw), limits, deps, controller.signal)
  } catch (err) {
    if (timedOut) throw new AppError('TIMEOUT', `The page did not load within ${limits.timeoutMs} ms`)
    if (deps.signal?.aborted) throw new AppError('TIMEOUT', 'Aborted')
    if (err instanceof AppError) throw err
    throw new AppError('CONNECTION_FAILED', `The page could not be fetched (${err instanceof Error ? err.message : String(err)})`)
  } finally {
    deps.clock.clearTimeout(timer)
    deps.signal?.removeEventListener('abort', onAbort)
  }
}

async function fetchHops (start: URL, limits: FetchLimits, deps: FetchDeps, signal: AbortSignal): Promise<FetchedPage> {
  const policy: AddressPolicy = { allowPrivate: limits.allowPrivate, allowAddresses: deps.allowAddresses }
  const { Agent, request } = await loadUndici()
  let url = start
  for (let hop = 0; ; hop++) {
    const pinned = await resolveChecked(url.hostname, deps.resolver, policy)
    if (signal.aborted) throw new AppError('TIMEOUT', 'Aborted')
    // One agent per hop: its connections can only reach this hop's checked addresses.
    const agent = new Agent({ connect: { lookup: pinnedLookup(pinned) }, connections: 1, pipelining: 0 })
    try {
      const res = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headers: { 'user-agent': limits.userAgent, accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.1' },
        headersTimeout: limits.timeoutMs,
        bodyTimeout: limits.timeoutMs
      })
      const location = res.headers.location
      if (res.statusCode >= 300 && res.statusCode < 400 && location) {
        discard(res.body)
        if (hop >= limits.maxRedirects) throw new AppError('CONNECTION_FAILED', `Too many redirects (more than ${limits.maxRedirects})`)
        url = checkUrl(new URL(String(location), url).href)
        continue
      }
      if (res.statusCode >= 400) {
        discard(res.body)
        throw new AppError('CONNECTION_FAILED', `The server answered HTTP ${res.statusCode}`)
      }
      const contentType = String(res.headers['content-type'] ?? '').toLowerCase()
      const mime = contentType.split(';')[0]!.trim()
      const html = HTML.test(mime)
      if (!html && !TEXT.test(mime)) {
        discard(res.body)
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Only HTML, text and JSON pages are read, not ${mime || 'an unknown type'}`)
      }
      const { body, truncated } = await readAtMost(res.body, limits.maxBytes)
      const decoded = decode(body, charsetOf(contentType, body, html))
      const page = html ? await readableText(decoded) : { title: '', text: decoded.trim() }
      return { url: url.href, status: res.statusCode, contentType: mime, title: page.title, text: page.text, truncated }
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

/** Reads a body until it ends or `max` bytes are in; past that the stream is destroyed. */
async function readAtMost (stream: Body, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const room = max - size
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room))
      discard(stream)
      return { body: Buffer.concat(chunks), truncated: true }
    }
    chunks.push(chunk)
    size += chunk.length
  }
  return { body: Buffer.concat(chunks), truncated: false }
}
