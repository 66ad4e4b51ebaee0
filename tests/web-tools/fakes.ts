// Fakes of the web tools' far ends, on 127.0.0.1: one search provider per type answering in that
// provider's real response shape (SearXNG JSON, Tavily, Bing Web Search v7, Brave Search), and a page
// server for fetch_url. Not a spec file.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeType = 'searxng' | 'tavily' | 'bing' | 'brave'

interface SeenRequest { method: string; url: string; headers: IncomingMessage['headers']; body: string; key: string }

export interface FakeProvider {
  type: FakeType
  url: string
  requests: SeenRequest[]
  /** Keys answered 200 (others: 401); empty = any key (and none) is fine. */
  validKeys: Set<string>
  /** Forces this status on every request (e.g. 500, 429) until cleared. */
  status?: number
  /** Never answers while true (time-outs). */
  hang: boolean
  /** Text added to error answers (an upstream echoing what it was sent). */
  echoKeyInErrors: boolean
  results: Array<{ title: string; url: string; snippet: string }>
  close(): Promise<void>
}

async function listen (server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function closeServer (server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function keyOf (type: FakeType, req: IncomingMessage): string {
  const h = req.headers
  if (type === 'bing') return String(h['ocp-apim-subscription-key'] ?? '')
  if (type === 'brave') return String(h['x-subscription-token'] ?? '')
  return String(h.authorization ?? '').replace(/^Bearer\s+/i, '')
}

/** The real answer shape of each provider for `results`. */
function answer (type: FakeType, query: string, results: FakeProvider['results']): unknown {
  switch (type) {
    case 'searxng':
      return { query, number_of_results: results.length, results: results.map((r, i) => ({ url: r.url, title: r.title, content: r.snippet, engine: 'duckduckgo', engines: ['duckduckgo'], positions: [i + 1], score: 1, category: 'general', parsed_url: ['https', new URL(r.url).host, new URL(r.url).pathname, '', '', ''] })), answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }
    case 'tavily':
      return { query, follow_up_questions: null, answer: null, images: [], results: results.map((r) => ({ title: r.title, url: r.url, content: r.snippet, score: 0.9, raw_content: null })), response_time: 0.42 }
    case 'bing':
      return { _type: 'SearchResponse', queryContext: { originalQuery: query }, webPages: { webSearchUrl: `https://www.bing.com/search?q=${encodeURIComponent(query)}`, totalEstimatedMatches: results.length, value: results.map((r, i) => ({ id: `https://api.bing.microsoft.com/api/v7/#WebPages.${i}`, name: r.title, url: r.url, displayUrl: r.url, snippet: r.snippet, dateLastCrawled: '2026-11-01T00:00:00.0000000Z', language: 'en', isNavigational: false })) }, rankingResponse: { mainline: { items: [] } } }
    case 'brave':
      return { type: 'search', query: { original: query, more_results_available: false }, mixed: { type: 'mixed', main: [] }, web: { type: 'search', family_friendly: true, results: results.map((r) => ({ type: 'search_result', title: r.title, url: r.url, description: r.snippet, is_source_local: false, is_source_both: false, language: 'en', profile: { name: new URL(r.url).host, url: r.url } })) } }
  }
}

/** The provider's own error body shape for a refused key. */
function errorBody (type: FakeType, status: number, key: string, echo: boolean): unknown {
  const said = echo ? ` (you sent ${key})` : ''
  if (type === 'bing') return { error: { code: status === 429 ? 'RateLimitExceeded' : 'InvalidSubscriptionKey', message: `Access denied${said}` } }
  if (type === 'brave') return { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: `The provided subscription token is invalid${said}`, status } }
  return { detail: { error: `Unauthorized: missing or invalid API key${said}` } }
}

export async function startFakeProvider (type: FakeType, results?: FakeProvider['results']): Promise<FakeProvider> {
  const fake: FakeProvider = {
    type,
    url: '',
    requests: [],
    validKeys: new Set(),
    hang: false,
    echoKeyInErrors: false,
    results: results ?? [
      { title: `${type} result one`, url: `https://one.example/${type}`, snippet: `The <strong>first</strong> answer from ${type} &amp; friends` },
      { title: `${type} result two`, url: `https://two.example/${type}`, snippet: `Second answer from ${type}` },
      { title: `${type} result three`, url: `https://three.example/${type}`, snippet: `Third answer from ${type}` }
    ],
    close: async () => closeServer(server)
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req)
      const key = keyOf(type, req)
      fake.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, key })
      if (fake.hang) return // never answered: the client's time limit ends it
      const send = (status: number, value: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)) }
      const u = new URL(req.url ?? '/', 'http://x')
      const paths: Record<FakeType, string> = { searxng: '/search', tavily: '/search', bing: '/v7.0/search', brave: '/res/v1/web/search' }
      if (u.pathname !== paths[type]) return send(404, { error: 'not found' })
      if (fake.status) return send(fake.status, errorBody(type, fake.status, key, fake.echoKeyInErrors))
      if (fake.validKeys.size && !fake.validKeys.has(key)) return send(401, errorBody(type, 401, key, fake.echoKeyInErrors))
      let query = u.searchParams.get('q') ?? ''
      if (type === 'searxng' && u.searchParams.get('format') !== 'json') return send(403, { error: 'format not allowed' })
      if (type === 'tavily') query = String((JSON.parse(body || '{}') as { query?: string }).query ?? '')
      send(200, answer(type, query, fake.results))
    })()
  })
  fake.url = await listen(server)
  return fake
}

