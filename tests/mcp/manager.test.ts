// The MCP client manager against the real server-everything over stdio, SSE and streamable HTTP:
// connect, list, call, kill and reconnect (timers driven by a manual clock), persistence, import.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { ConfigService } from '../../lib/config/service.js'
import { AppError } from '../../lib/core/errors.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { McpManager } from '../../lib/mcp/manager.js'
import { parseMcpToolName } from '../../lib/mcp/tool-source.js'
import { ManualClock, quietLog, recordEvents, startEverything, stdioEverything, TestRegistry, type RemoteEverything } from './helpers.js'

const DEFAULTS = join(process.cwd(), 'config', 'default.yaml')
const ctx = { scope: { userId: 't', isMaster: true, via: 'admin-test' as const, conversationId: 't' }, userPermission: 'master' as const, isMaster: true }

interface Rig { dir: string; config: ConfigService; bus: EventBus; clock: ManualClock; reg: TestRegistry; m: McpManager }

function rig (dir = mkdtempSync(join(tmpdir(), 'lx-mcp-'))): Rig {
  const bus = new EventBus()
  const config = new ConfigService({ defaultFile: DEFAULTS, userFile: join(dir, 'config.yaml'), bus, log: quietLog })
  const clock = new ManualClock()
  const reg = new TestRegistry()
  const m = new McpManager({ config, bus, log: quietLog, clock, version: 'test', tools: () => reg, healthIntervalMs: 30_000, backoffBaseMs: 1000 })
  m.start()
  return { dir, config, bus, clock, reg, m }
}

async function expectReject (p: Promise<unknown>, code: string, text?: RegExp): Promise<AppError> {
  try { await p } catch (err) {
    expect(err).to.be.instanceOf(AppError)
    expect((err as AppError).code).to.equal(code)
    if (text) expect((err as AppError).message).to.match(text)
    return err as AppError
  }
  throw new Error(`expected a ${code} rejection`)
}

const textOf = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((c) => c.text ?? '').join('')

