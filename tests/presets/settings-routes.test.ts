// The preset settings and the preset editor's routes (docs/api.md, presets): PUT /api/presets/config
// refuses a default preset that does not exist; a group's preset (groups.<id>.preset) must exist, through
// PUT /api/config/groups/:id as the dashboard's preset settings form sends it; POST /api/preset/prompt-preview
// renders a prompt not saved yet with the placeholders the bot fills.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

describe('preset settings and editor routes', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('PUT /api/presets/config saves the switches and an existing default; refuses an unknown default and wrong types', async () => {
    const ok = await s.api('/api/presets/config', { method: 'PUT', json: { defaultId: 'coder', allowUserSwitch: false, perGroupPreset: true } })
    expect(ok.status, ok.text).to.equal(200)
    expect(ok.body.data).to.deep.equal({ defaultId: 'coder', allowUserSwitch: false, perUserPreset: false, perGroupPreset: true })
    expect(s.lx.rt.config.get().llm.defaultChatPresetId).to.equal('coder')
    const unknown = await s.api('/api/presets/config', { method: 'PUT', json: { defaultId: 'no-such' } })
    expect([unknown.status, unknown.body.code, unknown.body.message]).to.deep.equal([404, -1, 'Preset not found'])
    for (const bad of [{ allowUserSwitch: 'yes' }, { defaultId: '' }, { nonsense: true }]) {
      const r = await s.api('/api/presets/config', { method: 'PUT', json: bad })
      expect(r.status, JSON.stringify(bad)).to.equal(400)
    }
    expect(s.lx.rt.config.get().presets.defaultId).to.equal('coder')
  })

  it('a group preset must exist: an unknown id is refused naming the field, a known one is taken', async () => {
    const bad = await s.api('/api/config/groups/777001', { method: 'PUT', json: { preset: 'ghost' } })
    expect(bad.status).to.equal(400)
    expect(bad.body).to.deep.include({ success: false, code: 'INVALID_CONFIG' })
    expect(bad.body.errors).to.deep.equal([{ path: 'groups.777001.preset', message: 'preset "ghost" does not exist' }])
    const good = await s.api('/api/config/groups/777001', { method: 'PUT', json: { preset: 'translator' } })
    expect(good.status, good.text).to.equal(200)
    expect((await s.api('/api/config/groups/777001')).body.data.preset).to.equal('translator')
    // empty = the default again
    expect((await s.api('/api/config/groups/777001', { method: 'PUT', json: { preset: '' } })).status).to.equal(200)
  })

  it('a sampling field set to null is unset (the preset editor\'s "not set"); out of range is refused', async () => {
    expect((await s.api('/api/presets', { method: 'POST', json: { id: 'sampler', name: 'Sampler', topP: 0.8, presencePenalty: 1 } })).status).to.equal(201)
    const r = await s.api('/api/presets/sampler', { method: 'PUT', json: { topP: null, frequencyPenalty: -0.5 } })
    expect(r.status, r.text).to.equal(200)
    const p = (await s.api('/api/presets/sampler')).body.data
    expect(p).to.not.have.property('topP')
    expect(p).to.include({ frequencyPenalty: -0.5, presencePenalty: 1 })
    const bad = await s.api('/api/presets/sampler', { method: 'PUT', json: { topP: 1.5 } })
    expect([bad.status, bad.body.code, bad.body.errors?.[0]?.path]).to.deep.equal([400, 'INVALID_PRESET', 'topP'])
  })

  it('POST /api/preset/prompt-preview renders the placeholders for a sample chat and lists them', async () => {
    const r = await s.api('/api/preset/prompt-preview', { method: 'POST', json: { systemPrompt: '你好 {{nickname}}{{groupLine}}，我是{{botName}}（{{presetName}}）{{unknown}}', name: '助手', nickname: '小明', groupName: '读书会' } })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.code).to.equal(0)
    expect(r.body.data.prompt).to.equal('你好 小明，你们在群聊「读书会」中，我是灵犀（助手）{{unknown}}')
    expect(r.body.data.placeholders).to.include.members(['nickname', 'groupLine', 'botName', 'date'])
    expect(r.body.data.cacheBreakers, 'the speaker changes in a shared group conversation').to.deep.equal([{ placeholder: 'nickname', changes: 'speaker' }])
    const priv = await s.api('/api/preset/prompt-preview', { method: 'POST', json: { systemPrompt: '{{groupLine}}' } })
    expect(priv.body.data.prompt).to.equal('，你们在私聊中')
    expect(priv.body.data.cacheBreakers, 'nothing that changes between turns').to.deep.equal([])
    // the time and the date change the start of every request (README "What it costs")
    const timed = await s.api('/api/preset/prompt-preview', { method: 'POST', json: { systemPrompt: '现在是 {{ date }} {{time}}，{{time}}' } })
    expect(timed.body.data.cacheBreakers).to.deep.equal([{ placeholder: 'date', changes: 'day' }, { placeholder: 'time', changes: 'turn' }])
    for (const bad of [{}, { systemPrompt: 5 }, { systemPrompt: 'x'.repeat(10001) }]) {
      const b = await s.api('/api/preset/prompt-preview', { method: 'POST', json: bad })
      expect([b.status, b.body.code], JSON.stringify(bad).slice(0, 40)).to.deep.equal([400, -1])
    }
  })
})
