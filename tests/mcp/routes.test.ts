// /api/mcp (variant B + A's connect/disconnect) and /api/skills/mcp/servers* (docs/api.md, mcp)
// through real HTTP, with the real server-everything over stdio.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'
import { recordEvents, stdioEverything } from './helpers.js'

describe('MCP management routes', function () {
  this.timeout(60_000)
  let s: TestServer

  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  const post = (path: string, json?: unknown) => s.api(path, { method: 'POST', ...(json === undefined ? {} : { json }) })

  it('needs the dashboard login', async () => {
    const r = await fetch(`${s.base}/api/mcp/servers`)
    expect(r.status).to.equal(401)
    expect(await r.json()).to.include({ code: -1, data: null })
  })

  it('adds a stdio server (201, events), lists, gets, lists its tools; secrets masked', async () => {
    const ev = recordEvents(s.lx.rt.bus)
    const empty = await s.api('/api/mcp/servers')
    expect(empty.status).to.equal(200)
    expect(empty.body).to.deep.equal({ code: 0, data: [], message: 'ok' })
    const r = await post('/api/mcp/servers', { name: 'ev', config: { ...stdioEverything(), env: { TOKEN: 'very-secret-token' } } })
    expect(r.status).to.equal(201)
    expect(r.body.code).to.equal(0)
    expect(r.body.data).to.include({ name: 'ev', status: 'connected', type: 'stdio', isBuiltin: false })
    expect(r.body.data.config.env.TOKEN).to.equal('ver****oken')
    expect(ev.names().slice(0, 2)).to.deep.equal(['server-connecting', 'server-connected'])
    const list = await s.api('/api/mcp/servers')
    expect(list.body.data.map((x: { name: string }) => x.name)).to.deep.equal(['ev'])
    expect(list.text).to.not.include('very-secret-token')
    const one = await s.api('/api/mcp/servers/ev')
    expect(one.body.data).to.include({ name: 'ev', status: 'connected' })
    expect(one.body.data.toolCount).to.equal(one.body.data.tools.length)
    const tools = await s.api('/api/mcp/servers/ev/tools')
    expect(tools.body.data.map((t: { name: string }) => t.name)).to.include('echo')
    expect(tools.body.data[0]).to.have.keys('name', 'description', 'inputSchema')
    expect(s.lx.rt.need('mcp').count()).to.equal(1)
    const cfg = await s.api('/api/config/mcp')
    expect(cfg.text).to.not.include('very-secret-token')
  })

  it('refuses bad input to POST /servers with the documented messages', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ config: stdioEverything() }, 400, /^name is required$/],
      [{ name: '', config: stdioEverything() }, 400, /^name is required$/],
      [{ name: 'x', config: { type: 'ws', url: 'ws://a' } }, 400, /^Unsupported server type: ws$/],
      [{ name: 'x', config: { type: 'stdio' } }, 400, /command is required/],
      [{ name: 'x', config: { type: 'npm' } }, 400, /package is required/],
      [{ name: 'x', config: { type: 'streamable-http', url: 'nope' } }, 400, /url must be a valid/],
      [{ name: 'x' }, 400, /^config is required$/],
      [{ name: 'x/y', config: stdioEverything() }, 400, /name must be/],
      [[1, 2], 400, /body must be a JSON object/],
      [{ name: 'ev', config: stdioEverything() }, 409, /already exists/]
    ]
    for (const [json, status, msg] of cases) {
      const r = await post('/api/mcp/servers', json)
      expect(r.status, JSON.stringify(json)).to.equal(status)
      expect(r.body.code).to.equal(-1)
      expect(r.body.data).to.equal(null)
      expect(r.body.message).to.match(msg)
    }
    const broken = await s.api('/api/mcp/servers', { method: 'POST', body: '{bad', headers: { 'Content-Type': 'application/json' } })
    expect(broken.status).to.equal(400)
    expect(broken.body.code).to.equal(-1)
  })

  it('answers 404 "Server not found" for unknown servers in both styles', async () => {
    const b = await s.api('/api/mcp/servers/ghost')
    expect(b.status).to.equal(404)
    expect(b.body).to.deep.equal({ code: -1, data: null, message: 'Server not found' })
    for (const path of ['/api/mcp/servers/ghost/tools', '/api/mcp/servers/ghost/reconnect']) {
      const r = await s.api(path, { method: path.endsWith('reconnect') ? 'POST' : 'GET' })
      expect(r.status).to.equal(404)
    }
    const a = await post('/api/mcp/servers/ghost/connect')
    expect(a.status).to.equal(404)
    expect(a.body).to.include({ success: false, code: 'SERVER_NOT_FOUND' })
    expect((await s.api('/api/mcp/servers/ghost', { method: 'DELETE' })).status).to.equal(404)
    expect((await s.api('/api/mcp/servers/ghost', { method: 'PUT', json: { config: stdioEverything() } })).status).to.equal(404)
  })

  it('variant A connect/disconnect: ALREADY_CONNECTED 409, states, CONNECTION_FAILED', async () => {
    const again = await post('/api/mcp/servers/ev/connect')
    expect(again.status).to.equal(409)
    expect(again.body).to.include({ success: false, code: 'ALREADY_CONNECTED' })
    const d = await post('/api/mcp/servers/ev/disconnect')
    expect(d.status).to.equal(200)
    expect(d.body).to.deep.equal({ success: true, data: { name: 'ev', status: 'disconnected' } })
    const c = await post('/api/mcp/servers/ev/connect')
    expect(c.status).to.equal(200)
    expect(c.body.success).to.equal(true)
    expect(c.body.data).to.include({ name: 'ev', status: 'connected' })
    expect(c.body.data.toolCount).to.be.greaterThan(0)
    const wrongMethod = await s.api('/api/mcp/servers/ev/connect')
    expect(wrongMethod.status).to.equal(405)
    expect(wrongMethod.body.success).to.equal(false)
    await post('/api/mcp/servers', { name: 'missing', config: { type: 'stdio', command: 'lx-missing-cmd-xyz' } })
    const f = await post('/api/mcp/servers/missing/connect')
    expect(f.status).to.equal(502)
    expect(f.body).to.include({ success: false, code: 'CONNECTION_FAILED' })
    expect(f.body.message).to.match(/not found on PATH/)
    const view = await s.api('/api/mcp/servers/missing')
    expect(view.body.data).to.include({ status: 'error' })
  })

  it('reconnect answers { success: true } and emits reconnecting, reconnected', async () => {
    const ev = recordEvents(s.lx.rt.bus)
    const r = await post('/api/mcp/servers/ev/reconnect')
    expect(r.status).to.equal(200)
    expect(r.body.data).to.include({ success: true })
    expect(ev.names()).to.include.members(['server-reconnecting', 'server-reconnected'])
    const bad = await post('/api/mcp/servers/missing/reconnect')
    expect(bad.status).to.equal(502)
    expect(bad.body.code).to.equal(-1)
  })

  it('PUT /servers/:name needs config, keeps masked secrets, refuses built-in servers', async () => {
    const none = await s.api('/api/mcp/servers/ev', { method: 'PUT', json: {} })
    expect(none.status).to.equal(400)
    expect(none.body.message).to.equal('config is required')
    const ok = await s.api('/api/mcp/servers/ev', { method: 'PUT', json: { config: { ...stdioEverything(), env: { TOKEN: 'ver****oken' }, timeoutMs: 15000 } } })
    expect(ok.status).to.equal(200)
    expect(ok.body.data.status).to.equal('connected')
    expect((s.lx.rt.config.get().mcp.servers.ev as { env: Record<string, string> }).env.TOKEN).to.equal('very-secret-token')
    const bad = await s.api('/api/mcp/servers/ev', { method: 'PUT', json: { config: { type: 'stdio' } } })
    expect(bad.status).to.equal(400)
    s.lx.rt.need('mcp').registerBuiltin('builtin-x', { ...stdioEverything(), enabled: false })
    const list = await s.api('/api/mcp/servers')
    expect(list.body.data.find((x: { name: string }) => x.name === 'builtin-x').isBuiltin).to.equal(true)
    const up = await s.api('/api/mcp/servers/builtin-x', { method: 'PUT', json: { config: stdioEverything() } })
    expect(up.status).to.equal(400)
    expect(up.body.message).to.equal('Cannot update builtin server')
    const del = await s.api('/api/mcp/servers/builtin-x', { method: 'DELETE' })
    expect(del.status).to.equal(400)
    expect(del.body.message).to.equal('Cannot delete builtin server')
    const askill = await s.api('/api/skills/mcp/servers/builtin-x', { method: 'DELETE' })
    expect(askill.status).to.equal(400)
  })

  it('POST /import takes the desktop-client format', async () => {
    const bad = await post('/api/mcp/import', { mcpServers: [] })
    expect(bad.status).to.equal(400)
    expect(bad.body.message).to.equal('mcpServers must be an object')
    expect((await post('/api/mcp/import', {})).status).to.equal(400)
    const r = await post('/api/mcp/import', { mcpServers: { imp: { url: 'http://127.0.0.1:9/mcp', disabled: true }, junk: { type: 'carrier-pigeon' } } })
    expect(r.status).to.equal(200)
    expect(r.body.data).to.deep.equal({ success: 1, failed: 1, total: 2, errors: [{ name: 'junk', error: 'Unsupported server type: carrier-pigeon' }] })
  })

  it('resources, templates, resources/read, prompts, prompts/get', async () => {
    const res = await s.api('/api/mcp/resources')
    expect(res.body.code).to.equal(0)
    expect(res.body.data.length).to.be.greaterThan(0)
    const first = res.body.data[0] as { uri: string; serverName: string }
    expect(first.serverName).to.equal('ev')
    const tpl = await s.api('/api/mcp/resources/templates')
    expect(tpl.body.data[0]).to.have.property('uriTemplate')
    const read = await post('/api/mcp/resources/read', { serverName: 'ev', uri: first.uri })
    expect(read.status).to.equal(200)
    expect(read.body.data.contents[0].uri).to.equal(first.uri)
    expect((await post('/api/mcp/resources/read', { uri: first.uri })).body.message).to.equal('serverName is required')
    expect((await post('/api/mcp/resources/read', { serverName: 'ev' })).body.message).to.equal('uri is required')
    expect((await post('/api/mcp/resources/read', { serverName: 'ghost', uri: 'x://y' })).status).to.equal(404)
    const prompts = await s.api('/api/mcp/prompts')
    expect(prompts.body.data.map((p: { name: string }) => p.name)).to.include('args-prompt')
    const got = await post('/api/mcp/prompts/get', { serverName: 'ev', name: 'args-prompt', args: { city: 'Suzhou' } })
    expect(got.status).to.equal(200)
    expect(JSON.stringify(got.body.data)).to.include('Suzhou')
    const missing = await post('/api/mcp/prompts/get', { serverName: 'ev' })
    expect(missing.status).to.equal(400)
    expect(missing.body.message).to.equal('name is required')
    expect((await post('/api/mcp/prompts/get', { name: 'x' })).body.message).to.equal('serverName is required')
    expect((await post('/api/mcp/prompts/get', { serverName: 'ev', name: 'args-prompt', args: [1] })).status).to.equal(400)
    expect((await post('/api/mcp/prompts/get', { serverName: 'ev', name: 'no-such' })).status).to.equal(400)
  })

  it('/api/skills/mcp/servers*: variant B rows and A connect/disconnect/reload', async () => {
    const ev = recordEvents(s.lx.rt.bus)
    const list = await s.api('/api/skills/mcp/servers')
    expect(list.body.code).to.equal(0)
    expect(list.body.data.map((x: { name: string }) => x.name)).to.include('ev')
    const none = await s.api('/api/skills/mcp/servers/ghost')
    expect(none.status).to.equal(404)
    expect(none.body.message).to.equal('Server not found')
    const noName = await post('/api/skills/mcp/servers', { config: stdioEverything() })
    expect(noName.status).to.equal(400)
    expect(noName.body.message).to.equal('name is required')
    const add = await post('/api/skills/mcp/servers', { name: 'sk', config: stdioEverything() })
    expect(add.status).to.equal(201)
    expect(add.body.data.status).to.equal('connected')
    expect(ev.names()).to.include.members(['server-connecting', 'server-connected'])
    const rec = await post('/api/skills/mcp/servers/sk/reconnect')
    expect(rec.body.data.success).to.equal(true)
    const disc = await post('/api/skills/mcp/servers/sk/disconnect')
    expect(disc.body).to.deep.equal({ success: true, data: { name: 'sk', status: 'disconnected' } })
    const conn = await post('/api/skills/mcp/servers/sk/connect')
    expect(conn.body.success).to.equal(true)
    expect((await post('/api/skills/mcp/servers/sk/connect')).status).to.equal(409)
    const reload = await post('/api/skills/mcp/servers/sk/reload')
    expect(reload.body).to.include({ success: true })
    expect(reload.body.data.status).to.equal('connected')
    expect((await post('/api/skills/mcp/servers/ghost/reload')).body).to.include({ success: false, code: 'SERVER_NOT_FOUND' })
    const del = await s.api('/api/skills/mcp/servers/sk', { method: 'DELETE' })
    expect(del.body).to.deep.equal({ code: 0, data: { success: true }, message: 'ok' })
    expect(ev.names()).to.include('server-removed')
  })

  it('DELETE /api/mcp/servers/:name removes the server and its stored config', async () => {
    const del = await s.api('/api/mcp/servers/ev', { method: 'DELETE' })
    expect(del.status).to.equal(200)
    expect(del.body.data).to.deep.equal({ success: true })
    expect(s.lx.rt.config.get().mcp.servers).to.not.have.property('ev')
    expect((await s.api('/api/mcp/servers/ev')).status).to.equal(404)
  })
})