describe('MCP manager', function () {
  this.timeout(30_000)
  let r: Rig
  const remotes: RemoteEverything[] = []

  beforeEach(() => { r = rig() })
  afterEach(async () => {
    await r.m.stop()
    for (const x of remotes.splice(0)) await x.kill()
    rmSync(r.dir, { recursive: true, force: true })
  })

  it('connects a stdio server, lists its tools into the registry and calls one', async () => {
    const ev = recordEvents(r.bus)
    const view = await r.m.add('ev', stdioEverything())
    expect(view.status).to.equal('connected')
    expect(view.toolCount).to.be.greaterThan(5)
    expect(view.tools.map((t) => t.name)).to.include('echo')
    expect(ev.names().slice(0, 2)).to.deep.equal(['server-connecting', 'server-connected'])
    expect(ev.of('server-connected')[0]).to.include({ name: 'ev' }).and.to.have.property('timestamp')
    const tool = r.reg.get('mcp:ev:echo')
    expect(tool, 'registered as mcp:<server>:<tool>').to.not.equal(undefined)
    expect(tool?.server).to.equal('ev')
    expect(parseMcpToolName('mcp:ev:echo')).to.deep.equal({ server: 'ev', tool: 'echo' })
    const res = await r.reg.call('mcp:ev:echo', { message: 'hello mcp' }, ctx)
    expect(textOf(res)).to.equal('Echo: hello mcp')
    expect(res.isError).to.equal(false)
    const bad = await r.reg.call('mcp:ev:echo', { message: 42 }, ctx)
    expect(bad.isError).to.equal(true)
  })

  it('keeps the same tool name of two servers apart', async () => {
    await r.m.add('a', stdioEverything())
    await r.m.add('b', stdioEverything())
    expect(r.reg.get('mcp:a:echo')).to.not.equal(undefined)
    expect(r.reg.get('mcp:b:echo')).to.not.equal(undefined)
    expect(r.m.connectedCount()).to.equal(2)
  })

  it('notices a killed stdio server and reconnects with back-off', async () => {
    await r.m.add('ev', stdioEverything())
    const ev = recordEvents(r.bus)
    const pid = r.m.pidOf('ev')
    expect(pid).to.be.a('number')
    process.kill(pid as number, 'SIGKILL')
    const err = await ev.wait('server-error', 'ev')
    expect(String(err.error)).to.match(/connection closed/)
    expect(r.m.get('ev').status).to.equal('error')
    expect(r.reg.get('mcp:ev:echo'), 'tools leave the registry').to.equal(undefined)
    r.clock.advance(999)
    expect(ev.of('server-reconnecting')).to.have.length(0)
    r.clock.advance(1)
    await ev.wait('server-reconnecting', 'ev')
    await ev.wait('server-reconnected', 'ev')
    expect(r.m.get('ev').status).to.equal('connected')
    expect(r.m.pidOf('ev')).to.not.equal(pid)
    expect(textOf(await r.reg.call('mcp:ev:echo', { message: 'back' }, ctx))).to.equal('Echo: back')
  })

  it('connects over SSE and calls a tool', async () => {
    const srv = await startEverything('sse')
    remotes.push(srv)
    const v = await r.m.add('sse1', { type: 'sse', url: srv.url })
    expect(v.status, v.error).to.equal('connected')
    expect(textOf(await r.reg.call('mcp:sse1:echo', { message: 'over sse' }, ctx))).to.equal('Echo: over sse')
  })

  it('connects over streamable HTTP; the dead server is noticed (its event stream breaking, else the health check); back-off reconnects once it is back', async () => {
    const srv = await startEverything('streamableHttp')
    remotes.push(srv)
    const v = await r.m.add('web', { type: 'http', url: srv.url })
    expect(v.status, v.error).to.equal('connected')
    expect(textOf(await r.reg.call('mcp:web:echo', { message: 'over http' }, ctx))).to.equal('Echo: over http')
    const ev = recordEvents(r.bus)
    await srv.kill()
    r.clock.advance(30_000) // the health check interval
    await ev.wait('server-error', 'web')
    expect(r.m.get('web').status).to.equal('error')
    // the client's event stream breaks first as a rule (lib/mcp/connection.ts onTrouble); the health check otherwise
    expect(r.m.get('web').error).to.match(/transport error|health check failed/)
    // First retry fails (server still down), the next one (2 s later) succeeds once it is back.
    r.clock.advance(1000)
    await ev.wait('server-reconnecting', 'web')
    await ev.wait('server-error', 'web')
    remotes.push(await startEverything('streamableHttp', srv.port))
    r.clock.advance(2000)
    await ev.wait('server-reconnected', 'web')
    expect(r.m.get('web').status).to.equal('connected')
  })

  it('reports a missing command clearly and does not retry it', async () => {
    const v = await r.m.add('nope', { type: 'stdio', command: 'lx-no-such-command-xyz' })
    expect(v.status).to.equal('error')
    expect(v.error).to.match(/Command "lx-no-such-command-xyz" was not found on PATH/)
    const npx = await r.m.add('npxless', { type: 'npx', package: '@scope/pkg', env: { PATH: '/nonexistent' } })
    expect(npx.error).to.match(/Command "npx" was not found on PATH: install Node.js with npm/)
    const uvx = await r.m.add('uvxless', { command: 'uvx', args: ['mcp-server-time'], env: { PATH: '/nonexistent' } })
    expect(uvx.error).to.match(/"uvx" was not found.*install uv/)
    const before = r.clock.pending()
    r.clock.advance(120_000)
    expect(r.m.get('nope').reconnectAttempts).to.equal(0)
    expect(r.clock.pending()).to.equal(before)
  })

  it('times out a server that never answers (per-server timeoutMs)', async () => {
    const hung = { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 5000 }
    const p = r.m.connect('hung').catch((e: unknown) => e)
    expect(await p).to.be.instanceOf(AppError) // not found yet
    const added = r.m.add('hung', { ...hung, enabled: false })
    expect((await added).status).to.equal('disconnected')
    const attempt = r.m.connect('hung')
    await new Promise((resolve) => setImmediate(resolve))
    r.clock.advance(5000)
    await expectReject(attempt, 'TIMEOUT', /timed out after 5000 ms/)
    expect(r.m.get('hung').status).to.equal('error')
  })

  it('connect/disconnect move the server between its states', async () => {
    await r.m.add('ev', { ...stdioEverything(), enabled: false })
    expect(r.m.get('ev').status).to.equal('disconnected')
    const c = await r.m.connect('ev')
    expect(c.status).to.equal('connected')
    await expectReject(r.m.connect('ev'), 'ALREADY_CONNECTED')
    const pid = r.m.pidOf('ev') as number
    const d = await r.m.disconnect('ev')
    expect(d.status).to.equal('disconnected')
    expect(r.reg.get('mcp:ev:echo')).to.equal(undefined)
    // The child process is gone and no reconnect is scheduled after a manual disconnect.
    expect(() => process.kill(pid, 0)).to.throw()
    r.clock.advance(120_000)
    expect(r.m.get('ev').status).to.equal('disconnected')
    await expectReject(r.m.connect('missing'), 'SERVER_NOT_FOUND', /Server not found/)
  })

  it('stores servers in config mcp.servers with secrets masked on read, and loads them at start', async () => {
    const v = await r.m.add('ev', { ...stdioEverything(), env: { API_KEY: 'secret-value-123456' } })
    expect((v.config as { env: Record<string, string> }).env.API_KEY).to.equal('sec****3456')
    expect(readFileSync(join(r.dir, 'config.yaml'), 'utf8')).to.include('secret-value-123456')
    // A PUT that sends the masked value back keeps the stored secret.
    const u = await r.m.update('ev', { ...stdioEverything(), env: { API_KEY: 'sec****3456' }, timeoutMs: 20000 })
    expect(u.status).to.equal('connected')
    expect((r.config.get().mcp.servers.ev as { env: Record<string, string> }).env.API_KEY).to.equal('secret-value-123456')
    expect(r.config.get().mcp.servers.ev?.timeoutMs).to.equal(20000)
    await r.m.stop()
    const again = rig(r.dir)
    try {
      expect(again.m.names()).to.deep.equal(['ev'])
      const ev = recordEvents(again.bus)
      await ev.wait('server-connected', 'ev')
      expect(again.reg.get('mcp:ev:echo')).to.not.equal(undefined)
    } finally {
      await again.m.stop()
    }
  })

  it('deletes servers (not built-in ones) and follows hand edits of the config', async () => {
    await r.m.add('ev', { ...stdioEverything(), enabled: false })
    const ev = recordEvents(r.bus)
    await r.m.remove('ev')
    expect(ev.names()).to.include('server-removed')
    expect(r.config.get().mcp.servers).to.not.have.property('ev')
    await expectReject(r.m.remove('ev'), 'SERVER_NOT_FOUND')
    r.m.registerBuiltin('core', { ...stdioEverything(), enabled: false })
    expect(r.m.get('core').isBuiltin).to.equal(true)
    await expectReject(r.m.remove('core'), 'INVALID_ARGS', /^Cannot delete builtin server$/)
    await expectReject(r.m.update('core', stdioEverything()), 'INVALID_ARGS', /^Cannot update builtin server$/)
    // A server added by editing the configuration is picked up.
    await r.config.update({ mcp: { servers: { handmade: stdioEverything() } } })
    await ev.wait('server-connected', 'handmade')
    await r.config.update({ mcp: { servers: { handmade: null } } })
    await ev.wait('server-removed', 'handmade')
    expect(r.m.names()).to.deep.equal(['core'])
  })

  it('validates every server type', async () => {
    await expectReject(r.m.add('', stdioEverything()), 'INVALID_ARGS', /^name is required$/)
    await expectReject(r.m.add('a:b', stdioEverything()), 'INVALID_ARGS', /name must be/)
    await expectReject(r.m.add('x', { type: 'websocket', url: 'ws://x' }), 'INVALID_ARGS', /^Unsupported server type: websocket$/)
    await expectReject(r.m.add('x', { type: 'stdio' }), 'INVALID_ARGS', /command is required/)
    await expectReject(r.m.add('x', { type: 'npx' }), 'INVALID_ARGS', /package is required/)
    await expectReject(r.m.add('x', { type: 'sse' }), 'INVALID_ARGS', /url is required/)
    await expectReject(r.m.add('x', { type: 'http', url: 'ftp://x' }), 'INVALID_ARGS', /url must be a valid http\(s\) URL/)
    await expectReject(r.m.add('x', { type: 'stdio', command: 'node', args: 'no' }), 'INVALID_ARGS', /args/)
    await expectReject(r.m.add('x', { type: 'stdio', command: 'node', env: { A: 1 } }), 'INVALID_ARGS', /values must be strings/)
    await expectReject(r.m.add('x', { type: 'stdio', command: 'node', extra: true }), 'INVALID_ARGS')
    await expectReject(r.m.add('x', {}), 'INVALID_ARGS', /needs a type, a command or a url/)
    await expectReject(r.m.add('x', 'string'), 'INVALID_ARGS', /config must be an object/)
    await r.m.add('dup', { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', enabled: false })
    await expectReject(r.m.add('dup', { type: 'npm', package: 'x', enabled: false }), 'CONFLICT')
    expect(r.m.names()).to.deep.equal(['dup'])
  })

  it('imports the desktop-client mcpServers format', async () => {
    const res = await r.m.importServers({
      ev: { command: process.execPath, args: [stdioEverything().args as string[]].flat() },
      remote: { url: 'http://127.0.0.1:9/mcp', disabled: true },
      legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse', disabled: true },
      broken: { args: ['x'] },
      'bad name': { command: 'node' }
    })
    expect(res).to.include({ success: 3, failed: 2, total: 5 })
    expect(res.errors.map((e) => e.name)).to.deep.equal(['broken', 'bad name'])
    expect(r.m.get('remote')).to.include({ type: 'streamable-http', status: 'disconnected', enabled: false })
    expect(r.m.get('legacy').type).to.equal('sse')
    expect(Object.keys(r.config.get().mcp.servers).sort()).to.deep.equal(['ev', 'legacy', 'remote'])
    const ev = recordEvents(r.bus)
    await ev.wait('server-connected', 'ev')
    const again = await r.m.importServers({ ev: { command: 'node' } })
    expect(again).to.include({ success: 0, failed: 1, total: 1 })
    expect(again.errors[0]?.error).to.match(/already exists/)
  })

  it('lists and reads resources, resource templates and prompts', async () => {
    await r.m.add('ev', stdioEverything())
    const resources = await r.m.resources()
    expect(resources.length).to.be.greaterThan(0)
    expect(resources[0]).to.have.property('serverName', 'ev')
    const uri = String(resources[0]?.uri)
    const read = await r.m.readResource('ev', uri) as { contents: Array<{ uri: string }> }
    expect(read.contents[0]?.uri).to.equal(uri)
    const templates = await r.m.resourceTemplates()
    expect(templates.length).to.be.greaterThan(0)
    expect(templates[0]).to.have.property('uriTemplate')
    const prompts = await r.m.prompts()
    expect(prompts.map((p) => p.name)).to.include('args-prompt')
    const got = await r.m.getPrompt('ev', 'args-prompt', { city: 'Hangzhou' }) as { messages: Array<{ content: { text: string } }> }
    expect(got.messages[0]?.content.text).to.include('Hangzhou')
    await expectReject(r.m.getPrompt('ev', 'no-such-prompt', {}), 'INVALID_ARGS')
    await expectReject(r.m.readResource('nope', uri), 'SERVER_NOT_FOUND')
  })
})
