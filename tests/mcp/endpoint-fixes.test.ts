// Our /mcp endpoint against what real MCP clients expect (issue 19, point 6): valid tool names,
// least-recently-used eviction at the session cap (300 SDK clients that never close), JSON 404 for
// the OAuth discovery paths, JSON-RPC parse errors, and tools/list_changed notifications.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { expect } from 'chai'
import { toolRegistryOf } from '../../lib/mcp/index.js'
import type { RegisteredTool, ToolRegistryApi, ToolSource } from '../../lib/tools/types.js'
import { MAX_SESSIONS } from '../../routes/_http/mcp-transport.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { echoSource, stdioEverything, TestRegistry } from './helpers.js'

const KEY = 'mcp-fixes-key-0123456789'
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': KEY }
/** The MCP tool-name rule, and the stricter OpenAI function-name rule the same aliases follow. */
const MCP_NAME = /^[a-zA-Z0-9_.-]{1,128}$/
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/

/** A tool source whose tools a test can change (and announce, as a real source does). */
function changingSource (): ToolSource & { set(names: string[]): void } {
  let tools: RegisteredTool[] = []
  const fns: Array<() => void> = []
  return {
    id: 'test-changing',
    kind: 'builtin',
    list: () => tools,
    onChange: (fn) => { fns.push(fn) },
    set (names) {
      tools = names.map((name) => ({ name, description: `tool ${name}`, category: 'test', source: 'builtin', inputSchema: { type: 'object' }, risk: 'low', dangerous: false, execute: async () => ({ content: [{ type: 'text', text: name }], isError: false }) }))
      for (const f of fns) f()
    }
  }
}

