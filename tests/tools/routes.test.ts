// The tools group (docs/api.md) through real HTTP: variant B (style B), variant A (style A), deprecated endpoints.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'
import { fakeSource, fakeTool, frames } from './helpers.js'

describe('tools: HTTP routes', function () {
  let s: TestServer
  before(async () => {
    s = await startTestServer()
    s.lx.rt.need('tools').registry.addSource(fakeSource('test-mcp', [
      fakeTool('mcp:web:fetch', { source: 'mcp', server: 'web', category: 'mcp', inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } }),
      fakeTool('rm_rf', { category: 'fake', dangerous: true, risk: 'high' }),
      fakeTool('boom', { category: 'fake', execute: async () => { throw new Error('kaboom') } })
    ], 'mcp'))
  })
  after(async () => { await s.close() })

  const api = (path: string, method = 'GET', json?: unknown) => s.api(`/api/tools${path}`, { method, ...(json === undefined ? {} : { json }) })

  describe('variant B listings and built-in configuration', () => {
    it('GET /list gives every tool with identity, including disabled ones', async () => {
      await s.lx.rt.config.update({ tools: { disabledTools: ['boom'] } })
      const r = await api('/list')
      expect(r.status).to.equal(200)
      expect(r.body.code).to.equal(0)
      const names = r.body.data.map((t: { name: string }) => t.name)
      expect(names).to.include.members(['get_current_time', 'get_user_info', 'send_message', 'mcp:web:fetch', 'boom'])
      const mcp = r.body.data.find((t: { name: string }) => t.name === 'mcp:web:fetch')
      expect(mcp.identity).to.include({ source: 'mcp', server: 'web' })
      expect(mcp.identity.modelName).to.match(/^[a-zA-Z0-9_-]{1,64}$/)
      expect(r.body.data.find((t: { name: string }) => t.name === 'boom').enabled).to.equal(false)
      await s.lx.rt.config.update({ tools: { disabledTools: [] } })
    })

    it('GET /builtin, /builtin/list and /builtin/categories', async () => {
      const a = await api('/builtin')
      const b = await api('/builtin/list')
      expect(a.body.data.map((t: { name: string }) => t.name)).to.include('get_current_time')
      expect(b.body.data).to.deep.equal(a.body.data)
      const c = await api('/builtin/categories')
      const time = c.body.data.find((x: { key: string }) => x.key === 'time')
      expect(time).to.deep.include({ key: 'time', toolCount: 1, enabled: true })
      expect(time).to.have.property('name')
    })

    it('GET/PUT /builtin/config merges only the fields sent', async () => {
      const before = await api('/builtin/config')
      expect(before.body.data).to.include({ approvalMode: 'auto', approvalTimeoutMs: 60000, approvalAllowSessionBypass: true, approvalSessionBypassMaxRisk: 'medium' })
      const r = await api('/builtin/config', 'PUT', { approvalTimeoutMs: 30000 })
      expect(r.status).to.equal(200)
      expect(r.body).to.include({ code: 0, message: 'ok' }) // style B: the spec names no other message
      expect(r.body.data.approvalTimeoutMs).to.equal(30000)
      expect(r.body.data.approvalMode).to.equal('auto')
      expect(s.lx.rt.config.get().tools.approvalTimeoutMs).to.equal(30000)
      await api('/builtin/config', 'PUT', { approvalTimeoutMs: 60000 })
    })

    it('PUT /builtin/config refuses bad values and unknown fields with 400', async () => {
      for (const body of [{ approvalMode: 'sometimes' }, { approvalTimeoutMs: 'soon' }, { nope: 1 }, [1]]) {
        const r = await api('/builtin/config', 'PUT', body)
        expect(r.status, JSON.stringify(body)).to.equal(400)
        expect(r.body).to.include({ code: -1, data: null })
      }
    })

    it('POST /builtin/tool/toggle switches one tool; 400 on bad input; 404 on unknown tool', async () => {
      let r = await api('/builtin/tool/toggle', 'POST', { toolName: 'get_current_time', enabled: false })
      expect(r.status).to.equal(200)
      expect(s.lx.rt.need('tools').registry.isEnabled('get_current_time')).to.equal(false)
      expect(s.lx.rt.config.get().tools.disabledTools).to.include('get_current_time')
      r = await api('/builtin/tool/toggle', 'POST', { toolName: 'get_current_time', enabled: true })
      expect(s.lx.rt.need('tools').registry.isEnabled('get_current_time')).to.equal(true)
      expect((await api('/builtin/tool/toggle', 'POST', { toolName: 'get_current_time' })).status).to.equal(400)
      expect((await api('/builtin/tool/toggle', 'POST', { enabled: true })).status).to.equal(400)
      expect((await api('/builtin/tool/toggle', 'POST', { toolName: 'get_current_time', enabled: 'yes' })).status).to.equal(400)
      expect((await api('/builtin/tool/toggle', 'POST', { toolName: 'nope', enabled: true })).status).to.equal(404)
    })

    it('POST /builtin/category/toggle switches a category; 400 / 404 on bad input', async () => {
      let r = await api('/builtin/category/toggle', 'POST', { category: 'time', enabled: false })
      expect(r.status).to.equal(200)
      expect(s.lx.rt.need('tools').registry.isEnabled('get_current_time')).to.equal(false)
      expect(s.lx.rt.need('tools').registry.list().some((t) => t.name === 'get_current_time')).to.equal(false)
      r = await api('/builtin/category/toggle', 'POST', { category: 'time', enabled: true })
      expect(s.lx.rt.need('tools').registry.isEnabled('get_current_time')).to.equal(true)
      expect((await api('/builtin/category/toggle', 'POST', { category: 'time' })).status).to.equal(400)
      expect((await api('/builtin/category/toggle', 'POST', { enabled: false })).status).to.equal(400)
      expect((await api('/builtin/category/toggle', 'POST', { category: 'nope', enabled: false })).status).to.equal(404)
    })

    it('POST /builtin/disable-all, /builtin/enable-all, /builtin/refresh, /refresh, /reload-all', async () => {
      let r = await api('/builtin/disable-all', 'POST')
      expect(r.status).to.equal(200)
      expect(s.lx.rt.need('tools').registry.isEnabled('get_user_info')).to.equal(false)
      expect(s.lx.rt.need('tools').registry.isEnabled('mcp:web:fetch')).to.equal(true)
      r = await api('/builtin/enable-all', 'POST')
      expect(s.lx.rt.need('tools').registry.isEnabled('get_user_info')).to.equal(true)
      for (const p of ['/builtin/refresh', '/refresh', '/reload-all']) {
        r = await api(p, 'POST')
        expect(r.status, p).to.equal(200)
        expect(r.body.data.count, p).to.be.a('number').greaterThan(0)
      }
    })
  })

  describe('look-ups of memory and knowledge', () => {
    it('search_memory searches the caller\'s own memories; the look-ups leave when a domain is gone', async () => {
      const rt = s.lx.rt
      const names = async (): Promise<string[]> => (await api('/list')).body.data.map((t: { name: string }) => t.name)
      expect(await names()).to.include('search_memory')
      const sub = (JSON.parse(Buffer.from(s.token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub
      await rt.need('memory').add({ userId: sub, content: 'likes oolong tea' })
      await rt.need('memory').add({ userId: 'someone-else', content: 'likes black tea' })
      const f = frames((await api('/test', 'POST', { toolName: 'search_memory', arguments: { query: 'tea' } })).text)
      const text = f[1]!.json().result.content[0].text as string
      expect(text).to.include('likes oolong tea').and.not.include('likes black tea')
      const memory = rt.withdraw('memory')
      try {
        expect(await names()).to.not.include('search_memory')
      } finally {
        if (memory) rt.provide('memory', memory)
      }
      expect(await names()).to.include('search_memory')
    })
  })

  describe('test stream (6.4)', () => {
    it('sends start then result, with administrator context', async () => {
      const r = await api('/test', 'POST', { toolName: 'get_user_info', arguments: {} })
      expect(r.headers.get('content-type')).to.match(/text\/event-stream/)
      const f = frames(r.text)
      expect(f.map((x) => x.event)).to.deep.equal(['start', 'result'])
      const text = f[1]!.json().result.content[0].text
      expect(JSON.parse(text)).to.include({ isMaster: true, permission: 'master' })
    })
    it('runs an MCP tool addressed mcp:<server>:<tool> and a dangerous tool without approval', async () => {
      let f = frames((await api('/test', 'POST', { toolName: 'mcp:web:fetch', arguments: { url: 'x' } })).text)
      expect(f[1]!.event).to.equal('result')
      f = frames((await api('/test', 'POST', { toolName: 'rm_rf', arguments: {} })).text)
      expect(f[1]!.json().result.isError).to.equal(false)
    })
    it('a missing toolName gives an error event "toolName is required"', async () => {
      const f = frames((await api('/test', 'POST', {})).text)
      expect(f.map((x) => x.event)).to.deep.equal(['start', 'error'])
      expect(f[1]!.json().error).to.equal('toolName is required')
    })
    it('an unknown tool and a throwing tool end with error / isError', async () => {
      let f = frames((await api('/test', 'POST', { toolName: 'nope' })).text)
      expect(f[1]!.event).to.equal('error')
      f = frames((await api('/test', 'POST', { toolName: 'boom', arguments: {} })).text)
      expect(f[1]!.json().result.isError).to.equal(true)
      expect(f[1]!.json().result.content[0].text).to.include('kaboom')
      f = frames((await api('/test', 'POST', { toolName: 'boom', arguments: [1] })).text)
      expect(f[1]!.event).to.equal('error')
    })
  })

  describe('logs and stats', () => {
    it('records every call in the log (every log field) and the stats store', async () => {
      await api('/logs', 'DELETE')
      await api('/test', 'POST', { toolName: 'get_current_time', arguments: {} })
      await api('/test', 'POST', { toolName: 'boom', arguments: {} })
      const r = await api('/logs')
      expect(r.status).to.equal(200)
      expect(r.body.data.total).to.equal(2)
      const [last, first] = r.body.data.logs
      expect(last).to.include({ toolName: 'boom', status: 'error' })
      expect(first).to.include.keys('id', 'toolName', 'args', 'result', 'status', 'duration', 'userId', 'timestamp')
      expect(first.status).to.equal('success')
      expect(new Date(first.timestamp).toISOString()).to.equal(first.timestamp)
      expect(s.lx.rt.stats.tools().find((t) => t.name === 'get_current_time')?.calls).to.be.greaterThan(0)
      expect(s.lx.rt.need('tools').registry.log.query({ limit: 10 }).logs).to.have.length(2)
    })
    it('accepts variant A\'s limit/offset/tool and filters', async () => {
      let r = await api('/logs?limit=1&offset=1')
      expect(r.body.data.logs).to.have.length(1)
      expect(r.body.data.logs[0].toolName).to.equal('get_current_time')
      r = await api('/logs?tool=boom')
      expect(r.body.data.total).to.equal(1)
      r = await api('/logs?limit=abc')
      expect(r.status).to.equal(200)
      expect((await api('/logs?status=maybe')).status).to.equal(400)
    })
    it('DELETE /logs clears them', async () => {
      const r = await api('/logs', 'DELETE')
      expect(r.body).to.deep.equal({ code: 0, data: { cleared: 2 }, message: 'ok' })
      expect((await api('/logs')).body.data.total).to.equal(0)
    })
    it('GET /stats counts tools', async () => {
      const r = await api('/stats')
      expect(r.body.data.totalTools).to.be.greaterThan(3)
      expect(r.body.data.mcpServers).to.equal(1)
      expect(r.body.data.bySource.mcp).to.equal(1)
      expect(s.lx.rt.need('tools').registry.list().length).to.equal(r.body.data.enabledTools)
    })
  })

  describe('dangerous, event probability, watcher', () => {
    it('GET/PUT /dangerous and POST /dangerous/toggle', async () => {
      let r = await api('/dangerous')
      expect(r.body.data.tools.map((t: { name: string }) => t.name)).to.include('rm_rf')
      r = await api('/dangerous/toggle', 'POST', { toolName: 'get_current_time', dangerous: true })
      expect(r.body.data.dangerous).to.equal(true)
      r = await api('/dangerous/toggle', 'POST', { toolName: 'get_current_time' })
      expect(r.body.data.dangerous).to.equal(false)
      r = await api('/dangerous', 'PUT', { allowDangerous: true, dangerousTools: ['send_message'] })
      expect(r.body.data).to.deep.equal({ allowDangerous: true, dangerousTools: ['send_message'] })
      await api('/dangerous', 'PUT', { allowDangerous: false, dangerousTools: [] })
      expect((await api('/dangerous', 'PUT', {})).status).to.equal(400)
      expect((await api('/dangerous', 'PUT', { allowDangerous: 'no' })).status).to.equal(400)
      expect((await api('/dangerous/toggle', 'POST', {})).status).to.equal(400)
      expect((await api('/dangerous/toggle', 'POST', { toolName: 'nope' })).status).to.equal(404)
    })
    it('GET/PUT /event-probability', async () => {
      expect((await api('/event-probability')).body.data.probability).to.equal(0.1)
      expect((await api('/event-probability', 'PUT', { probability: 0.5 })).body.data.probability).to.equal(0.5)
      expect(s.lx.rt.config.get().tools.eventProbability).to.equal(0.5)
      expect((await api('/event-probability', 'PUT', { probability: 2 })).status).to.equal(400)
      expect((await api('/event-probability', 'PUT', { probability: 'x' })).status).to.equal(400)
    })
    it('GET /watcher/status and POST /watcher/toggle', async () => {
      expect((await api('/watcher/status')).body.data.watching).to.equal(true)
      let r = await api('/watcher/toggle', 'POST', {})
      expect(r.body.data.watching).to.equal(false)
      r = await api('/watcher/toggle', 'POST', { enabled: true })
      expect(r.body.data.watching).to.equal(true)
      expect((await api('/watcher/toggle', 'POST', { enabled: 'on' })).status).to.equal(400)
    })
  })

  describe('variant A (style A)', () => {
    it('GET /api/tools gives { tools, categories }', async () => {
      const r = await s.api('/api/tools')
      expect(r.body.success).to.equal(true)
      expect(r.body.data.tools.length).to.be.greaterThan(3)
      expect(r.body.data.categories.time).to.deep.equal({ name: 'time', enabled: true })
    })
    it('GET /api/tools/:name (MCP names URL-encoded); 404 TOOL_NOT_FOUND', async () => {
      let r = await s.api(`/api/tools/${encodeURIComponent('mcp:web:fetch')}`)
      expect(r.body.data.inputSchema.required).to.deep.equal(['url'])
      r = await s.api('/api/tools/nope')
      expect(r.status).to.equal(404)
      expect(r.body).to.include({ success: false, code: 'TOOL_NOT_FOUND' })
    })
    it('PUT /api/tools/:name/toggle and /category/:category/toggle', async () => {
      let r = await s.api('/api/tools/get_current_time/toggle', { method: 'PUT', json: { enabled: false } })
      expect(r.body).to.deep.equal({ success: true, data: { name: 'get_current_time', enabled: false } })
      r = await s.api('/api/tools/get_current_time/toggle', { method: 'PUT', json: { enabled: true } })
      expect(r.body.data.enabled).to.equal(true)
      r = await s.api('/api/tools/get_current_time/toggle', { method: 'PUT', json: {} })
      expect(r.status).to.equal(400)
      expect(r.body).to.include({ success: false, code: 'INVALID_ARGS' })
      r = await s.api('/api/tools/category/time/toggle', { method: 'PUT', json: { enabled: false } })
      expect(r.body.data).to.include({ category: 'time', enabled: false })
      await s.api('/api/tools/category/time/toggle', { method: 'PUT', json: { enabled: true } })
      r = await s.api('/api/tools/category/nope/toggle', { method: 'PUT', json: { enabled: true } })
      expect(r.status).to.equal(404)
      expect(r.body.success).to.equal(false)
    })
    it('POST /api/tools/call gives { result, duration } and the named errors', async () => {
      let r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'get_current_time', args: {} } })
      expect(r.status).to.equal(200)
      expect(r.body.data.result.isError).to.equal(false)
      expect(r.body.data.duration).to.be.a('number')
      r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'nope' } })
      expect([r.status, r.body.code]).to.deep.equal([404, 'TOOL_NOT_FOUND'])
      r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'mcp:web:fetch', args: {} } })
      expect([r.status, r.body.code]).to.deep.equal([400, 'INVALID_ARGS'])
      r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'boom', args: {} } })
      expect([r.status, r.body.code]).to.deep.equal([500, 'EXECUTION_ERROR'])
      expect(r.body.message).to.include('kaboom')
      await s.lx.rt.config.update({ tools: { disabledTools: ['boom'] } })
      r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'boom' } })
      expect([r.status, r.body.code]).to.deep.equal([403, 'TOOL_DISABLED'])
      await s.lx.rt.config.update({ tools: { disabledTools: [] } })
      r = await s.api('/api/tools/call', { method: 'POST', json: { args: {} } })
      expect(r.status).to.equal(400)
    })
    it('unknown paths and unreadable bodies answer in the right style', async () => {
      expect((await s.api('/api/tools/builtin/nope/x')).body.code).to.equal(-1)
      const bad = { method: 'PUT', body: '{not json', headers: { 'Content-Type': 'application/json' } }
      let r = await s.api('/api/tools/get_current_time/toggle', bad)
      expect(r.status).to.equal(400)
      expect(r.body.success).to.equal(false)
      r = await s.api('/api/tools/builtin/config', bad)
      expect(r.status).to.equal(400)
      expect(r.body.code).to.equal(-1)
      r = await s.api('/api/tools/dangerous/toggle', { ...bad, method: 'POST' })
      expect(r.body.code).to.equal(-1)
    })
  })

  describe('deprecated endpoints', () => {
    it('GET/PUT /enabled and POST /toggle/:name carry deprecated and replacement', async () => {
      let r = await api('/enabled')
      expect(r.body).to.include({ deprecated: true, replacement: 'GET /api/tools/builtin/config', code: 0 })
      expect(r.body.data.approvalMode).to.equal('auto')
      r = await api('/enabled', 'PUT', { maxRounds: 6 })
      expect(r.body).to.include({ deprecated: true, replacement: 'PUT /api/tools/builtin/config' })
      expect(s.lx.rt.config.get().tools.maxRounds).to.equal(6)
      expect((await api('/enabled', 'PUT', { maxRounds: 0 })).status).to.equal(400)
      r = await api('/toggle/get_user_info', 'POST', { enabled: false })
      expect(r.body).to.include({ deprecated: true, replacement: 'POST /api/tools/builtin/tool/toggle' })
      expect(r.body.data.enabled).to.equal(false)
      r = await api('/toggle/get_user_info', 'POST')
      expect(r.body.data.enabled).to.equal(true)
      expect((await api('/toggle/nope', 'POST')).status).to.equal(404)
    })
  })

  it('needs a session', async () => {
    const r = await fetch(`${s.base}/api/tools/list`)
    expect(r.status).to.equal(401)
  })
})
