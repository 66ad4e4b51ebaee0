// fetch_url's HTTP side, on the outbound fetcher (outbound.ts: the host of each hop resolved and
// checked, the connection pinned to the checked address, redirects followed by hand and checked again,
// one time limit over the whole fetch, the body read up to `maxBytes` and no further); here: HTML, text
// and JSON only, the charset, the readable text.
// undici (like the page parsers of readable.ts) is loaded with the first fetch, never at start
// (lib/core/packages.ts): without it fetch_url fails with the text naming the package (and is not
// offered at all, lib/tools/builtin/web.ts).
import type { Clock } from '../core/clock.js'
import { AppError } from '../core/errors.js'
import { outboundFetch } from './outbound.js'
import type { Resolver } from './pinned-lookup.js'
import { readableText } from './readable.js'

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
  /** `web.allowPrivateHosts`: host names or addresses the master allows although not public. */
  allowPrivateHosts?: readonly string[]
}

/** Fetches `raw` and returns its readable text. Throws AppError (never with a secret in its message). */
export async function fetchPage (raw: string, limits: FetchLimits, deps: FetchDeps): Promise<FetchedPage> {
  let res
  try {
    res = await outboundFetch(raw, {
      headers: { 'user-agent': limits.userAgent, accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.1' },
      maxBytes: limits.maxBytes,
      overLimit: 'truncate',
      timeoutMs: limits.timeoutMs,
      maxRedirects: limits.maxRedirects,
      ...(deps.signal ? { signal: deps.signal } : {}),
      check: ({ status, contentType }) => {
        if (status >= 400) throw new AppError('CONNECTION_FAILED', `The server answered HTTP ${status}`)
        if (!HTML.test(contentType) && !TEXT.test(contentType)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Only HTML, text and JSON pages are read, not ${contentType || 'an unknown type'}`)
      }
    }, {
      allowPrivate: limits.allowPrivate,
      ...(deps.allowPrivateHosts ? { allowPrivateHosts: deps.allowPrivateHosts } : {}),
      ...(deps.allowAddresses ? { allowAddresses: deps.allowAddresses } : {}),
      resolver: deps.resolver,
      clock: deps.clock
    })
  } catch (err) {
    if (err instanceof AppError && err.code === 'TIMEOUT' && !deps.signal?.aborted) throw new AppError('TIMEOUT', `The page did not load within ${limits.timeoutMs} ms`)
    if (err instanceof AppError && err.code === 'CONNECTION_FAILED') throw new AppError('CONNECTION_FAILED', err.message.replace(/^The request failed/, 'The page could not be fetched'))
    throw err
  }
  const html = HTML.test(res.contentType)
  const decoded = decode(res.body, charsetOf(res.headers['content-type'] ?? '', res.body, html))
  const page = html ? await readableText(decoded) : { title: '', text: decoded.trim() }
  return { url: res.url, status: res.status, contentType: res.contentType, title: page.title, text: page.text, truncated: res.truncated }
}
