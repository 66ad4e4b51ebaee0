// The skills routes and /api/skills/sse (docs/api.md) through real HTTP, over the whole plugin. The tool
// registry is an in-memory ToolRegistryApi (helpers.ts) so the tool-side routes are deterministic.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import sinon from 'sinon'
import { AppError } from '../../lib/core/errors.js'
import type { Runtime, Services } from '../../lib/runtime.js'
import type { ToolRegistry } from '../../lib/tools/registry.js'
import type { McpManager } from '../../lib/mcp/manager.js'
import type { ServerView } from '../../lib/mcp/types.js'
import { attachSkillTools, userSkillsDir } from '../../lib/skills/index.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { sseClient } from '../support/sse.js'
import { FakeRegistry, fakeTool, nextSkillEvent } from './helpers.js'


describe('skills: HTTP routes and stream', function () {
  let s: TestServer
  let rt: Runtime
  let previous: Services['tools'] | undefined
  let registry: FakeRegistry

  before(async () => {
    s = await startTestServer()
    rt = s.lx.rt
    previous = rt.withdraw('tools')
    registry = new FakeRegistry(() => rt.config.get().tools.disabledTools, () => rt.config.get().tools.disabledCategories)
    registry.addSource({
      id: 'test',
      kind: 'builtin',
      list: () => [
        fakeTool('get_time', 'time', { description: '获取当前时间 current time' }),
        fakeTool('send_message', 'message', { description: '发送消息 send a message' }),
        fakeTool('boom', 'time', { execute: async () => { throw new Error('kaboom /secret/path') } }),
        fakeTool('mcp:web:fetch', 'mcp', { source: 'mcp', server: 'web', description: 'fetch a web page' })
      ]
    })
    // the skills' side of the registry is all these routes use; the rest of the kit stays real
    rt.provide('tools', { ...previous!, registry: registry as unknown as ToolRegistry })
    attachSkillTools(rt)
  })
  after(async () => {
    rt.withdraw('tools')
    if (previous) rt.provide('tools', previous)
    await s.close()
  })

  const post = (path: string, json?: unknown) => s.api(`/api/skills${path}`, { method: 'POST', ...(json === undefined ? {} : { json }) })
  const get = (path: string) => s.api(`/api/skills${path}`)
  const expectB400 = (r: { status: number; body: any }, msg: RegExp): void => {
    expect(r.status, JSON.stringify(r.body)).to.equal(400)
    expect(r.body).to.include({ code: -1, data: null })
    expect(r.body.message).to.match(msg)
  }

  describe('stream', () => {
    it('sends connected at once, then skill events (skill-loaded)', async () => {
      const c = sseClient(`${s.base}/api/skills/sse`, { headers: { Authorization: `Bearer ${s.token}` } })
      try {
        const res = await c.response
        expect(res.headers.get('content-type')).to.match(/text\/event-stream/)
        const first = (await c.frames.next()).value!
        expect(first.event).to.equal('connected')
        expect(first.json().time).to.be.a('number')
        const r = await post('/load/translator')
        expect(r.status).to.equal(200)
        const next = (await c.frames.next()).value!
        expect(next.event).to.equal('skill-loaded')
        expect(next.json()).to.include({ name: 'translator' })
        await post('/unload/translator')
      } finally { c.close() }
    })

    it('sends a heartbeat every 30 seconds', async () => {
      const clock = sinon.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], now: Date.now() })
      const c = sseClient(`${s.base}/api/skills/sse`, { headers: { Authorization: `Bearer ${s.token}` } })
      try {
        expect((await c.frames.next()).value!.event).to.equal('connected')
        clock.tick(30_000)
        const beat = (await c.frames.next()).value!
        expect(beat.event).to.equal('heartbeat')
        expect(beat.json().time).to.be.a('number')
      } finally { c.close(); clock.restore() }
    })

    it('needs a session', async () => {
      const r = await fetch(`${s.base}/api/skills/sse`)
      expect(r.status).to.equal(401)
    })
  })

  describe('documents, load and unload', () => {
    it('lists the bundled document skills', async () => {
      const r = await get('/documents')
      expect(r.status).to.equal(200)
      expect(r.body.code).to.equal(0)
      const names = r.body.data.documents.map((d: { name: string }) => d.name)
      expect(names).to.include.members(['translator', 'code-review', 'daily-summary'])
      expect(r.body.data.count).to.equal(names.length)
      expect(r.body.data.documents[0]).to.have.keys('name', 'description', 'triggers', 'allowedTools', 'disallowedTools', 'priority', 'autoActivate', 'capabilities', 'path', 'directory', 'origin', 'loaded')
    })

    it('a file saved in the user folder shows up (watcher), with its load error reported when broken', async () => {
      const dir = join(s.dataDir, 'skills')
      const ev = nextSkillEvent(rt.bus, 'skill-added', (d) => d.name === 'my-skill')
      mkdirSync(join(dir, 'mine'), { recursive: true })
      writeFileSync(join(dir, 'mine', 'SKILL.md'), '---\nname: my-skill\ndescription: 我的技能\ntriggers: [喵]\n---\n每句话以喵结尾。\n')
      await ev
      const r = await get('/documents')
      expect(r.body.data.documents.find((d: { name: string }) => d.name === 'my-skill')).to.include({ origin: 'user', description: '我的技能' })
      const bad = nextSkillEvent(rt.bus, 'skills-updated', (d) => d.errors === 1)
      writeFileSync(join(dir, 'evil.skill.yaml'), 'name: [\n')
      await bad
      const r2 = await get('/documents')
      expect(r2.body.data.errors).to.have.length(1)
      expect(r2.body.data.errors[0].file).to.equal('skills/evil.skill.yaml')
    })

    it('changing skills.dir in the configuration rescans and watches the new folder', async () => {
      const other = join(s.dataDir, 'other-skills')
      mkdirSync(other, { recursive: true })
      writeFileSync(join(other, 'elsewhere.skill.yaml'), 'name: elsewhere\ninstructions: x\n')
      const added = nextSkillEvent(rt.bus, 'skill-added', (d) => d.name === 'elsewhere')
      await rt.config.update({ skills: { dir: 'other-skills' } })
      await added
      const seen = nextSkillEvent(rt.bus, 'skill-added', (d) => d.name === 'later')
      writeFileSync(join(other, 'later.skill.yaml'), 'name: later\ninstructions: y\n')
      await seen
      const removed = nextSkillEvent(rt.bus, 'skill-removed', (d) => d.name === 'elsewhere')
      await rt.config.update({ skills: { dir: '' } })
      await removed
      expect(rt.need('skills').get('later')).to.equal(undefined)
    })

    it('a relative skills.dir escaping the data folder falls back to the default folder', async () => {
      await rt.config.update({ skills: { dir: '../../etc' } })
      expect(userSkillsDir(rt)).to.equal(join(s.dataDir, 'skills'))
      await rt.config.update({ skills: { dir: '' } })
    })

    it('load / loaded / unload, with 404 for a missing skill', async () => {
      let r = await post('/load/code-review')
      expect(r.body).to.deep.equal({ code: 0, data: { name: 'code-review', loaded: true }, message: 'ok' })
      r = await get('/loaded')
      expect(r.body.data.loaded).to.deep.equal(['code-review'])
      expect(r.body.data.skills[0].name).to.equal('code-review')
      r = await post('/unload/code-review')
      expect(r.body.data).to.deep.equal({ name: 'code-review', loaded: false })
      expect((await get('/loaded')).body.data.loaded).to.deep.equal([])
      r = await post('/load/nope')
      expect(r.status).to.equal(404)
      expect(r.body).to.deep.equal({ code: -1, data: null, message: 'Skill nope does not exist' })
      expect((await post('/unload/nope')).status).to.equal(404)
    })

    it('answers 500 on load/unload and an empty list when skills are not initialized', async () => {
      const saved = rt.withdraw('skills')!
      try {
        const r = await post('/load/translator')
        expect(r.status).to.equal(500)
        expect(r.body).to.include({ code: -1, message: 'Skills are not initialized' })
        expect((await post('/unload/translator')).status).to.equal(500)
        expect((await get('/loaded')).body.data).to.deep.equal({ skills: [], loaded: [] })
      } finally { rt.provide('skills', saved) }
    })

    it('a loaded skill reaches the chat prompt through the contributor', async () => {
      const contributor = rt.chat.contributors.find((c) => c.name === 'skills')!
      const turn = { scope: { userId: '1', isMaster: false, via: 'bot' as const, conversationId: 'private:1' }, preset: {} as never, input: 'hello' }
      expect(await contributor.contribute(turn)).to.equal(undefined)
      expect(await contributor.contribute({ ...turn, input: '帮我翻译一下' })).to.match(/translator/)
      await post('/load/daily-summary')
      expect(await contributor.contribute(turn)).to.match(/daily-summary/)
      await post('/unload/daily-summary')
    })

    it('reload rescans and emits tools-reloaded', async () => {
      const ev = nextSkillEvent(rt.bus, 'tools-reloaded')
      const r = await post('/reload')
      expect(r.status).to.equal(200)
      expect(r.body.data.skills).to.be.greaterThanOrEqual(3)
      expect(r.body.data.tools).to.equal(7)
      expect(await ev).to.include({ skills: r.body.data.skills }).and.to.have.property('timestamp')
    })
  })

  describe('tools through the registry', () => {
    it('adds list_skills, load_skill and get_skill_info to the registry (category skills)', () => {
      for (const n of ['list_skills', 'load_skill', 'get_skill_info']) expect(registry.get(n)?.category, n).to.equal('skills')
    })

    it('GET /tools filters by source; /tools/by-source groups', async () => {
      let r = await get('/tools')
      expect(r.body.data.count).to.equal(7)
      r = await get('/tools?includeBuiltin=false')
      expect(r.body.data.tools.map((t: { name: string }) => t.name)).to.deep.equal(['mcp:web:fetch'])
      r = await get('/tools?includeMcp=no')
      expect(r.body.data.tools.map((t: { name: string }) => t.name)).to.not.include('mcp:web:fetch')
      r = await get('/tools/by-source')
      expect(r.body.data.builtin.count).to.equal(6)
      expect(r.body.data.mcp.web).to.deep.equal({ count: 1, tools: [{ name: 'mcp:web:fetch', description: 'fetch a web page' }] })
      expect(r.body.data.custom.count).to.equal(0)
    })

    it('presetId limits /tools and /execute to the tools the preset offers', async () => {
      const saved = rt.chat.presets
      rt.chat.presets = {
        resolve: async (_scope, id) => {
          if (id === 'missing') throw new AppError('PRESET_NOT_FOUND', 'Preset not found')
          return { id: id ?? 'default', name: 'p', systemPrompt: '', tools: { enabled: true, allowedTools: ['get_time', 'send_message'], excludedTools: ['send_message'], allowDangerous: false }, memory: { enabled: false, maxMemories: 0 } }
        }
      }
      try {
        let r = await get('/tools?presetId=p1')
        expect(r.body.data.tools.map((t: { name: string }) => t.name)).to.deep.equal(['get_time'])
        r = await get('/tools?presetId=missing')
        expect(r.status).to.equal(404)
        expect(r.body).to.deep.equal({ code: -1, data: null, message: 'Preset not found' })
        r = await post('/execute', { toolName: 'send_message', presetId: 'p1' })
        expect(r.status).to.equal(403)
        expect(r.body.message).to.match(/not enabled for preset p1/)
        expect((await post('/execute', { toolName: 'get_time', presetId: 'p1' })).body.data.isError).to.equal(false)
        expectB400(await post('/execute', { toolName: 'get_time', presetId: 5 }), /presetId/)
      } finally {
        if (saved) rt.chat.presets = saved; else delete rt.chat.presets
      }
    })

    it('presetId applies the chat\'s rule for dangerous tools (lib/tools/preset-filter.ts)', async () => {
      const saved = rt.chat.presets
      let allowDangerous = false
      rt.chat.presets = {
        resolve: async (_scope, id) => ({ id: id ?? 'default', name: 'p', systemPrompt: '', tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous }, memory: { enabled: false, maxMemories: 0 } })
      }
      await rt.config.update({ tools: { dangerousTools: ['get_time'] } })
      try {
        const names = async (): Promise<string[]> => (await get('/tools?presetId=p1')).body.data.tools.map((t: { name: string }) => t.name)
        expect(await names()).to.include('send_message').and.not.include('get_time')
        const r = await post('/execute', { toolName: 'get_time', presetId: 'p1' })
        expect(r.status).to.equal(403)
        expect(r.body.message).to.match(/not enabled for preset p1/)
        expect((await get('/tools/get_time/detail')).body.data.dangerous).to.equal(true)
        allowDangerous = true
        expect(await names()).to.include('get_time')
        expect((await post('/execute', { toolName: 'get_time', presetId: 'p1' })).body.data.isError).to.equal(false)
      } finally {
        await rt.config.update({ tools: { dangerousTools: [] } })
        if (saved) rt.chat.presets = saved; else delete rt.chat.presets
      }
    })

    it('POST /execute runs a tool as administrator and emits tool-executed', async () => {
      const ev = nextSkillEvent(rt.bus, 'tool-executed')
      const r = await post('/execute', { toolName: 'get_time', args: { tz: 'Asia/Shanghai' } })
      expect(r.status).to.equal(200)
      expect(r.body.data).to.deep.equal({ content: [{ type: 'text', text: 'get_time:{"tz":"Asia/Shanghai"}' }], isError: false })
      expect(await ev).to.include({ toolName: 'get_time', success: true })
      const call = registry.calls.at(-1)!
      expect(call.ctx).to.include({ userPermission: 'master', isMaster: true, isAdminTest: true })
    })

    it('POST /execute: the skills tools work through it', async () => {
      const r = await post('/execute', { toolName: 'list_skills' })
      const listed = JSON.parse(r.body.data.content[0].text)
      expect(listed.skills.map((x: { name: string }) => x.name)).to.include('translator')
      const info = await post('/execute', { toolName: 'get_skill_info', args: { name: 'nope' } })
      expect(info.body.data.isError).to.equal(true)
    })

    it('POST /execute: bad input and failures', async () => {
      expectB400(await post('/execute', {}), /toolName is required/)
      expectB400(await post('/execute', { toolName: '' }), /toolName is required/)
      expectB400(await post('/execute', { toolName: 'get_time', args: [1] }), /args/)
      expectB400(await s.api('/api/skills/execute', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{bad' }), /JSON/)
      const nf = await post('/execute', { toolName: 'nope' })
      expect(nf.status).to.equal(404)
      expect(nf.body.code).to.equal(-1)
      const boom = await post('/execute', { toolName: 'boom' })
      expect(boom.status).to.equal(200)
      expect(boom.body.data.isError).to.equal(true)
    })

    it('POST /execute/batch', async () => {
      const ev = nextSkillEvent(rt.bus, 'batch-executed')
      const r = await post('/execute/batch', { calls: [{ toolName: 'get_time' }, { toolName: 'nope', args: {} }] })
      expect(r.status).to.equal(200)
      expect(r.body.data.count).to.equal(2)
      expect(r.body.data.results[0]).to.include({ toolName: 'get_time', success: true })
      expect(r.body.data.results[1]).to.include({ toolName: 'nope', success: false, error: 'Tool nope does not exist' })
      expect(await ev).to.include({ count: 2 })
      expectB400(await post('/execute/batch', { calls: [] }), /non-empty array/)
      expectB400(await post('/execute/batch', { calls: 'x' }), /non-empty array/)
      expectB400(await post('/execute/batch', {}), /non-empty array/)
      expectB400(await post('/execute/batch', { calls: [{ args: {} }] }), /toolName/)
    })

    it('GET /search with q, limit, category and source', async () => {
      let r = await get('/search?q=time')
      expect(r.body.data.query).to.equal('time')
      expect(r.body.data.results[0].name).to.equal('get_time')
      r = await get('/search?q=翻译')
      expect(r.body.data.results.map((x: { name: string }) => x.name)).to.include('translator')
      r = await get('/search?limit=2')
      expect(r.body.data.results).to.have.length(2)
      r = await get('/search?category=mcp')
      expect(r.body.data.results.map((x: { name: string }) => x.name)).to.deep.equal(['mcp:web:fetch'])
      r = await get('/search?source=skill&limit=abc')
      expect(r.body.data.results.every((x: { type: string }) => x.type === 'skill')).to.equal(true)
      // Words in any order match through the shared tokenizer (lib/search/tokenize.ts); full-width folds.
      r = await get(`/search?q=${encodeURIComponent('ｔｉｍｅ current')}`)
      expect(r.body.data.results[0].name).to.equal('get_time')
      r = await get(`/search?q=${encodeURIComponent('当前时间')}`)
      expect(r.body.data.results[0].name).to.equal('get_time')
    })

    it('GET /discover, /categories, /stats, /status', async () => {
      let r = await get('/discover')
      expect(r.body.data.total).to.equal(7)
      expect(r.body.data.categories.time.count).to.equal(2)
      r = await get('/categories')
      expect(r.body.data.find((c: { key: string }) => c.key === 'skills')).to.deep.equal({ key: 'skills', name: '技能', toolCount: 3, enabled: true })
      // Without the MCP domain, servers are derived from the MCP tools; with it, its figures are used.
      const saved = rt.withdraw('mcp')
      try {
        r = await get('/stats')
        expect(r.body.data).to.deep.equal({ totalTools: 7, enabledTools: 7, categories: 4, mcpServers: 1 })
        r = await get('/status')
        expect(r.body.data.servers).to.deep.equal([{ name: 'web', status: 'connected', type: 'mcp', toolsCount: 1, connectedAt: null }])
        expect(r.body.data.timestamp).to.be.a('number')
        expect(r.body.data.stats.totalTools).to.equal(7)
        const views = [{ name: 'srv', status: 'error', type: 'stdio', toolsCount: 0, connectedAt: null, extra: 1 }] as unknown as ServerView[]
        rt.provide('mcp', Object.assign(Object.create(saved ?? null) as McpManager, { list: () => views, count: () => 5 }))
        expect((await get('/stats')).body.data.mcpServers).to.equal(5)
        expect((await get('/status')).body.data.servers).to.deep.equal([{ name: 'srv', status: 'error', type: 'stdio', toolsCount: 0, connectedAt: null }])
      } finally {
        rt.withdraw('mcp')
        if (saved) rt.provide('mcp', saved)
      }
    })

    it('GET /tools/:name/detail for a tool, a skill and a missing one', async () => {
      let r = await get('/tools/get_time/detail')
      expect(r.body.data).to.include({ type: 'tool', name: 'get_time', category: 'time', enabled: true, risk: 'low' })
      // the risk the approvals use, as the tools routes show it: the master's risk lists win
      await s.lx.rt.config.update({ tools: { approvalHighRiskTools: ['get_time'] } })
      try {
        expect((await get('/tools/get_time/detail')).body.data.risk).to.equal('high')
      } finally { await s.lx.rt.config.update({ tools: { approvalHighRiskTools: [] } }) }
      r = await get(`/tools/${encodeURIComponent('mcp:web:fetch')}/detail`)
      expect(r.body.data).to.include({ name: 'mcp:web:fetch', server: 'web' })
      r = await get('/tools/translator/detail')
      expect(r.body.data).to.include({ type: 'skill', name: 'translator' })
      expect(r.body.data.instructions).to.match(/译/)
      r = await get('/tools/nope/detail')
      expect(r.status).to.equal(404)
      expect(r.body).to.deep.equal({ code: -1, data: null, message: 'Skill nope does not exist' })
    })

    it('POST /recommend', async () => {
      let r = await post('/recommend', { context: '请帮我翻译这段英文' })
      expect(r.status).to.equal(200)
      expect(r.body.data.context).to.equal('请帮我翻译这段英文')
      expect(r.body.data.recommendations[0]).to.include({ type: 'skill', name: 'translator' })
      r = await post('/recommend', { context: 'what is the current time', limit: 1 })
      expect(r.body.data.count).to.equal(1)
      expect(r.body.data.recommendations[0].name).to.equal('get_time')
      expectB400(await post('/recommend', {}), /context is required/)
      expectB400(await post('/recommend', { context: 5 }), /context is required/)
      expectB400(await post('/recommend', { context: 'x', limit: 'many' }), /limit/)
    })

    it('tool and category toggles (B) emit their events; bad input 400, unknown 404', async () => {
      let ev = nextSkillEvent(rt.bus, 'tool-toggled')
      let r = await post('/tools/send_message/toggle', { enabled: false })
      expect(r.body.data).to.include({ tool: 'send_message', enabled: false })
      expect(await ev).to.include({ tool: 'send_message', enabled: false })
      expect(registry.isEnabled('send_message')).to.equal(false)
      expect((await get('/stats')).body.data.enabledTools).to.equal(6)
      await post('/tools/send_message/toggle', { enabled: true })
      expect(registry.isEnabled('send_message')).to.equal(true)
      expectB400(await post('/tools/send_message/toggle', { enabled: 'yes' }), /enabled must be a boolean/)
      expectB400(await post('/tools/send_message/toggle', {}), /enabled must be a boolean/)
      expect((await post('/tools/nope/toggle', { enabled: true })).status).to.equal(404)

      ev = nextSkillEvent(rt.bus, 'category-toggled')
      r = await post('/categories/time/toggle', { enabled: false })
      expect(r.body.data).to.deep.equal({ category: 'time', enabled: false })
      expect(await ev).to.include({ category: 'time', enabled: false })
      expect(registry.isEnabled('get_time')).to.equal(false)
      expect(registry.isEnabled('boom')).to.equal(false)
      expect((await get('/categories')).body.data.find((c: { key: string }) => c.key === 'time').enabled).to.equal(false)
      await post('/categories/time/toggle', { enabled: true })
      expect(registry.isEnabled('get_time')).to.equal(true)
      expectB400(await post('/categories/time/toggle', { enabled: 1 }), /enabled must be a boolean/)
      const nf = await post('/categories/nope/toggle', { enabled: true })
      expect(nf.status).to.equal(404)
      expect(nf.body.message).to.equal('Category nope does not exist')
    })

    it('enable-all / disable-all', async () => {
      let ev = nextSkillEvent(rt.bus, 'tools-disabled-all')
      let r = await post('/disable-all')
      expect(r.body.data).to.deep.equal({ count: 7, enabled: false })
      expect(await ev).to.include({ count: 7 })
      expect((await get('/stats')).body.data.enabledTools).to.equal(0)
      ev = nextSkillEvent(rt.bus, 'tools-enabled-all')
      r = await post('/enable-all')
      expect(r.body.data).to.deep.equal({ count: 7, enabled: true })
      await ev
      expect((await get('/stats')).body.data.enabledTools).to.equal(7)
    })

    it('variant A toggles answer in style A', async () => {
      let r = await post('/toggle-tool', { toolName: 'get_time', enabled: false })
      expect(r.body).to.deep.equal({ success: true, data: { toolName: 'get_time', enabled: false } })
      expect(registry.isEnabled('get_time')).to.equal(false)
      await post('/toggle-tool', { toolName: 'get_time', enabled: true })
      r = await post('/toggle-category', { category: 'message', enabled: false })
      expect(r.body).to.deep.equal({ success: true, data: { category: 'message', enabled: false } })
      await post('/toggle-category', { category: 'message', enabled: true })
      r = await post('/toggle-tool', { toolName: 'get_time' })
      expect(r.status).to.equal(400)
      expect(r.body).to.include({ success: false, code: 'INVALID_ARGS' })
      r = await post('/toggle-category', { enabled: true })
      expect(r.status).to.equal(400)
      expect(r.body.message).to.match(/category is required/)
      r = await post('/toggle-tool', { toolName: 'nope', enabled: true })
      expect(r.status).to.equal(404)
      expect(r.body).to.include({ success: false, code: 'TOOL_NOT_FOUND' })
      r = await s.api('/api/skills/toggle-tool', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{bad' })
      expect(r.status).to.equal(400)
      expect(r.body.success).to.equal(false)
    })
  })

  describe('context-config', () => {
    it('GET gives the seven fields', async () => {
      const r = await get('/context-config')
      expect(r.body.data).to.have.keys('maxTokens', 'maxMessages', 'compressionThreshold', 'compressionStrategy', 'preserveSystemPrompt', 'preserveRecentMessages', 'autoReloadSkills')
    })

    it('POST applies only the whitelisted fields, ignores others, validates values', async () => {
      let r = await post('/context-config', { maxTokens: 4000, compressionStrategy: 'summarize', cleaningStrategy: 'truncate', bogus: 1 })
      expect(r.status).to.equal(200)
      expect(r.body).to.deep.equal({ code: 0, data: { maxTokens: 4000, compressionStrategy: 'summarize' }, message: 'Context config updated' })
      expect(rt.config.get().context).to.include({ maxTokens: 4000, compressionStrategy: 'summarize', cleaningStrategy: 'sliding' })
      expect((await get('/context-config')).body.data.maxTokens).to.equal(4000)
      expectB400(await post('/context-config', { compressionThreshold: 2 }), /compressionThreshold must be between 0 and 1/)
      expectB400(await post('/context-config', { compressionStrategy: 'magic' }), /compressionStrategy/)
      expectB400(await post('/context-config', { preserveSystemPrompt: 'yes' }), /boolean/)
      expectB400(await post('/context-config', [1, 2]), /object/)
      r = await post('/context-config', { other: true })
      expect(r.body.data).to.deep.equal({})
    })
  })

  it('an unknown /api/skills path is a style B JSON 404', async () => {
    const r = await get('/nothing-here')
    expect(r.status).to.equal(404)
    expect(r.body).to.include({ code: -1, data: null })
  })
})
