// Our own /mcp endpoint with the SDK's real Client over streamable HTTP and the legacy SSE
// transport, with and without the API key (docs/api.md, MCP endpoint).
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { toolRegistryOf } from '../../lib/mcp/index.js'
import type { ToolRegistryApi } from '../../lib/tools/types.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { echoSource, stdioEverything, TestRegistry } from './helpers.js'

const KEY = 'mcp-test-key-0123456789'
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }

describe('Our MCP endpoint /mcp', function () {
  this.timeout(60_000)
  let s: TestServer
  let reg: ToolRegistryApi
  const clients: Client[] = []
  const status = async (): Promise<Record<string, unknown>> => await (await fetch(`${s.base}/mcp/status`, { headers: { 'X-API-Key': KEY } })).json() as Record<string, unknown>

  before(async () => {
    s = await startTestServer()
    const rt = s.lx.rt
    // The real registry when the tools domain runs; otherwise a minimal one with the same surface.
    reg = toolRegistryOf(rt) ?? ((rt as unknown as { tools: ToolRegistryApi }).tools = new TestRegistry())
    reg.addSource(echoSource())
  })
  afterEach(async () => { for (const c of clients.splice(0)) await c.close().catch(() => undefined) })
  after(async () => { await s.close() })

  async function streamableClient (headers: Record<string, string>): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const client = new Client({ name: 'test', version: '1' })
    const transport = new StreamableHTTPClientTransport(new URL(`${s.base}/mcp/`), { requestInit: { headers } })
    await client.connect(transport)
    clients.push(client)
    return { client, transport }
  }

  it('is off (503, says how to turn it on) until mcp.server.apiKey is set', async () => {
    for (const [method, path] of [['POST', '/mcp/'], ['GET', '/mcp/status'], ['GET', '/mcp/sse']] as const) {
      const r = await fetch(`${s.base}${path}`, { method, headers: MCP_HEADERS, ...(method === 'POST' ? { body: JSON.stringify(INIT) } : {}) })
      expect(r.status, path).to.equal(503)
      const body = await r.json() as { error: { message: string } }
      expect(body.error.message).to.match(/mcp\.server\.apiKey/)
    }
    await s.lx.rt.config.update({ mcp: { server: { apiKey: KEY } } })
  })

  it('does not need the dashboard login but its own key: 401 without or with a wrong key', async () => {
    const variants: Array<Record<string, string>> = [{}, { Authorization: 'Bearer wrong-key' }, { 'X-API-Key': `${KEY}x` }, { Authorization: `Bearer ${s.token}` }]
    for (const headers of variants) {
      const r = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) })
      expect(r.status, JSON.stringify(headers)).to.equal(401)
      expect(r.headers.get('www-authenticate')).to.equal('Bearer')
    }
    let failed: unknown
    try { await streamableClient({}) } catch (err) { failed = err }
    expect(String(failed)).to.match(/401|Unauthorized/)
    const status = await fetch(`${s.base}/mcp/status`)
    expect(status.status).to.equal(401)
  })

  it('streamable HTTP with the key: lists and calls tools through the registry as an MCP caller', async () => {
    const { client, transport } = await streamableClient({ Authorization: `Bearer ${KEY}` })
    expect(transport.sessionId).to.be.a('string')
    expect(client.getServerVersion()?.name).to.equal('lingxi-plugin')
    const { tools } = await client.listTools()
    const echo = tools.find((t) => t.name === 'lx_echo')
    expect(echo?.inputSchema).to.deep.include({ type: 'object', required: ['text'] })
    const r = await client.callTool({ name: 'lx_echo', arguments: { text: 'hi' } })
    expect(r.content).to.deep.equal([{ type: 'text', text: 'echo:hi' }])
    expect(r.isError).to.equal(false)
    if (reg instanceof TestRegistry) {
      const call = reg.calls.at(-1)
      expect(call?.ctx.scope.via).to.equal('mcp')
      expect(call?.ctx.isMaster).to.equal(false)
      expect(call?.ctx.userPermission).to.equal('admin')
    }
    const missing = await client.callTool({ name: 'no_such_tool', arguments: {} })
    expect(missing.isError).to.equal(true)
  })

  it('accepts the key in X-API-Key too, and /mcp/status reports sessions', async () => {
    const { client } = await streamableClient({ 'X-API-Key': KEY })
    await client.ping()
    const r = await fetch(`${s.base}/mcp/status`, { headers: { 'X-API-Key': KEY } })
    expect(r.status).to.equal(200)
    const st = await r.json() as Record<string, unknown>
    expect(st).to.include({ name: 'lingxi-plugin', version: s.lx.rt.version, protocolVersion: '2025-11-25' })
    expect(st.activeSessions).to.be.at.least(1)
    expect(st.toolCount).to.be.at.least(1)
  })

  it('session rules: DELETE answers 204, a closed or unknown session 404, GET needs the header', async () => {
    const init = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, Authorization: `Bearer ${KEY}` }, body: JSON.stringify(INIT) })
    expect(init.status).to.equal(200)
    const sid = init.headers.get('mcp-session-id') as string
    expect(sid).to.be.a('string')
    await init.text()
    const auth = { Authorization: `Bearer ${KEY}` }
    const noHeader = await fetch(`${s.base}/mcp/`, { headers: { ...auth, Accept: 'text/event-stream' } })
    expect(noHeader.status).to.equal(400)
    const notInit = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
    expect(notInit.status).to.equal(400)
    await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth, 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
    const ac = new AbortController()
    const stream = await fetch(`${s.base}/mcp/`, { headers: { ...auth, Accept: 'text/event-stream', 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' }, signal: ac.signal })
    expect(stream.status).to.equal(200)
    expect(stream.headers.get('content-type')).to.match(/^text\/event-stream/)
    ac.abort()
    const del = await fetch(`${s.base}/mcp/`, { method: 'DELETE', headers: { ...auth, 'Mcp-Session-Id': sid } })
    expect(del.status).to.equal(204)
    const reuse = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth, 'Mcp-Session-Id': sid }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) })
    expect(reuse.status).to.equal(404)
    const unknown = await fetch(`${s.base}/mcp/`, { method: 'DELETE', headers: { ...auth, 'Mcp-Session-Id': 'nope' } })
    expect(unknown.status).to.equal(404)
    const badJson = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth }, body: '{not json' })
    expect(badJson.status).to.equal(400)
  })

  it('terminateSession() from the SDK client ends the session', async () => {
    const { transport } = await streamableClient({ Authorization: `Bearer ${KEY}` })
    const before = (await status()).activeSessions as number
    await transport.terminateSession()
    expect((await status()).activeSessions).to.equal(before - 1)
  })

  it('legacy SSE transport with the key; refused without it', async () => {
    const client = new Client({ name: 'sse-test', version: '1' })
    const headers = { Authorization: `Bearer ${KEY}` }
    const transport = new SSEClientTransport(new URL(`${s.base}/mcp/sse`), {
      requestInit: { headers },
      eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) }
    })
    await client.connect(transport)
    clients.push(client)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).to.include('lx_echo')
    const r = await client.callTool({ name: 'lx_echo', arguments: { text: 'sse' } })
    expect(r.content).to.deep.equal([{ type: 'text', text: 'echo:sse' }])
    const st = (await status()) as { sessions: { sse: number } }
    expect(st.sessions.sse).to.equal(1)

    const anon = new Client({ name: 'anon', version: '1' })
    let failed: unknown
    try { await anon.connect(new SSEClientTransport(new URL(`${s.base}/mcp/sse`))) } catch (err) { failed = err }
    expect(failed).to.not.equal(undefined)
    const noSession = await fetch(`${s.base}/mcp/message`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) })
    expect(noSession.status).to.equal(400)
    const unknown = await fetch(`${s.base}/mcp/message?sessionId=nope`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) })
    expect(unknown.status).to.equal(404)
  })

  it('exposes only the configured tools (mcp.server.tools) and MCP servers\' tools under valid aliased names', async () => {
    // Trusted: an untrusted server's tools are refused to MCP clients (tests/security/tool-trust.test.ts).
    await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'ev', config: stdioEverything(), trust: true } })
    const { client } = await streamableClient({ Authorization: `Bearer ${KEY}` })
    const all = (await client.listTools()).tools.map((t) => t.name)
    expect(all).to.include.members(['lx_echo', 'mcp_ev_echo'])
    const proxied = await client.callTool({ name: 'mcp_ev_echo', arguments: { message: 'via proxy' } })
    expect(proxied.content).to.deep.equal([{ type: 'text', text: 'Echo: via proxy' }])
    await s.lx.rt.config.update({ mcp: { server: { tools: ['mcp:ev:*'] } } })
    const only = (await client.listTools()).tools.map((t) => t.name)
    expect(only).to.not.include('lx_echo')
    expect(only).to.include('mcp_ev_echo')
    const refused = await client.callTool({ name: 'lx_echo', arguments: { text: 'x' } })
    expect(refused.isError).to.equal(true)
    expect(JSON.stringify(refused.content)).to.include('not available')
    await s.lx.rt.config.update({ mcp: { server: { tools: [] } } })
  })

  it('names the message path with the mount prefix when mounted into the host server (/lingxi)', async () => {
    const handler = s.lx.web.app.callback()
    // What express.use('/lingxi', ...) does: strips the prefix from url, keeps originalUrl.
    const host = createServer((req, res) => {
      (req as typeof req & { originalUrl?: string }).originalUrl = req.url
      req.url = (req.url ?? '').replace(/^\/lingxi/, '') || '/'
      void handler(req, res)
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const ac = new AbortController()
    try {
      const r = await fetch(`http://127.0.0.1:${(host.address() as AddressInfo).port}/lingxi/mcp/sse`, { headers: { 'X-API-Key': KEY }, signal: ac.signal })
      expect(r.status).to.equal(200)
      const reader = (r.body as ReadableStream<Uint8Array>).getReader()
      let text = ''
      while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value)
      expect(text).to.match(/^event: endpoint\ndata: \/lingxi\/mcp\/message\?sessionId=[\w-]+/)
    } finally {
      ac.abort()
      host.closeAllConnections()
      await new Promise<void>((resolve) => host.close(() => resolve()))
    }
  })
})
