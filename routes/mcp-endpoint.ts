// Our own MCP endpoint at /mcp (docs/api.md, MCP endpoint). Not behind the dashboard login: its own API key
// (config mcp.server.apiKey, `Authorization: Bearer` or `X-API-Key`, constant-time compare, wrong keys
// rate limited per client address). While no
// key is set it answers 503 saying how to turn it on. The SDK transports write
// to the raw node response, so handlers set ctx.respond = false and pass the parsed body.
import Router from '@koa/router'
import type { Next, ParameterizedContext } from 'koa'
import { z } from 'zod'
import { clientAddress, FailureLimiter } from '../lib/core/rate-limit.js'
import type { McpEndpoint } from '../lib/mcp/endpoint.js'
import { mcpOff } from '../lib/mcp/sdk.js'
import type { Runtime } from '../lib/runtime.js'
import { keyMatches, McpSessions, offeredKey, readJsonRpcBody, sendJsonRpcError, sendNoOAuth, UNGUESSABLE_KEY_LENGTH } from './_http/mcp-transport.js'
import { routeDoc } from './_http/route-docs.js'
import { hostParsedBody } from './_http/shared-mount.js'

const noOAuthData = z.object({ error: z.literal('not_found'), error_description: z.string() })
const statusData = z.object({
  name: z.string(), version: z.string(), toolCount: z.number(), protocolVersion: z.string(), unavailable: z.string().optional(),
  enabled: z.boolean(), activeSessions: z.number(),
  sessions: z.object({ streamableHttp: z.number(), sse: z.number() }),
  transports: z.array(z.string()),
  endpoints: z.object({ streamableHttp: z.string(), sse: z.string(), message: z.string() })
})

/** A JSON-RPC response (the MCP SDK's JSONRPCResponse or JSONRPCError): a request's result, or its error. */
const jsonRpcResponse = z.union([
  z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]), result: z.looseObject({}) }),
  z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]).optional(), error: z.looseObject({ code: z.number(), message: z.string() }) })
])
/** POST /mcp with `enableJsonResponse` (mcp-transport.ts): the response, or the responses of a batch, as one JSON body. */
const streamableAnswer = z.union([jsonRpcResponse, z.array(jsonRpcResponse)])

const OFF_MESSAGE = 'The MCP endpoint is off: set an API key in mcp.server.apiKey (dashboard configuration or PUT /api/config/mcp) to turn it on'

/** The path prefix the client sees (`/lingxi` when mounted into the host's server). */
function mountPrefix (ctx: McpContext): string {
  const original = (ctx.req as { originalUrl?: string }).originalUrl
  if (typeof original === 'string' && original !== ctx.url && original.endsWith(ctx.url)) return original.slice(0, -ctx.url.length)
  return ''
}

/** What the guard found: the endpoint is running and the key matched. */
interface McpState { endpoint: McpEndpoint }
type McpContext = ParameterizedContext<McpState>