export interface PageServer {
  url: string
  /** Paths hit, in order. */
  hits: string[]
  close(): Promise<void>
}

export const ARTICLE_TEXT = 'Lingxi reads pages for the model. ' + 'The quick brown fox jumps over the lazy dog while the readable text stays. '.repeat(12)

/** A page server: /article (a page with navigation, scripts and an article), /plain, /json, /big
 * (streams far more than any limit), /slow (never finishes), /image, /redirect?to=..., /gbk. */
export async function startPageServer (): Promise<PageServer> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x')
    hits.push(u.pathname + u.search)
    switch (u.pathname) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        res.end(`<!doctype html><html><head><title>Fox Facts</title><script>window.secretTracker = "SCRIPT-TEXT-MUST-NOT-APPEAR"</script><style>.nav{color:red}</style></head>
<body><header><nav class="nav"><a href="/">HOME-NAV-LINK</a> | <a href="/about">ABOUT-NAV-LINK</a> | <a href="/login">LOGIN-NAV-LINK</a></nav></header>
<main><article><h1>All about foxes</h1><p>${ARTICLE_TEXT}</p><p>Foxes live in many places, from forests to cities, and they adapt well to what people build around them. This paragraph is long enough to count as content for the reader view algorithm.</p><ul><li>Red fox</li><li>Arctic fox</li></ul></article></main>
<aside>SIDEBAR-ADS</aside><footer>FOOTER-COPYRIGHT 2026</footer><script>document.write("SCRIPT-TEXT-MUST-NOT-APPEAR")</script></body></html>`)
        return
      case '/plain':
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end('just plain text\nsecond line')
        return
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ hello: 'world', n: 1 }))
        return
      case '/gbk':
        res.writeHead(200, { 'content-type': 'text/html' })
        // "<meta charset=gbk>" + 你好世界 in GBK
        res.end(Buffer.concat([Buffer.from('<html><head><meta charset="gbk"><title>t</title></head><body><p>'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]), Buffer.from('</p></body></html>')]))
        return
      case '/big': {
        // 64 KiB chunks, forever unless the client stops reading: the size limit must end it
        res.writeHead(200, { 'content-type': 'text/plain' })
        const chunk = Buffer.alloc(65536, 'a')
        let bigSent = 0
        const pump = (): void => {
          while (bigSent < 200 * 65536) {
            bigSent += chunk.length
            if (!res.write(chunk)) { res.once('drain', pump); return }
          }
          res.end()
        }
        res.on('close', () => { hits.push(`/big closed after ${bigSent}`) })
        pump()
        return
      }
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/html' })
        res.write('<html><body><p>starts but never ends')
        return
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
        return
      case '/redirect':
        res.writeHead(302, { location: u.searchParams.get('to') ?? '/article' })
        res.end()
        return
      case '/loop':
        res.writeHead(301, { location: '/loop' })
        res.end()
        return
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' })
        res.end('<p>nope</p>')
        return
      default:
        res.writeHead(404)
        res.end()
    }
  })
  const url = await listen(server)
  return { url, hits, close: async () => closeServer(server) }
}
