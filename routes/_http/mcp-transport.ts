// The HTTP side of our MCP endpoint: streamable-HTTP sessions and the legacy SSE transport over the
// raw node request and response, the API key check, idle session expiry and least-recently-used
// eviction at the cap. Each session gets its
// own MCP server from the protocol half (lib/mcp/endpoint.ts).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { Clock } from '../../lib/core/clock.js'
import { errorText } from '../../lib/core/errors.js'
import type { PluginLogger } from '../../lib/core/logger.js'
import { readCapped } from '../../lib/core/read-body.js'
import type { McpEndpoint } from '../../lib/mcp/endpoint.js'
import { loadSdk } from '../../lib/mcp/sdk.js'
import { jsonDepth, MAX_BODY_DEPTH } from './validate.js'

// Loaded on first use, like the server half (lib/mcp/endpoint.ts): most installations never open /mcp.
let transportSdk: Promise<{
  SSEServerTransport: typeof import('@modelcontextprotocol/sdk/server/sse.js').SSEServerTransport
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport
  isInitializeRequest: typeof import('@modelcontextprotocol/sdk/types.js').isInitializeRequest
}> | undefined
function loadTransportSdk (): NonNullable<typeof transportSdk> {
  const loading = transportSdk ??= loadSdk(() => Promise.all([
    import('@modelcontextprotocol/sdk/server/sse.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js')
  ])).then(([a, b, types]) => ({ SSEServerTransport: a.SSEServerTransport, StreamableHTTPServerTransport: b.StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest }))
  loading.catch(() => { if (transportSdk === loading) transportSdk = undefined }) // installed later: tried again
  return loading
}

const IDLE_MS = 30 * 60_000
/** Open sessions at most; past it the least recently used one is closed (makeRoom). */
export const MAX_SESSIONS = 200

type Session =
  | { kind: 'streamable-http'; transport: StreamableHTTPServerTransport; server: Server; lastSeen: number }
  | { kind: 'sse'; transport: SSEServerTransport; server: Server; lastSeen: number }

type Req = IncomingMessage
type Res = ServerResponse

