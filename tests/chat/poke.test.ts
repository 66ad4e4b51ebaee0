// Pokes through the standalone host: the bot answers a poke with probability tools.eventProbability.
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { sentMessages, spokenMessages } from './helpers.js'
import { PROFILES } from '../host/helpers.js'

for (const profile of PROFILES) describe(`chat: pokes (notice.*.poke), ${profile} profile`, function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-poke-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => { fake.reset() })

  it('answers a poke of the bot in a group and in private when the probability is 1', async () => {
    await p.run.rt.config.update({ tools: { eventProbability: 1 } })
    const res = await p.host.poke({ userId: '50001', groupId: '900' })
    expect(res).to.include({ stage: 'handled', plugin: 'lingxi-poke' })
    expect(p.host.transcript.at(-1)).to.include({ target: 'group', targetId: '900' })
    expect(p.host.transcript.at(-1)?.text).to.match(/^echo: （.*戳了戳你）$/)
    // the poke went through the chat pipeline of that user's conversation
    expect(sentMessages(fake.chatRequests().at(-1)?.body).at(-1)?.content).to.include('戳了戳你')
    expect(p.run.rt.need('conversations').store.history('group:900:50001')).to.have.length(2)
    await p.host.poke({ userId: '50001' })
    expect(p.host.transcript.at(-1)).to.include({ target: 'private', targetId: '50001' })
  })

  it('stays quiet with probability 0, for pokes of someone else, and in a disabled group', async () => {
    await p.run.rt.config.update({ tools: { eventProbability: 0 } })
    const before = p.host.transcript.length
    expect((await p.host.poke({ userId: '50002', groupId: '900' })).stage).to.not.equal('handled')
    await p.run.rt.config.update({ tools: { eventProbability: 1 }, groups: { 901: { enabled: false } } })
    await p.host.poke({ userId: '50002', groupId: '900', targetId: '50003' })
    await p.host.poke({ userId: '50002', groupId: '901' })
    expect(p.host.transcript.length).to.equal(before)
    expect(fake.chatRequests()).to.have.length(0)
    await p.run.rt.config.update({ groups: {} })
  })

  it('a failing model gets no error message for a poke', async () => {
    await p.run.rt.config.update({ tools: { eventProbability: 1 } })
    fake.enqueue({ status: 500 })
    const before = p.host.transcript.length
    expect((await p.host.poke({ userId: '50004', groupId: '900' })).stage).to.equal('handled')
    expect(p.host.transcript.length).to.equal(before)
    expect(p.run.rt.log.query({ level: 'warn' }).map((e) => e.message)).to.include('No reaction to an event')
  })
})
