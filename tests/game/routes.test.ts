// The game group (style B): character presets CRUD and the game config.
import { expect } from 'chai'
import sinon from 'sinon'
import { startTestServer, type TestServer } from '../support/server.js'

describe('game routes', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('lists the seeded characters', async () => {
    const r = await s.api('/api/game/presets')
    expect(r.status).to.equal(200)
    expect(r.body.code).to.equal(0)
    expect(r.body.data.map((c: { id: string }) => c.id)).to.include('sakura')
    expect(r.body.data[0]).to.include.keys('id', 'name', 'description', 'systemPrompt')
  })

  it('creates (201), gets, updates, deletes; validates; 404s', async () => {
    const c = await s.api('/api/game/presets', { method: 'POST', json: { id: 'knight', name: '骑士', description: '忠诚', systemPrompt: '你是骑士' } })
    expect(c.status).to.equal(201)
    expect(c.body.data).to.include({ id: 'knight', name: '骑士' })
    const gen = await s.api('/api/game/presets', { method: 'POST', json: { name: '无名', systemPrompt: 'p' } })
    expect(gen.body.data.id).to.match(/^char_\d+$/)
    expect(gen.body.data.description).to.equal('')
    expect((await s.api('/api/game/presets', { method: 'POST', json: { id: 'knight', name: 'x', systemPrompt: 'y' } })).status).to.equal(409)
    for (const bad of [{ name: '', systemPrompt: 'x' }, { name: 'x' }, { name: 'x', systemPrompt: 'y', id: 'a b' }, { name: 'x', systemPrompt: 'y', extra: 1 }, 'text']) {
      const b = await s.api('/api/game/presets', { method: 'POST', json: bad })
      expect(b.status, JSON.stringify(bad)).to.equal(400)
      expect(b.body).to.include({ code: -1, data: null })
    }
    expect((await s.api('/api/game/presets/knight')).body.data.systemPrompt).to.equal('你是骑士')
    const u = await s.api('/api/game/presets/knight', { method: 'PUT', json: { description: '勇敢' } })
    expect(u.body.data).to.include({ name: '骑士', description: '勇敢', systemPrompt: '你是骑士' })
    expect((await s.api('/api/game/presets/knight', { method: 'PUT', json: { name: '' } })).status).to.equal(400)
    expect((await s.api('/api/game/presets/nobody', { method: 'PUT', json: { name: 'a' } })).status).to.equal(404)
    expect((await s.api('/api/game/presets/knight', { method: 'DELETE' })).status).to.equal(200)
    const gone = await s.api('/api/game/presets/knight')
    expect(gone.status).to.equal(404)
    expect(gone.body.message).to.equal('Character not found')
    expect((await s.api('/api/game/presets/knight', { method: 'DELETE' })).status).to.equal(404)
  })

  it('GET/PUT /api/game/config', async () => {
    const g = await s.api('/api/game/config')
    expect(g.body.data).to.deep.equal({ probability: 1, enableTools: false, temperature: 0.9, maxTokens: 1024 })
    const u = await s.api('/api/game/config', { method: 'PUT', json: { probability: 0.5, maxTokens: 300 } })
    expect(u.body.data).to.include({ probability: 0.5, maxTokens: 300, temperature: 0.9 })
    expect(s.lx.rt.config.get().game.probability).to.equal(0.5)
    for (const bad of [{ probability: 2 }, { temperature: -1 }, { maxTokens: 0 }, { enableTools: 'yes' }, { other: 1 }]) {
      expect((await s.api('/api/game/config', { method: 'PUT', json: bad })).status, JSON.stringify(bad)).to.equal(400)
    }
  })

  it('talk passes the character prompt and game settings to the ChatService', async () => {
    const rt = s.lx.rt
    const calls: Array<{ conversationId: string; input: string; opts: unknown }> = []
    const reply = sinon.stub(rt.need('conversations').pipeline, 'reply').callsFake(async (scope, input, opts) => { calls.push({ conversationId: scope.conversationId, input, opts }); return { response: `角色：${input}`, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, conversationId: scope.conversationId } })
    try {
      await rt.config.update({ game: { probability: 1, enableTools: true, temperature: 0.4, maxTokens: 222 } })
      const scope = { userId: '30003', groupId: '900', nickname: '阿杰', isMaster: false, via: 'bot' as const }
      expect(await rt.need('game').talk(scope, '你好')).to.equal(undefined)
      await rt.need('game').start({ userId: '30003', groupId: '900' }, 'sakura')
      expect(await rt.need('game').talk(scope, '你好')).to.equal('角色：你好')
      expect(calls[0]?.conversationId).to.equal('game:900:30003:sakura')
      const opts = calls[0]?.opts as { systemPromptOverride: string; temperature: number; maxTokens: number; toolsEnabled: boolean }
      expect(opts).to.include({ temperature: 0.4, maxTokens: 222, toolsEnabled: true })
      expect(opts.systemPromptOverride).to.include('樱').and.include('阿杰').and.not.include('{{')
      // probability: in a group a draw at or above it stays silent
      await rt.config.update({ game: { probability: 0.3 } })
      rt.need('game').random = () => 0.5
      expect(await rt.need('game').talk(scope, '在吗')).to.equal(undefined)
      rt.need('game').random = () => 0.1
      expect(await rt.need('game').talk(scope, '在吗')).to.equal('角色：在吗')
      expect(rt.need('game').session({ userId: '30003', groupId: '900' })?.turns).to.equal(2)
      await rt.need('game').leave({ userId: '30003', groupId: '900' })
      expect(rt.need('game').session({ userId: '30003', groupId: '900' })).to.equal(undefined)
    } finally {
      rt.need('game').random = Math.random
      reply.restore()
    }
  })
})