describe('Our MCP endpoint: what real clients expect', function () {
  this.timeout(120_000)
  let s: TestServer
  let reg: ToolRegistryApi
  const clients: Client[] = []

  before(async () => {
    s = await startTestServer()
    reg = toolRegistryOf(s.lx.rt) ?? ((s.lx.rt as unknown as { tools: ToolRegistryApi }).tools = new TestRegistry())
    reg.addSource(echoSource())
    await s.lx.rt.config.update({ mcp: { server: { apiKey: KEY } } })
  })
  afterEach(async () => { await Promise.all(clients.splice(0).map(async (c) => await c.close().catch(() => undefined))) })
  after(async () => { await s.close() })

  async function connect (): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const client = new Client({ name: 'fixes', version: '1' })
    client.onerror = () => { /* an evicted session's stream; asserted through calls */ }
    const transport = new StreamableHTTPClientTransport(new URL(`${s.base}/mcp/`), { requestInit: { headers: { 'X-API-Key': KEY } } })
    await client.connect(transport)
    clients.push(client)
    return { client, transport }
  }
  const status = async (): Promise<{ activeSessions: number }> => await (await fetch(`${s.base}/mcp/status`, { headers: { 'X-API-Key': KEY } })).json() as { activeSessions: number }

  it('OAuth discovery paths answer a JSON 404, not the dashboard page, with or without a key, also under /mcp', async () => {
    const paths = ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server/mcp', '/mcp/.well-known/oauth-protected-resource', '/mcp/.well-known/openid-configuration']
    for (const p of paths) {
      for (const headers of [{}, { 'X-API-Key': KEY }] as Array<Record<string, string>>) {
        const r = await fetch(`${s.base}${p}`, { headers })
        expect(r.status, p).to.equal(404)
        expect(r.headers.get('content-type'), p).to.match(/^application\/json/)
        const body = await r.json() as { error: string; error_description: string }
        expect(body.error, p).to.equal('not_found')
        expect(body.error_description).to.match(/API key/)
      }
    }
    // the dashboard's page still answers its own paths
    const page = await fetch(`${s.base}/channels`)
    expect(page.headers.get('content-type')).to.match(/text\/html/)
    await page.text()
  })

  it('a broken JSON body gets JSON-RPC -32700 Parse error; JSON that is not a message -32600', async () => {
    const post = async (path: string, body: string): Promise<{ status: number; json: { jsonrpc: string; id: null; error: { code: number; message: string } } }> => {
      const r = await fetch(`${s.base}${path}`, { method: 'POST', headers: MCP_HEADERS, body })
      expect(r.headers.get('content-type')).to.match(/^application\/json/)
      return { status: r.status, json: await r.json() as never }
    }
    for (const path of ['/mcp', '/mcp/', '/mcp/message?sessionId=x']) {
      for (const bad of ['{not json', '', '{"jsonrpc":"2.0",']) {
        const r = await post(path, bad)
        expect(r.status, `${path} ${bad}`).to.equal(400)
        expect(r.json).to.deep.include({ jsonrpc: '2.0', id: null })
        expect(r.json.error.code, `${path} ${bad}`).to.equal(-32700)
        expect(r.json.error.message).to.match(/^Parse error/)
      }
      for (const notMessage of ['42', '"text"', 'null', '[]', '[1,2]', 'true']) {
        const r = await post(path, notMessage)
        expect(r.status).to.equal(400)
        expect(r.json.error.code, `${path} ${notMessage}`).to.equal(-32600)
      }
    }
    // the key is still checked first: a wrong key never gets its body read
    const r = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, 'X-API-Key': 'wrong' }, body: '{not json' })
    expect(r.status).to.equal(401)
    await r.text()
  })

  it('a body past web.bodyLimitKb gets 413 JSON-RPC -32600 and is not read further; one within it is read', async () => {
    const limit = s.lx.rt.config.get().web.bodyLimitKb * 1024
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(limit) } })
    const r = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: MCP_HEADERS, body: big })
    expect(r.status).to.equal(413)
    const body = await r.json() as { error: { code: number; message: string } }
    expect(body.error.code).to.equal(-32600)
    expect(body.error.message).to.match(/larger than \d+ KB/)
    const small = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: MCP_HEADERS, body: '[1]' })
    expect(small.status, 'the server still answers').to.equal(400)
    await small.text()
  })

  it('every listed tool name follows the MCP rule (and OpenAI\'s); a registry name with colons is called by its alias', async () => {
    await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'ev', config: stdioEverything(), trust: true } })
    try {
      const { client } = await connect()
      const { tools } = await client.listTools()
      expect(tools.length).to.be.greaterThan(5)
      for (const t of tools) {
        expect(t.name, t.name).to.match(MCP_NAME)
        expect(t.name, t.name).to.match(OPENAI_NAME)
      }
      const names = tools.map((t) => t.name)
      expect(new Set(names).size).to.equal(names.length)
      expect(names).to.include('mcp_ev_get-sum')
      // tools that act in a QQ chat are not listed: for a client they could only fail
      expect(names).to.include('get_current_time')
      for (const name of ['send_message', 'speak', 'set_reminder', 'qq_mute_member', 'get_group_history']) expect(names, name).to.not.include(name)
      // the same alias the chat sends to models (one alias rule)
      const provider = s.lx.rt.optional('tools')?.provider as { aliasOf(n: string): string } | undefined
      if (provider) expect(provider.aliasOf('mcp:ev:get-sum')).to.equal('mcp_ev_get-sum')
      const r = await client.callTool({ name: 'mcp_ev_get-sum', arguments: { a: 2, b: 3 } })
      expect(r.isError).to.not.equal(true)
      expect(JSON.stringify(r.content)).to.include('5')
    } finally {
      await s.api('/api/mcp/servers/ev', { method: 'DELETE' })
    }
  })

  it('declares tools.listChanged and notifies open sessions when the exposed tools change', async () => {
    const source = changingSource()
    reg.addSource(source)
    try {
      const { client } = await connect()
      expect(client.getServerCapabilities()?.tools?.listChanged).to.equal(true)
      let notified = 0
      let waiter: (() => void) | undefined
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => { notified++; waiter?.() })
      const next = async (): Promise<void> => await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no tools/list_changed notification')), 10_000)
        waiter = () => { clearTimeout(timer); resolve() }
      })
      // the GET stream (server-to-client messages) is opened after initialization: wait until it is there
      await client.listTools()
      let got = next()
      source.set(['fresh_tool'])
      await got
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('fresh_tool')
      // the exposed list narrowed by configuration: notified too
      got = next()
      await s.lx.rt.config.update({ mcp: { server: { tools: ['fresh_tool'] } } })
      await got
      expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal(['fresh_tool'])
      got = next()
      await s.lx.rt.config.update({ mcp: { server: { tools: [] } } })
      await got
      expect(notified).to.be.at.least(3)
      // drawing turned on offers draw_image: notified, and listed
      const drawing = s.lx.rt.config.get().image.enabled
      got = next()
      await s.lx.rt.config.update({ image: { enabled: !drawing } })
      await got
      expect((await client.listTools()).tools.map((t) => t.name).includes('draw_image')).to.equal(!drawing)
      await s.lx.rt.config.update({ image: { enabled: drawing } })
      // the knowledge base's first document offers search_knowledge, its last one's removal withdraws it
      const kb = s.lx.rt.need('knowledge')
      expect(kb.size, 'an empty knowledge base to start from').to.equal(0)
      got = next()
      const doc = await kb.create({ title: 'MCP', content: 'list_changed when the knowledge base fills' })
      await got
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('search_knowledge')
      got = next()
      await kb.remove(doc.id)
      await got
      expect((await client.listTools()).tools.map((t) => t.name)).to.not.include('search_knowledge')
      // search_memory: offered to the endpoint's own user ('mcp') once it has a memory, withdrawn with the last
      const memory = s.lx.rt.need('memory')
      got = next()
      const m = await memory.add({ userId: 'mcp', content: 'likes list_changed notifications' })
      await got
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('search_memory')
      got = next()
      await memory.remove(m.id, true)
      await got
      expect((await client.listTools()).tools.map((t) => t.name)).to.not.include('search_memory')
    } finally {
      reg.removeSource(source.id)
      await s.lx.rt.config.update({ mcp: { server: { tools: [] } } })
    }
  })

  it(`300 SDK clients that never close do not lock the endpoint out: the least recently used of them are closed at ${MAX_SESSIONS}`, async () => {
    const opened: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = []
    for (let i = 0; i < 300; i += 20) {
      opened.push(...await Promise.all(Array.from({ length: 20 }, async () => await connect())))
    }
    expect((await status()).activeSessions).to.equal(MAX_SESSIONS)
    // the newest clients keep working
    for (const c of opened.slice(-5)) expect((await c.client.listTools()).tools.map((t) => t.name)).to.include('lx_echo')
    // the oldest were closed: their session is gone (404 from the server)
    let failed: unknown
    try { await opened[0]?.client.listTools() } catch (err) { failed = err }
    expect(String(failed)).to.match(/404|Session not found/)
    // a client in use is not the least recently used: it survives the next evictions
    const kept = opened[150] as (typeof opened)[number]
    await kept.client.ping()
    for (let i = 0; i < 60; i++) await connect()
    expect((await kept.client.listTools()).tools.length).to.be.greaterThan(0)
    expect((await status()).activeSessions).to.equal(MAX_SESSIONS)
  })
})