/** Compares an offered key with the configured one in constant time. */
export function keyMatches (offered: string | undefined, expected: string): boolean {
  if (!offered || !expected) return false
  const a = createHash('sha256').update(offered).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/**
 * Keys at least this long are taken as unguessable: a correct one passes even from an address that is
 * rate limited for wrong keys. A shorter key is refused there too, or the difference between 429 and
 * 200 would let an attacker keep guessing at full speed.
 */
export const UNGUESSABLE_KEY_LENGTH = 20

/** The API key of a request: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function offeredKey (headers: IncomingMessage['headers']): string | undefined {
  const x = headers['x-api-key']
  if (typeof x === 'string' && x) return x
  const m = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')
  return m?.[1]
}

export function sendJsonRpcError (res: Res, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}

/**
 * The answer to OAuth discovery (RFC 8414, RFC 9728, OpenID) and any other `/.well-known/` document:
 * this server has none. A JSON 404 tells an OAuth-capable MCP client so (it then reports a missing or
 * wrong key) where the dashboard's HTML pushed it into an OAuth flow. Says nothing about the configuration.
 */
export function sendNoOAuth (res: Res): void {
  res.writeHead(404, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify({ error: 'not_found', error_description: 'This server has no OAuth or other /.well-known/ documents: the MCP endpoint takes an API key (Authorization: Bearer <key> or X-API-Key)' }))
}

/**
 * The JSON-RPC body of a POST to /mcp, read here rather than by the /api body parser so that a broken
 * body gets a JSON-RPC error: -32700 Parse error for broken JSON, -32600 Invalid Request for JSON that is
 * not a message (an object) or a batch of them, 413 past the size limit. `pre` is a body the host's own
 * server already parsed (shared TRSS port). Undefined when the error was answered.
 */
export async function readJsonRpcBody (req: Req, res: Res, limitBytes: number, pre?: { body: unknown }): Promise<{ body: unknown } | undefined> {
  let value: unknown
  if (pre && !Buffer.isBuffer(pre.body) && typeof pre.body !== 'string') {
    value = pre.body
  } else {
    let text: string
    if (pre) {
      text = Buffer.isBuffer(pre.body) ? pre.body.toString('utf8') : String(pre.body)
    } else {
      // the answer goes out before the request is destroyed (which closes the socket)
      const { body, truncated } = await readCapped(req as AsyncIterable<Buffer>, limitBytes, () => {
        sendJsonRpcError(res, 413, -32600, `Invalid Request: the body is larger than ${Math.round(limitBytes / 1024)} KB`, { Connection: 'close' })
        req.destroy()
      })
      if (truncated) return undefined
      text = body.toString('utf8')
    }
    try {
      value = JSON.parse(text)
    } catch (err) {
      sendJsonRpcError(res, 400, -32700, `Parse error: ${errorText(err).slice(0, 200)}`)
      return undefined
    }
  }
  const isMessage = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v)
  if (!(isMessage(value) || (Array.isArray(value) && value.length > 0 && value.every(isMessage)))) {
    sendJsonRpcError(res, 400, -32600, 'Invalid Request: the body must be a JSON-RPC message (an object) or a batch of them')
    return undefined
  }
  if (jsonDepth(value) > MAX_BODY_DEPTH) {
    sendJsonRpcError(res, 400, -32600, `Invalid Request: the body is nested more than ${MAX_BODY_DEPTH} levels deep`)
    return undefined
  }
  return { body: value }
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>()
  private readonly sweeper: NodeJS.Timeout

  constructor (private readonly o: { clock: Clock; log: PluginLogger }) {
    this.sweeper = o.clock.setInterval(() => { void this.sweep() }, 5 * 60_000)
    this.sweeper.unref?.()
  }

  /** The session, now the most recently used: the map is kept in least-recently-used order. */
  private touch (id: string): Session | undefined {
    const s = this.sessions.get(id)
    if (s) {
      s.lastSeen = this.o.clock.now()
      this.sessions.delete(id)
      this.sessions.set(id, s)
    }
    return s
  }

  /**
   * Room for a new session at the cap: idle sessions are swept, then the least recently used ones are
   * closed. Clients that never send DELETE would otherwise lock the endpoint out until they idle out.
   */
  private async makeRoom (): Promise<void> {
    if (this.sessions.size < MAX_SESSIONS) return
    await this.sweep()
    const evict: string[] = []
    for (const id of this.sessions.keys()) {
      if (this.sessions.size - evict.length < MAX_SESSIONS) break
      evict.push(id)
    }
    if (evict.length) this.o.log.debug(`MCP endpoint: ${evict.length} least recently used session(s) closed to make room (cap ${MAX_SESSIONS})`)
    await Promise.all(evict.map((id) => this.closeSession(id)))
  }

  /** POST, GET and DELETE of `/mcp/` (streamable HTTP). `body` is the parsed JSON body of a POST. */
  async handleStreamable (endpoint: McpEndpoint, req: Req, res: Res, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id']
    const sid = Array.isArray(header) ? header[0] : header
    if (sid) {
      const s = this.touch(sid)
      if (!s || s.kind !== 'streamable-http') return sendJsonRpcError(res, 404, -32001, 'Session not found')
      if (req.method === 'DELETE') {
        // The SDK answers 200; we answer 204 (no body).
        await this.closeSession(sid)
        res.writeHead(204).end()
        return
      }
      return s.transport.handleRequest(req, res, body)
    }
    if (req.method !== 'POST') return sendJsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
    const { StreamableHTTPServerTransport, isInitializeRequest } = await loadTransportSdk()
    if (!isInitializeRequest(body)) return sendJsonRpcError(res, 400, -32000, 'Bad Request: no valid session; send initialize first')
    await this.makeRoom()
    let id: string | undefined
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Requests are answered with one JSON body (no per-call SSE stream): cheaper for both sides.
      // Server-initiated messages still flow over the GET stream.
      enableJsonResponse: true,
      onsessioninitialized: (newId) => {
        id = newId
        this.sessions.set(newId, { kind: 'streamable-http', transport, server, lastSeen: this.o.clock.now() })
      }
    })
    const server = await endpoint.createServer(() => id)
    transport.onclose = () => { if (id) this.sessions.delete(id) }
    await server.connect(transport)
    await transport.handleRequest(req, res, body)
  }

  /** `GET /mcp/sse`: opens a legacy session; the first event names `messagePath`. */
  async openSse (endpoint: McpEndpoint, res: Res, messagePath: string): Promise<void> {
    await this.makeRoom()
    const { SSEServerTransport } = await loadTransportSdk()
    const transport = new SSEServerTransport(messagePath, res)
    const id = transport.sessionId
    const server = await endpoint.createServer(() => id)
    this.sessions.set(id, { kind: 'sse', transport, server, lastSeen: this.o.clock.now() })
    transport.onclose = () => { this.sessions.delete(id) }
    res.on('close', () => { void this.closeSession(id) })
    await server.connect(transport)
  }

  /** `POST /mcp/message?sessionId=`. */
  async postSse (req: Req, res: Res, sessionId: string | undefined, body: unknown): Promise<void> {
    if (!sessionId) return sendJsonRpcError(res, 400, -32000, 'Bad Request: sessionId query parameter is required')
    const s = this.touch(sessionId)
    if (!s || s.kind !== 'sse') return sendJsonRpcError(res, 404, -32001, 'Session not found')
    // the SDK answers 202 `Accepted` (or its own 400 text) without a media type: say it is text (docs/api.md, OpenAPI document)
    res.setHeader('Content-Type', 'text/plain; charset=utf-8')
    await s.transport.handlePostMessage(req, res, body)
  }

  private async closeSession (id: string): Promise<void> {
    const s = this.sessions.get(id)
    if (!s) return
    this.sessions.delete(id)
    try { await s.server.close() } catch (err) { this.o.log.debug(`MCP session ${id} close: ${errorText(err)}`) }
  }

  /** Closes sessions idle for 30 minutes (clients that vanished without DELETE). */
  async sweep (): Promise<void> {
    const limit = this.o.clock.now() - IDLE_MS
    await Promise.all([...this.sessions].filter(([, s]) => s.lastSeen < limit).map(([id]) => this.closeSession(id)))
  }

  /** The body of GET /mcp/status. */
  async status (endpoint: McpEndpoint, enabled: boolean): Promise<Record<string, unknown>> {
    let sse = 0
    for (const s of this.sessions.values()) if (s.kind === 'sse') sse++
    return {
      ...await endpoint.info(),
      enabled,
      activeSessions: this.sessions.size,
      sessions: { streamableHttp: this.sessions.size - sse, sse },
      transports: ['streamable-http', 'sse'],
      endpoints: { streamableHttp: '/mcp/', sse: '/mcp/sse', message: '/mcp/message' }
    }
  }

  async close (): Promise<void> {
    this.o.clock.clearInterval(this.sweeper)
    await Promise.all([...this.sessions.keys()].map((id) => this.closeSession(id)))
  }
}
