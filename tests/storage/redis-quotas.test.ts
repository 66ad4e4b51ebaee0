// Governance quotas counted across two instances of the plugin sharing one real Redis
// (lib/storage/README.md, "Redis"; lib/governance/quota.ts): A in the standalone host (QQ messages), B
// a second runtime with its own data folder (one standalone host per process: B's messages are admitted
// by its governance service, the call the QQ gate makes). Messages through both count against one day's quota, tokens recorded on one count on the other, a new
// quota day starts at zero, and Redis going away falls back to counting here. The runtime clock is on
// sinon fake timers (only Date). Skipped, saying why, where redis-server is missing.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startRedis, type TestRedis } from '../support/redis.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { saidTo } from '../governance/helpers.js'

const QUOTAS = { quotas: { user: { messagesPerMinute: 0, messagesPerDay: 3, tokensPerMinute: 0, tokensPerDay: 1000 }, group: { messagesPerMinute: 0, messagesPerDay: 0, tokensPerMinute: 0, tokensPerDay: 0 }, users: {}, message: '', resetTime: '04:00', timezone: 'UTC' } } as const

describe('Redis: quotas counted across two instances', function () {
  this.timeout(120_000)
  let redis: TestRedis | undefined
  let fake: FakeOpenAI
  let a: PluginHost
  let b: TestServer
  let clock: sinon.SinonFakeTimers | undefined

  before(async function () {
    redis = await startRedis(this)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    fake.respond = () => ({ content: '好的，收到' })
    a = await startPluginHost('miao', 'lingxi-quota-a-', { env: { LINGXI_REDIS_URL: redis.url } })
    // startTestServer copies process.env when it starts: B gets the address, later suites do not.
    process.env.LINGXI_REDIS_URL = redis.url
    try { b = await startTestServer() } finally { delete process.env.LINGXI_REDIS_URL }
    for (const rt of [a.run.rt, b.lx.rt]) await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-quota-test', model: 'gpt-test' }], ...structuredClone(QUOTAS) } as never)
  })
  after(async () => {
    await a?.stop()
    await b?.close()
    await fake?.close()
    await redis?.stop()
  })
  afterEach(() => { clock?.restore(); clock = undefined })

  const group = async (p: PluginHost, groupId: string, userId: string, text: string): Promise<string[]> => {
    const since = p.host.transcript.length
    await p.host.sendGroup(groupId, userId, `灵犀 ${text}`)
    return saidTo(p, 'group', groupId, since)
  }
  const who = (userId: string, groupId = '850'): { userId: string; groupId: string; isMaster: boolean; isGroupAdmin: boolean } => ({ userId, groupId, isMaster: false, isGroupAdmin: false })

  it('shares Redis between both', () => {
    expect(a.run.rt.shared?.address).to.equal(redis?.url)
    expect(b.lx.rt.shared?.address).to.equal(redis?.url)
  })

  it('two messages through A and one through B use up a day\'s three: the fourth is refused on either; a new day starts at zero', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2027, 4, 10, 9), toFake: ['Date'] })
    const calls = fake.chatRequests().length
    expect(await group(a, '850', '30050', '一')).to.deep.equal(['好的，收到'])
    expect(await group(a, '850', '30050', '二')).to.deep.equal(['好的，收到'])
    const gb = b.lx.rt.need('governance')
    expect(await gb.admit(who('30050', '851'))).to.deep.equal({ ok: true })
    expect(fake.chatRequests().length - calls).to.equal(2)
    expect(await gb.admit(who('30050', '851')), 'the fourth on B').to.include({ ok: false, reason: 'quota' })
    expect((await group(a, '850', '30050', '四'))[0] ?? '', 'the fourth on A').to.include('额度')
    expect(fake.chatRequests().length - calls, 'no model call past the quota').to.equal(2)
    expect((await gb.quotaLeft(who('30050', '851'))).user.messages).to.equal(0)
    expect(await group(a, '850', '30051', '别人'), 'another user has their own count').to.deep.equal(['好的，收到'])
    clock.setSystemTime(Date.UTC(2027, 4, 11, 4, 0))
    expect((await gb.quotaLeft(who('30050'))).user.messages, 'a new quota day').to.equal(3)
    expect(await group(a, '850', '30050', '新的一天')).to.deep.equal(['好的，收到'])
    expect((await gb.quotaLeft(who('30050'))).user.messages).to.equal(2)
  })

  it('counts tokens recorded on one instance on the other; #lx额度 shows the shared figures', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2027, 4, 12, 9), toFake: ['Date'] })
    const ga = a.run.rt.need('governance')
    const gb = b.lx.rt.need('governance')
    expect(await ga.admit(who('30060'))).to.deep.equal({ ok: true })
    await ga.recordTokens(who('30060'), 600)
    expect((await gb.quotaLeft(who('30060'))).user).to.deep.equal({ messages: 2, tokens: 400, minuteMessages: null })
    await gb.recordTokens(who('30060'), 400)
    expect(await ga.admit(who('30060')), 'the day\'s tokens are used up').to.include({ ok: false, reason: 'quota' })
    const since = a.host.transcript.length
    await a.host.sendPrivate('30060', '#lx额度')
    const said = saidTo(a, 'private', '30060', since).join('\n')
    expect(said, 'the shared figures').to.include('消息 剩余 2，token 剩余 0')
  })

  it('counts here, saying so once, while Redis cannot be reached', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2027, 4, 13, 9), toFake: ['Date'] })
    const gov = a.run.rt.need('governance')
    const shared = a.run.rt.shared
    if (!shared) throw new Error('no shared state')
    const warn = sinon.spy(a.run.rt.log, 'warn')
    const stubs = [sinon.stub(shared.quotas, 'take').rejects(new Error('down')), sinon.stub(shared.quotas, 'used').rejects(new Error('down'))]
    try {
      for (let i = 0; i < 3; i++) expect(await gov.admit(who('30070'))).to.deep.equal({ ok: true })
      expect(await gov.admit(who('30070')), 'the local count refuses the fourth').to.include({ ok: false, reason: 'quota' })
      expect(warn.getCalls().filter((c) => String(c.args[0]).includes('Redis is unreachable'))).to.have.length(1)
    } finally { for (const s of stubs) s.restore(); warn.restore() }
    expect((await gov.quotaLeft(who('30070'))).user.messages, 'Redis back: its counts again').to.equal(3)
  })
})