export function mcpEndpointRoutes (rt: Runtime): Router<McpState> {
  const r = new Router<McpState>()
  const sessions = new McpSessions({ clock: rt.clock, log: rt.log })
  rt.onStop.push(() => sessions.close())
  const limiter = new FailureLimiter(() => rt.config.get().web.loginRateLimit, 60_000, rt.clock)
  // A short key can be guessed: say so once per key (the limiter then also refuses it while limited).
  let warned = ''
  const checkKey = (): void => {
    const key = rt.config.get().mcp.server.apiKey
    if (!key || key.length >= UNGUESSABLE_KEY_LENGTH || key === warned) return
    warned = key
    rt.log.warn(`mcp.server.apiKey is shorter than ${UNGUESSABLE_KEY_LENGTH} characters: use a long random key for the MCP endpoint`)
  }
  checkKey()
  rt.onStop.push(rt.bus.on('config', checkKey))

  // Runs for every /mcp route below: the endpoint is on, the key matches; then raw node I/O.
  const guard = async (ctx: McpContext, next: Next): Promise<void> => {
    ctx.respond = false
    const endpoint = rt.optional('mcpEndpoint')
    const key = rt.config.get().mcp.server.apiKey
    if (!endpoint || !key) return sendJsonRpcError(ctx.res, 503, -32000, OFF_MESSAGE)
    // Wrong keys are counted per client address (like logins); past web.loginRateLimit per minute that
    // address gets 429. A correct key is checked first and passes unless the key is short enough to guess.
    const bucket = clientAddress(ctx.req, rt.config.get().web.trustProxy)
    const good = keyMatches(offeredKey(ctx.req.headers), key)
    if (limiter.blocked(bucket) && (!good || key.length < UNGUESSABLE_KEY_LENGTH)) {
      const seconds = limiter.retryAfterSeconds(bucket)
      return sendJsonRpcError(ctx.res, 429, -32029, `Too many requests with a wrong MCP API key from this address; try again in ${seconds} s`, { 'Retry-After': String(seconds) })
    }
    if (!good) {
      limiter.fail(bucket)
      if (limiter.blocked(bucket)) rt.log.warn('MCP endpoint: too many wrong API keys; this address is refused for a minute', { address: bucket })
      return sendJsonRpcError(ctx.res, 401, -32001, 'Unauthorized: a valid MCP API key is required (Authorization: Bearer <key> or X-API-Key)', { 'WWW-Authenticate': 'Bearer' })
    }
    const off = mcpOff()
    if (off) return sendJsonRpcError(ctx.res, 503, -32000, off)
    ctx.state.endpoint = endpoint
    try {
      await next()
    } catch (err) {
      rt.log.error(`MCP endpoint ${ctx.method} ${ctx.path} failed`, {}, err)
      if (!ctx.res.headersSent) sendJsonRpcError(ctx.res, 500, -32603, 'Internal error')
      else ctx.res.end()
    }
  }

  /** The JSON-RPC body of a POST (undefined for other methods); `false` when an error was answered. */
  const bodyOf = async (ctx: McpContext): Promise<{ body: unknown } | false> => {
    if (ctx.method !== 'POST') return { body: undefined }
    return await readJsonRpcBody(ctx.req, ctx.res, rt.config.get().web.bodyLimitKb * 1024, hostParsedBody(ctx.req)) ?? false
  }
  const streamable = async (ctx: McpContext): Promise<void> => {
    const read = await bodyOf(ctx)
    if (read) await sessions.handleStreamable(ctx.state.endpoint, ctx.req, ctx.res, read.body)
  }
  for (const path of ['/mcp', '/mcp/']) {
    r.post(path, guard, streamable)
    r.get(path, guard, streamable)
    r.delete(path, guard, streamable)
    // 200: the requests' responses as one JSON body (enableJsonResponse); 202 without a body when the
    // message held only notifications or responses (the SDK's StreamableHTTPServerTransport)
    routeDoc(r, 'POST', path, { summary: 'MCP streamable HTTP: a JSON-RPC message or batch (requests answered as one JSON body; only notifications: 202)', status: [200, 202], noBody: [202], data: streamableAnswer, errors: [404, 429, 503] })
    routeDoc(r, 'GET', path, { summary: 'MCP streamable HTTP: the session\'s server-to-client stream', contentType: 'text/event-stream', events: ['JSON-RPC messages'], errors: [404, 429, 503] })
    routeDoc(r, 'DELETE', path, { summary: 'MCP streamable HTTP: end the session', status: 204, errors: [404, 429, 503] })
  }

  r.get('/mcp/sse', guard, async (ctx) => {
    await sessions.openSse(ctx.state.endpoint, ctx.res, `${mountPrefix(ctx)}/mcp/message`)
  })
  routeDoc(r, 'GET', '/mcp/sse', { summary: 'MCP over the older SSE transport: the stream (its first event names the message URL)', contentType: 'text/event-stream', events: ['endpoint (the URL to POST messages to)', 'message (JSON-RPC)'], errors: [429, 503] })
  r.post('/mcp/message', guard, async (ctx) => {
    const sid = typeof ctx.query.sessionId === 'string' ? ctx.query.sessionId : undefined
    const read = await bodyOf(ctx)
    if (read) await sessions.postSse(ctx.req, ctx.res, sid, read.body)
  })
  // the SDK's SSEServerTransport takes the message with 202 `Accepted`; the response goes out on the session's stream
  routeDoc(r, 'POST', '/mcp/message', { summary: 'MCP over the older SSE transport: a JSON-RPC message for the session (its answer comes on the stream)', status: 202, contentType: 'text/plain', data: z.literal('Accepted'), errors: [404, 429, 503] })
  // OAuth discovery under /mcp (the top-level /.well-known/ paths: routes/_http/static.ts): none here.
  for (const doc of ['oauth-authorization-server', 'oauth-protected-resource', 'openid-configuration']) {
    const noOAuth = (ctx: McpContext): void => { ctx.respond = false; sendNoOAuth(ctx.res) }
    r.get(`/mcp/.well-known/${doc}`, noOAuth)
    r.get(`/mcp/.well-known/${doc}/*rest`, noOAuth)
    for (const path of [`/mcp/.well-known/${doc}`, `/mcp/.well-known/${doc}/*rest`]) routeDoc(r, 'GET', path, { summary: 'No OAuth document here: the endpoint takes an API key', status: 404, data: noOAuthData })
  }
  r.get('/mcp/status', guard, async (ctx) => {
    const status = await sessions.status(ctx.state.endpoint, true)
    ctx.res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
    ctx.res.end(JSON.stringify(status))
  })
  routeDoc(r, 'GET', '/mcp/status', { summary: 'The endpoint: protocol, tool count, sessions and transports', data: statusData, errors: [429, 503] })
  return r
}
