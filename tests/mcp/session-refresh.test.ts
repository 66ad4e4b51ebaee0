// MCP client against real streamable-http servers (the SDK's own server in this process, no GET
// stream, like many FastMCP deployments): a server that does not announce tool list changes has its
// list read again every TOOLS_REFRESH_MS (manual clock); a reconnect reads the list anew; a server
// restarted on the same port (our session id unknown to it) gets a new session and the call is tried
// once more; a second failure is the call's error.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { ConfigService } from '../../lib/config/service.js'
import { AppError } from '../../lib/core/errors.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { TOOLS_REFRESH_MS } from '../../lib/mcp/connection.js'
import { McpManager } from '../../lib/mcp/manager.js'
import { ManualClock, quietLog, TestRegistry } from './helpers.js'

const DEFAULTS = join(process.cwd(), 'config', 'default.yaml')
const ctx = { scope: { userId: 't', isMaster: true, via: 'admin-test' as const, conversationId: 't' }, userPermission: 'master' as const, isMaster: true }

interface Fixture {
  url: string
  port: number
  tools: string[]
  /** initialize requests received */
  initializes: number
  /** tool calls answered */
  calls: string[]
  close(): Promise<void>
}

async function body (req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null')
}

/**
 * A streamable-http MCP server: one SDK transport per session, JSON answers, no GET stream; an unknown
 * session id gets the SDK's 404 'Session not found'. `listChanged` declares tools.listChanged;
 * `amnesia` forgets every session at once (each request after initialize meets a 404).
 */
