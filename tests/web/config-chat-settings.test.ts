// The bot-in-a-chat settings (issue 18) through the config API the dashboard uses: the new sections by
// GET/PUT /api/config/:section, and per-group overrides by GET/PUT /api/config/groups/:groupId, where
// null unsets an override so the global value applies again.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'

describe('config routes: bot-in-a-chat settings', () => {
  let s: TestServer
  const userFile = (): string => join(s.dataDir, 'config.yaml')
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('every new section is read and written by its section route', async () => {
    for (const name of ['delivery', 'input', 'groupLog', 'proactive']) {
      const r = await s.api(`/api/config/${name}`)
      expect(r.status, name).to.equal(200)
      expect(r.body.data, name).to.be.an('object')
    }
    const d = await s.api('/api/config/delivery', { method: 'PUT', json: { longAnswer: 'image', longAnswerChars: 800, quote: false } })
    expect(d.status).to.equal(200)
    expect(d.body.data.updated).to.have.members(['delivery.longAnswer', 'delivery.longAnswerChars', 'delivery.quote'])
    expect(s.lx.rt.config.get().delivery).to.include({ longAnswer: 'image', longAnswerChars: 800, quote: false, markdown: 'plain' })
    const p = await s.api('/api/config/proactive', { method: 'PUT', json: { enabled: true, hourlyCap: 2 } })
    expect(p.body.data.section).to.include({ enabled: true, hourlyCap: 2, dailyCap: 12 })
    const g = await s.api('/api/config/groupLog', { method: 'PUT', json: { excludeUsers: ['10086'], contextMessages: 0 } })
    expect(g.body.data.section).to.include({ contextMessages: 0 })
    expect(g.body.data.section.excludeUsers).to.deep.equal(['10086'])
    // the fields of other sections the dashboard edits beside them
    const c = await s.api('/api/config', { method: 'PUT', json: { chat: { groupConversation: 'group', burstWindowMs: 1500 }, trigger: { keywords: ['灵犀'] } } })
    expect(c.body.data.updated).to.have.members(['chat.groupConversation', 'chat.burstWindowMs', 'trigger.keywords'])
  })

  it('a null goes back to the default; an out-of-range value is refused with its path', async () => {
    await s.api('/api/config/delivery', { method: 'PUT', json: { longAnswerChars: 900 } })
    const reset = await s.api('/api/config/delivery', { method: 'PUT', json: { longAnswerChars: null } })
    expect(reset.status).to.equal(200)
    expect(reset.body.data.section.longAnswerChars).to.equal(500)
    const bad = await s.api('/api/config/delivery', { method: 'PUT', json: { longAnswerChars: 3, longAnswer: 'scroll' } })
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('INVALID_CONFIG')
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members(['delivery.longAnswerChars', 'delivery.longAnswer'])
    // per-event probabilities: poke set, then unset (poke has no default: tools.eventProbability applies)
    await s.api('/api/config/tools', { method: 'PUT', json: { eventProbability: 0.4, eventProbabilities: { poke: 1 } } })
    expect(s.lx.rt.config.get().tools.eventProbabilities.poke).to.equal(1)
    await s.api('/api/config/tools', { method: 'PUT', json: { eventProbabilities: { poke: null } } })
    expect(s.lx.rt.config.get().tools.eventProbabilities).to.not.have.property('poke')
    expect(s.lx.rt.config.get().tools.eventProbability).to.equal(0.4)
  })

  it('a null for a value the user never set changes nothing (an emptied dashboard field on a default)', async () => {
    const fresh = await startTestServer()
    try {
      const d = await fresh.api('/api/config/delivery', { method: 'PUT', json: { sentenceDelayMs: null, quote: false } })
      expect(d.status, JSON.stringify(d.body)).to.equal(200)
      expect(d.body.data.updated).to.deep.equal(['delivery.quote'])
      expect(d.body.data.section.sentenceDelayMs).to.equal(800)
      // a null under a section the user's file does not have yet (it used to answer 500)
      const t = await fresh.api('/api/config/tools', { method: 'PUT', json: { eventProbabilities: { join: null, poke: null } } })
      expect(t.status, JSON.stringify(t.body)).to.equal(200)
      expect(fresh.lx.rt.config.get().tools.eventProbabilities).to.deep.equal({ join: 0, recall: 0 })
      const g = await fresh.api('/api/config/groups/42', { method: 'PUT', json: { delivery: { markdown: null }, proactive: { enabled: true, hourlyCap: null } } })
      expect(g.status, JSON.stringify(g.body)).to.equal(200)
      expect(g.body.data.overrides.proactive).to.deep.equal({ enabled: true })
      expect(readFileSync(join(fresh.dataDir, 'config.yaml'), 'utf8')).to.not.match(/null/)
    } finally { await fresh.close() }
  })

  it('the transcription key is masked and a masked value sent back keeps it', async () => {
    const secret = 'sk-whisper-abcdefgh12345678'
    await s.api('/api/config/input', { method: 'PUT', json: { transcription: { baseUrl: 'https://asr.example.com/v1', apiKey: secret } } })
    const got = await s.api('/api/config/input')
    const masked = got.body.data.transcription.apiKey as string
    expect(masked).to.include('****')
    expect(got.text).to.not.include(secret)
    const back = await s.api('/api/config/input', { method: 'PUT', json: { ...got.body.data, forwardMaxMessages: 10 } })
    expect(back.status).to.equal(200)
    expect(back.text).to.not.include(secret)
    expect(s.lx.rt.config.get().input.transcription.apiKey).to.equal(secret)
    expect(s.lx.rt.config.get().input.forwardMaxMessages).to.equal(10)
  })

  it('group route: overrides are set, shown apart from the values in force, and unset by null', async () => {
    const before = await s.api('/api/config/groups/555001')
    expect(before.body.data.overrides).to.deep.equal({})
    expect(before.body.data.effective.delivery.longAnswer).to.equal('image') // the global value
    const put = await s.api('/api/config/groups/555001', {
      method: 'PUT',
      json: { delivery: { longAnswer: 'off', atSender: true }, conversation: 'user', burstWindowMs: 0, proactive: { dailyCap: 1 }, events: { poke: 0 }, trigger: { keywords: ['小犀'] } }
    })
    expect(put.status).to.equal(200)
    const v = (await s.api('/api/config/groups/555001')).body.data
    expect(v.overrides.delivery).to.deep.equal({ longAnswer: 'off', atSender: true })
    expect(v.overrides).to.include({ conversation: 'user', burstWindowMs: 0 })
    expect(v.overrides).to.not.have.property('contextMessages')
    expect(v.effective.delivery).to.include({ longAnswer: 'off', atSender: true, quote: false })
    expect(v.effective).to.include({ conversation: 'user', burstWindowMs: 0 })
    expect(v.effective.proactive).to.include({ dailyCap: 1, hourlyCap: 2 })
    expect(v.effective.events).to.deep.equal({ poke: 0, join: 0, recall: 0 })
    expect(v.effective.keywords).to.deep.equal(['小犀'])
    expect(v.trigger).to.deep.equal({ type: 'both', randomRate: 0 })

    // null unsets; nulls for fields never set are ignored (not stored as null)
    const unset = await s.api('/api/config/groups/555001', {
      method: 'PUT',
      json: { delivery: { longAnswer: null, markdown: null }, conversation: null, contextMessages: null, proactive: null, events: { recall: null }, trigger: { keywords: null, type: null } }
    })
    expect(unset.status).to.equal(200)
    const after = (await s.api('/api/config/groups/555001')).body.data
    expect(after.overrides.delivery).to.deep.equal({ atSender: true })
    expect(after.overrides).to.not.have.any.keys('conversation', 'proactive', 'contextMessages')
    expect(after.overrides.events).to.deep.equal({ poke: 0 })
    expect(after.effective.conversation).to.equal('group') // the global value again
    expect(after.effective.keywords).to.deep.equal(['灵犀'])
    const yaml = readFileSync(userFile(), 'utf8')
    expect(yaml).to.not.match(/null/)
    expect(s.lx.rt.config.get().groups['555001']?.delivery).to.deep.equal({ atSender: true })
  })

  it('group route: refuses values out of range with their paths and writes nothing', async () => {
    const before = readFileSync(userFile(), 'utf8')
    const bad = await s.api('/api/config/groups/555001', { method: 'PUT', json: { delivery: { longAnswerChars: 1 }, proactive: { probability: 2 }, conversation: 'everyone' } })
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('INVALID_CONFIG')
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members(['delivery.longAnswerChars', 'proactive.probability', 'conversation'])
    const unknown = await s.api('/api/config/groups/555001', { method: 'PUT', json: { delivery: { loud: true } } })
    expect(unknown.status).to.equal(400)
    expect(readFileSync(userFile(), 'utf8')).to.equal(before)
  })

  it('the OpenAPI document describes the new group fields', async () => {
    const doc = (await s.api('/api/openapi.json')).body
    const body = doc.paths['/api/config/groups/{groupId}'].put.requestBody.content['application/json'].schema
    const text = JSON.stringify(body)
    for (const k of ['delivery', 'conversation', 'burstWindowMs', 'contextMessages', 'proactive', 'events', 'keywords']) expect(text, k).to.include(`"${k}"`)
  })
})
