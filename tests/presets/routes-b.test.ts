// Presets variant B (style B): /api/preset/..., /api/presets/config|builtin|categories, /api/config/presets.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'

describe('presets routes, variant B', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('lists built-in presets with isBuiltin and isDefault', async () => {
    const r = await s.api('/api/preset/list')
    expect(r.status).to.equal(200)
    expect(r.body.code).to.equal(0)
    const def = r.body.data.find((p: { id: string }) => p.id === 'default')
    expect(def).to.include({ isBuiltin: true, isDefault: true, type: 'system' })
    expect(r.body.data.length).to.be.greaterThanOrEqual(4)
  })

  it('GET /api/preset/:id and 404 Preset not found', async () => {
    expect((await s.api('/api/preset/coder')).body.data.name).to.equal('代码助手')
    const r = await s.api('/api/preset/nope-nope')
    expect(r.status).to.equal(404)
    expect(r.body).to.deep.equal({ code: -1, data: null, message: 'Preset not found' })
  })

  it('POST creates with 201, rejects bad fields and duplicates', async () => {
    const r = await s.api('/api/preset/', { method: 'POST', json: { id: 'my_bot', name: '我的', systemPrompt: 'hi {{nickname}}', tools: { toolApprovalMode: 'manual' } } })
    expect(r.status).to.equal(201)
    expect(r.body.data).to.include({ id: 'my_bot', isBuiltin: false, isDefault: false, temperature: 0.7 })
    expect(r.body.data.tools.toolApprovalMode).to.equal('manual')
    const dup = await s.api('/api/preset/', { method: 'POST', json: { id: 'my_bot', name: 'x' } })
    expect(dup.status).to.equal(409)
    expect(dup.body.code).to.equal(-1)
    for (const bad of [{ id: 'okid', name: '' }, { id: 'okid', name: 'n', temperature: 3 }, { id: 'okid', name: 'n', maxTokens: 0 },
      { id: 'okid', name: 'n', systemPrompt: 'x'.repeat(10001) }, { id: 'a b', name: 'n' }, { id: 'builtin', name: 'n' }]) {
      const b = await s.api('/api/preset/', { method: 'POST', json: bad })
      expect(b.status, JSON.stringify(bad).slice(0, 60)).to.equal(400)
      expect(b.body.code).to.equal(-1)
    }
    expect((await s.api('/api/preset/okid')).status).to.equal(404)
  })

  it('POST /api/preset (no slash, no id) generates an id', async () => {
    const r = await s.api('/api/preset', { method: 'POST', json: { name: '无名' } })
    expect(r.status).to.equal(201)
    expect(r.body.data.id).to.match(/^custom_\d+$/)
    const bad = await s.api('/api/preset', { method: 'POST', json: [1, 2] })
    expect([bad.status, bad.body.code]).to.deep.equal([400, -1])
    const none = await s.api('/api/preset/x/y/z')
    expect([none.status, none.body.code]).to.deep.equal([404, -1])
  })

  it('PUT partially updates; toolApprovalMode null is dropped; 404 on unknown', async () => {
    const r = await s.api('/api/preset/my_bot', { method: 'PUT', json: { description: 'd', tools: { toolApprovalMode: null } } })
    expect(r.status).to.equal(200)
    expect(r.body.data.description).to.equal('d')
    expect(r.body.data.name).to.equal('我的')
    expect(r.body.data.tools).to.not.have.property('toolApprovalMode')
    expect(r.body.data.tools.enabled).to.equal(true)
    const stored = JSON.parse(readFileSync(join(s.dataDir, 'presets.json'), 'utf8')) as { presets: Array<{ id: string; tools: object }> }
    expect(stored.presets.find((p) => p.id === 'my_bot')?.tools).to.not.have.property('toolApprovalMode')
    expect((await s.api('/api/preset/none', { method: 'PUT', json: { name: 'x' } })).status).to.equal(404)
    expect((await s.api('/api/preset/my_bot', { method: 'PUT', json: { temperature: -1 } })).status).to.equal(400)
    expect((await s.api('/api/preset/coder', { method: 'PUT', json: { name: 'x' } })).status).to.equal(403)
  })

  it('PUT isDefault: true and POST /:id/default write presets.defaultId and llm.defaultChatPresetId', async () => {
    const r = await s.api('/api/preset/my_bot', { method: 'PUT', json: { isDefault: true } })
    expect(r.body.data.isDefault).to.equal(true)
    let cfg = s.lx.rt.config.get()
    expect(cfg.presets.defaultId).to.equal('my_bot')
    expect(cfg.llm.defaultChatPresetId).to.equal('my_bot')
    const list = (await s.api('/api/preset/list')).body.data as Array<{ id: string; isDefault: boolean }>
    expect(list.filter((p) => p.isDefault).map((p) => p.id)).to.deep.equal(['my_bot'])
    const d = await s.api('/api/preset/coder/default', { method: 'POST' })
    expect(d.body).to.deep.equal({ code: 0, data: { success: true }, message: 'ok' })
    cfg = s.lx.rt.config.get()
    expect([cfg.presets.defaultId, cfg.llm.defaultChatPresetId]).to.deep.equal(['coder', 'coder'])
    expect((await s.api('/api/preset/nope/default', { method: 'POST' })).status).to.equal(404)
    await s.api('/api/preset/default/default', { method: 'POST' })
  })

  it('GET /:id/prompt renders placeholders', async () => {
    const r = await s.api('/api/preset/my_bot/prompt?nickname=小明')
    expect(r.body.data).to.deep.equal({ prompt: 'hi 小明' })
    const def = await s.api('/api/preset/default/prompt?nickname=阿花&groupName=摸鱼群')
    expect(def.body.data.prompt).to.include('摸鱼群').and.not.include('{{')
    expect((await s.api('/api/preset/nope/prompt')).status).to.equal(404)
  })

  it('POST /from-builtin/:builtinId creates custom_<id>_<timestamp> with createdFrom', async () => {
    const r = await s.api('/api/preset/from-builtin/coder', { method: 'POST', json: { name: '我的代码助手' } })
    expect(r.status).to.equal(201)
    expect(r.body.data.id).to.match(/^custom_coder_\d+$/)
    expect(r.body.data).to.include({ isBuiltin: false, createdFrom: 'coder', name: '我的代码助手', temperature: 0.3 })
    const withId = await s.api('/api/preset/from-builtin/translator', { method: 'POST', json: { id: 'tr-2' } })
    expect(withId.body.data).to.include({ id: 'tr-2', createdFrom: 'translator', name: '翻译官' })
    expect((await s.api('/api/preset/from-builtin/none', { method: 'POST', json: {} })).status).to.equal(404)
    expect((await s.api('/api/preset/from-builtin/coder', { method: 'POST', json: { temperature: 'hot' } })).status).to.equal(400)
  })

  it('DELETE removes a user preset, 404 otherwise; deleting the default resets it', async () => {
    await s.api('/api/preset/tr-2/default', { method: 'POST' })
    const r = await s.api('/api/preset/tr-2', { method: 'DELETE' })
    expect(r.status).to.equal(200)
    expect(s.lx.rt.config.get().presets.defaultId).to.equal('default')
    expect((await s.api('/api/preset/tr-2', { method: 'DELETE' })).status).to.equal(404)
    expect((await s.api('/api/preset/tr-2')).status).to.equal(404)
  })

  it('/api/presets/config, builtin, categories', async () => {
    const c = await s.api('/api/presets/config')
    expect(c.body.data).to.deep.equal({ defaultId: 'default', allowUserSwitch: true, perUserPreset: false, perGroupPreset: false })
    const u = await s.api('/api/presets/config', { method: 'PUT', json: { defaultId: 'coder', perUserPreset: true } })
    expect(u.body.data).to.include({ defaultId: 'coder', perUserPreset: true })
    expect(s.lx.rt.config.get().llm.defaultChatPresetId).to.equal('coder')
    expect((await s.api('/api/presets/config', { method: 'PUT', json: { perUserPreset: 'yes' } })).status).to.equal(400)
    expect((await s.api('/api/presets/config', { method: 'PUT', json: { defaultId: 'ghost' } })).status).to.equal(404)
    await s.api('/api/presets/config', { method: 'PUT', json: { defaultId: 'default', perUserPreset: false } })
    const b = await s.api('/api/presets/builtin')
    expect(b.body.data.every((p: { isBuiltin: boolean }) => p.isBuiltin)).to.equal(true)
    const cat = await s.api('/api/presets/categories')
    expect(cat.body.code).to.equal(0)
    expect(cat.body.data.map((x: { id: string }) => x.id)).to.include('roleplay')
  })

  it('needs a session', async () => {
    const r = await fetch(`${s.base}/api/preset/list`)
    expect(r.status).to.equal(401)
    expect(((await r.json()) as { code: number }).code).to.equal(-1)
    expect((await fetch(`${s.base}/api/presets`)).status).to.equal(401)
  })

  it('GET /api/config/presets lists {id,name,description}', async () => {
    const r = await s.api('/api/config/presets')
    expect(r.body.success).to.equal(true)
    expect(r.body.data[0]).to.have.all.keys('id', 'name', 'description')
    expect(r.body.data.map((x: { id: string }) => x.id)).to.include('my_bot')
  })
})