async function startFixture (opts: { tools: string[]; port?: number; listChanged?: boolean; amnesia?: boolean }): Promise<Fixture> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const fx = { tools: [...opts.tools], initializes: 0, calls: [] as string[] }
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') { res.writeHead(405).end(); return }
      const msg = await body(req)
      const sid = req.headers['mcp-session-id']
      if (typeof sid === 'string') {
        const t = opts.amnesia ? undefined : sessions.get(sid)
        if (!t) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }))
          return
        }
        await t.handleRequest(req, res, msg)
        return
      }
      if (!isInitializeRequest(msg)) { res.writeHead(400).end(); return }
      fx.initializes++
      const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true, onsessioninitialized: (id) => { sessions.set(id, t) } })
      const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: opts.listChanged ? { listChanged: true } : {} } })
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: fx.tools.map((name) => ({ name, description: `tool ${name}`, inputSchema: { type: 'object' as const } })) }))
      server.setRequestHandler(CallToolRequestSchema, async (r) => {
        fx.calls.push(r.params.name)
        return { content: [{ type: 'text' as const, text: `${r.params.name} ran` }] }
      })
      await server.connect(t)
      await t.handleRequest(req, res, msg)
    })().catch((err: unknown) => { if (!res.headersSent) res.writeHead(500).end(String(err)) })
  })
  await new Promise<void>((resolve, reject) => { http.once('error', reject); http.listen(opts.port ?? 0, '127.0.0.1', () => resolve()) })
  const port = (http.address() as { port: number }).port
  return Object.assign(fx, {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: async () => {
      for (const t of sessions.values()) await t.close().catch(() => undefined)
      sessions.clear()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
      // as after a real restart, the client has seen its kept-alive sockets close
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
}

async function until (cond: () => boolean, ms = 5_000): Promise<void> {
  for (const end = Date.now() + ms; !cond() && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 20))
  expect(cond()).to.equal(true)
}

describe('MCP client: tool list refresh and lost streamable-http sessions', function () {
  this.timeout(30_000)
  let dir: string
  let clock: ManualClock
  let reg: TestRegistry
  let m: McpManager
  let infos: string[]
  const fixtures: Fixture[] = []
  const fixture = async (opts: Parameters<typeof startFixture>[0]): Promise<Fixture> => {
    const fx = await startFixture(opts)
    fixtures.push(fx)
    return fx
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lx-mcp-session-'))
    const bus = new EventBus()
    const config = new ConfigService({ defaultFile: DEFAULTS, userFile: join(dir, 'config.yaml'), bus, log: quietLog })
    clock = new ManualClock()
    reg = new TestRegistry()
    infos = []
    const log = { ...quietLog, info: (msg: string) => { infos.push(msg) } } as typeof quietLog
    m = new McpManager({ config, bus, log, clock, version: 'test', tools: () => reg, healthIntervalMs: 30_000, backoffBaseMs: 1000 })
    m.start()
  })
  afterEach(async () => {
    await m.stop()
    for (const fx of fixtures.splice(0)) await fx.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a server without tools.listChanged: a tool it adds appears after the refresh period', async () => {
    const fx = await fixture({ tools: ['alpha'] })
    const timers = clock.pending() // the health check
    expect((await m.add('fx', { type: 'http', url: fx.url })).status).to.equal('connected')
    expect(reg.get('mcp:fx:alpha')).to.not.equal(undefined)
    expect(clock.pending()).to.equal(timers + 1) // its refresh timer
    fx.tools.push('beta')
    clock.advance(TOOLS_REFRESH_MS - 1_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(reg.get('mcp:fx:beta')).to.equal(undefined)
    clock.advance(1_000)
    await until(() => reg.get('mcp:fx:beta') !== undefined)
    expect((await reg.call('mcp:fx:beta', {}, ctx)).content).to.deep.equal([{ type: 'text', text: 'beta ran' }])
    // a tool it drops leaves at the next refresh
    fx.tools.splice(0, 1)
    clock.advance(TOOLS_REFRESH_MS)
    await until(() => reg.get('mcp:fx:alpha') === undefined)
    expect(fx.initializes).to.equal(1)
    // its timer ends with the connection
    await m.disconnect('fx')
    expect(clock.pending()).to.equal(timers)
  })

  it('a server that declares tools.listChanged gets no refresh timer', async () => {
    const fx = await fixture({ tools: ['alpha'], listChanged: true })
    const timers = clock.pending()
    expect((await m.add('fx', { type: 'http', url: fx.url })).status).to.equal('connected')
    expect(clock.pending()).to.equal(timers)
  })

  it('a reconnect reads the tool list anew', async () => {
    const first = await fixture({ tools: ['alpha'] })
    await m.add('fx', { type: 'http', url: first.url })
    await first.close()
    const second = await fixture({ tools: ['alpha', 'gamma'], port: first.port })
    expect(reg.get('mcp:fx:gamma')).to.equal(undefined)
    expect((await m.reconnect('fx')).toolCount).to.equal(2)
    expect(reg.get('mcp:fx:gamma')).to.not.equal(undefined)
    expect(second.initializes).to.equal(1)
  })

  it('a restarted server (session unknown): the call opens a new session, succeeds, and the list is read again', async () => {
    const first = await fixture({ tools: ['alpha'] })
    await m.add('fx', { type: 'http', url: first.url })
    expect((await reg.call('mcp:fx:alpha', {}, ctx)).isError).to.equal(false)
    await first.close()
    const second = await fixture({ tools: ['alpha', 'delta'], port: first.port })
    const r = await reg.call('mcp:fx:alpha', {}, ctx)
    expect(r).to.deep.equal({ content: [{ type: 'text', text: 'alpha ran' }], isError: false })
    expect(second.initializes).to.equal(1)
    expect(second.calls).to.deep.equal(['alpha'])
    expect(m.get('fx').status).to.equal('connected')
    expect(reg.get('mcp:fx:delta')).to.not.equal(undefined)
    expect(infos.some((l) => /fx had lost our session/.test(l))).to.equal(true)
    // the new session serves the next calls as well
    expect((await reg.call('mcp:fx:delta', {}, ctx)).content).to.deep.equal([{ type: 'text', text: 'delta ran' }])
    expect(second.initializes).to.equal(1)
  })

  it('the new session fails too: the call fails with that error, tried once, no loop', async () => {
    const first = await fixture({ tools: ['alpha'] })
    await m.add('fx', { type: 'http', url: first.url })
    await first.close()
    const second = await fixture({ tools: ['alpha'], port: first.port, amnesia: true })
    let error: unknown
    try { await reg.call('mcp:fx:alpha', {}, ctx) } catch (err) { error = err }
    expect(error).to.be.instanceOf(AppError)
    expect((error as AppError).code).to.equal('CONNECTION_FAILED')
    expect((error as AppError).message).to.match(/new session/)
    expect(second.initializes).to.equal(1)
    expect(second.calls).to.deep.equal([])
  })
})
