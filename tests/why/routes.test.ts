// The answer's why through real HTTP: a streamed answer that uses a memory and calls a tool sends the
// tool's events as they happen and the why record at its end; GET /api/chat/why/:id and ?conversationId=
// answer it; bad input is 400, an unknown id 404; GET /api/chat/defaults says what the bot would use.
import { expect } from 'chai'
import { readSse, post } from '../channels/helpers.js'
import { resetChat, startChatEnv, type ChatEnv } from '../chat/helpers.js'
import { fakeSource, fakeTool } from '../tools/helpers.js'

describe('why: routes', function () {
  this.timeout(20_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })

  const seedMemory = async (userId: string, content: string): Promise<number> => {
    const r = await env.s.api(`/api/memories/user/${userId}`, { method: 'POST', json: { content, category: 'preferences' } })
    expect(r.status, r.text).to.be.oneOf([200, 201])
    return r.body.data.id as number
  }

  it('streams tool events and ends with the why record: preset, channel, model, the memory used, the tool, tokens', async () => {
    const memoryId = await seedMemory('w1', 'drinks green tea every morning')
    env.fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: {} }], usage: { prompt_tokens: 20, completion_tokens: 2 } },
      { content: 'Time for green tea.', usage: { prompt_tokens: 30, completion_tokens: 6, prompt_tokens_details: { cached_tokens: 18 } } })
    const frames = await readSse(await post(env.s, '/api/chat/stream', { message: 'what should I drink with my tea now?', userId: 'w1' }))
    const types = frames.map((f) => f.data.type)
    expect(types[0]).to.equal('start')
    const call = frames.find((f) => f.data.type === 'tool_call')?.data
    const result = frames.find((f) => f.data.type === 'tool_result')?.data
    expect(call).to.include({ name: 'get_current_time' })
    expect(result).to.include({ name: 'get_current_time', id: call?.id, isError: false })
    expect(types.indexOf('tool_call')).to.be.below(types.indexOf('tool_result'))
    expect(types.indexOf('tool_result')).to.be.below(types.indexOf('content'))
    const end = frames.at(-1)?.data
    expect(end?.type).to.equal('end')
    expect(end?.whyId).to.match(/^w[a-z0-9]+$/)
    expect(end?.response).to.equal('Time for green tea.')
    const why = end?.why
    expect(why).to.deep.include({ id: end?.whyId, conversationId: 'private:w1', userId: 'w1', via: 'api', channel: 'fake', model: 'gpt-test' })
    expect(why.preset.id).to.be.a('string').and.not.equal('')
    expect(why.memories).to.deep.equal([{ id: memoryId, userId: 'w1', category: 'preference', content: 'drinks green tea every morning' }])
    expect(why.tools).to.have.length(1)
    expect(why.tools[0]).to.include({ name: 'get_current_time', isError: false, approval: 'none' })
    expect(why.tools[0].result).to.be.a('string').and.not.equal('')
    // the second call's input was partly served from the provider's cache
    expect(why.usage).to.deep.equal({ promptTokens: 50, completionTokens: 8, totalTokens: 58, cachedTokens: 18 })
    // the tool round's request starts with the whole first one (lib/chat/prefix.ts); the first had none before it
    const reused = why.calls[1]?.reusedChars
    expect(reused).to.be.a('number').and.above(100)
    expect(why.calls).to.deep.equal([
      { channel: 'fake', model: 'gpt-test', promptTokens: 20, completionTokens: 2, cachedTokens: 0, reusedChars: 0, previousChars: 0 },
      { channel: 'fake', model: 'gpt-test', promptTokens: 30, completionTokens: 6, cachedTokens: 18, reusedChars: reused, previousChars: reused }
    ])
    expect(why.durationMs).to.be.a('number')

    const one = await env.s.api(`/api/chat/why/${String(end?.whyId)}`)
    expect(one.status, one.text).to.equal(200)
    expect(one.body).to.include({ success: true })
    expect(one.body.data).to.deep.equal(why)
    const list = await env.s.api('/api/chat/why?conversationId=private%3Aw1')
    expect(list.status).to.equal(200)
    expect(list.body.data.records.map((r: { id: string }) => r.id)).to.deep.equal([end?.whyId])

    // a memory erased since is no longer shown: its id stays, its text goes
    await env.s.api(`/api/memories/${memoryId}?hard=true`, { method: 'DELETE' })
    const after = await env.s.api(`/api/chat/why/${String(end?.whyId)}`)
    expect(after.body.data.memories).to.deep.equal([{ id: memoryId, userId: 'w1', category: 'preference', content: '', removed: true }])

    // clearing the conversation removes its records too
    const cleared = await env.s.api('/api/conversations/private%3Aw1/clear', { method: 'POST' })
    expect(cleared.status).to.equal(200)
    expect((await env.s.api(`/api/chat/why/${String(end?.whyId)}`)).status).to.equal(404)
  })

  it('records the knowledge passages of the preset and the skills the message activated', async () => {
    const rt = env.s.lx.rt
    const preset = (await rt.need('conversations').pipeline.preset({ userId: 'w4', isMaster: false, via: 'api', conversationId: 'private:w4' })).id
    const doc = await rt.need('knowledge').create({ title: 'Tea glossary', content: 'Oolong is a partly oxidised tea from Fujian and Taiwan.', presetId: preset })
    try {
      const r = await env.s.api('/api/chat', { method: 'POST', json: { message: 'translate: what is oolong tea?', userId: 'w4' } })
      expect(r.status, r.text).to.equal(200)
      const why = (await env.s.api(`/api/chat/why/${String(r.body.data.whyId)}`)).body.data
      expect(why.knowledge).to.have.length(1)
      expect(why.knowledge[0]).to.include({ documentId: doc.id, title: 'Tea glossary' })
      expect(why.knowledge[0].excerpt).to.include('Oolong')
      expect(why.skills.map((k: { name: string }) => k.name)).to.include('translator')
    } finally {
      await rt.need('knowledge').remove(doc.id)
    }
  })

  it('POST /api/chat answers the whyId; a chosen channel, model and conversation are used and recorded', async () => {
    const r = await env.s.api('/api/chat', { method: 'POST', json: { message: 'hello', userId: 'w2', model: 'gpt-other', channel: 'fake', conversationId: 'web:w2:one' } })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data.conversationId).to.equal('web:w2:one')
    expect(env.fake.chatRequests().at(-1)?.body.model).to.equal('gpt-other')
    const rec = await env.s.api(`/api/chat/why/${String(r.body.data.whyId)}`)
    expect(rec.body.data).to.include({ conversationId: 'web:w2:one', channel: 'fake', model: 'gpt-other', question: 'hello' })
    expect(rec.body.data.memories).to.deep.equal([])
    const conv = await env.s.api('/api/conversations/web%3Aw2%3Aone')
    expect(conv.body.data.messages.map((m: { role: string }) => m.role)).to.deep.equal(['user', 'assistant'])
    const unknownChannel = await env.s.api('/api/chat', { method: 'POST', json: { message: 'hi', channel: 'nope' } })
    expect(unknownChannel.status).to.equal(503)
    expect(unknownChannel.body.code).to.equal('CHANNEL_UNAVAILABLE')
  })

  it('validates: bad ids and queries are 400, an unknown record 404, a bad conversationId in a chat 400', async () => {
    for (const path of ['/api/chat/why/nope!', '/api/chat/why/' + 'w'.repeat(60), '/api/chat/why', '/api/chat/why?conversationId=a%20b', '/api/chat/why?conversationId=x&limit=0', '/api/chat/why?conversationId=x&limit=abc', '/api/chat/defaults?userId=a/b']) {
      const r = await env.s.api(path)
      expect(r.status, path).to.equal(400)
      expect(r.body).to.include({ success: false, code: 'INVALID_ARGS' })
    }
    const missing = await env.s.api('/api/chat/why/wabc123')
    expect(missing.status).to.equal(404)
    const empty = await env.s.api('/api/chat/why?conversationId=private%3Anobody')
    expect(empty.body.data).to.deep.equal({ records: [] })
    const bad = await env.s.api('/api/chat', { method: 'POST', json: { message: 'hi', conversationId: 'a b' } })
    expect(bad.status).to.equal(400)
    expect(env.fake.chatRequests()).to.have.length(0)
  })

  it('GET /api/chat/defaults: the preset the bot resolves and the channel and model it would try first', async () => {
    const r = await env.s.api('/api/chat/defaults')
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data.channel).to.equal('fake')
    expect(r.body.data.model).to.equal('gpt-test')
    const preset = await env.s.lx.rt.need('conversations').pipeline.preset({ userId: '10001', isMaster: true, via: 'api', conversationId: 'private:10001' })
    expect(r.body.data.preset).to.deep.equal({ id: preset.id, name: preset.name })
  })

  it('a tool nobody may approve: the stream says denied as it happens, and so does the record', async () => {
    const rt = env.s.lx.rt
    rt.need('tools').registry.addSource(fakeSource('why-routes', [fakeTool('pour_tea', { dangerous: true })]))
    await rt.config.update({ tools: { allowDangerous: true, approvalMode: 'deny' } })
    try {
      env.fake.enqueue({ toolCalls: [{ name: 'pour_tea', arguments: { cups: 2 } }] }, { content: 'I may not pour.' })
      const frames = await readSse(await post(env.s, '/api/chat/stream', { message: 'pour two cups', userId: 'w3' }))
      const types = frames.map((f) => f.data.type)
      const approval = frames.find((f) => f.data.type === 'tool_approval')?.data
      expect(approval).to.include({ name: 'pour_tea', state: 'denied' })
      expect(types.indexOf('tool_call')).to.be.below(types.indexOf('tool_approval'))
      expect(types.indexOf('tool_approval')).to.be.below(types.indexOf('tool_result'))
      expect(frames.find((f) => f.data.type === 'tool_result')?.data.isError).to.equal(true)
      expect(frames.at(-1)?.data.why.tools[0]).to.include({ name: 'pour_tea', approval: 'denied', isError: true, arguments: '{"cups":2}' })
    } finally {
      await rt.config.update({ tools: { allowDangerous: false, approvalMode: 'auto' } })
    }
  })

  it('needs a session', async () => {
    const r = await fetch(`${env.s.base}/api/chat/why?conversationId=private%3Aw1`)
    expect(r.status).to.equal(401)
  })
})
