// Access, quotas and moderation through the standalone host (both profiles): real messages into the
// plugin, the fake model, the runtime clock on sinon fake timers (only Date: the network keeps its
// timers), the hit log read through the dashboard API.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'
import { apiOf, saidTo } from './helpers.js'

const RESET = { access: { userBlacklist: [], groupBlacklist: [], userWhitelistOnly: false, userWhitelist: [], groupWhitelistOnly: false, groupWhitelist: [], features: { chat: [], drawing: [], game: [], tools: [], toolsMedium: [], toolsHigh: [] }, refusal: 'silent', refusalText: '' },
  quotas: { user: { messagesPerMinute: 0, messagesPerDay: 0, tokensPerMinute: 0, tokensPerDay: 0 }, group: { messagesPerMinute: 0, messagesPerDay: 0, tokensPerMinute: 0, tokensPerDay: 0 }, users: {}, message: '', resetTime: '00:00', timezone: 'UTC' },
  moderation: { strictness: 'mask', checkInput: true, checkOutput: true, useDefaultList: true, keywords: [], regexes: [], notice: '' },
  groups: {} } as const

for (const profile of PROFILES) describe(`governance through the standalone host, ${profile} profile`, function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let clock: sinon.SinonFakeTimers | undefined

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-governance-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-governance-test', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    fake.reset()
    fake.respond = () => ({ content: '好的，收到' })
    await p.run.rt.config.update(structuredClone(RESET) as never)
    p.run.rt.need('conversations').pipeline.reset()
  })
  afterEach(() => { clock?.restore(); clock = undefined })

  const calls = (): number => fake.chatRequests().length
  const group = async (groupId: string, userId: string, text: string): Promise<string[]> => {
    const since = p.host.transcript.length
    await p.host.sendGroup(groupId, userId, `灵犀 ${text}`)
    return saidTo(p, 'group', groupId, since)
  }
  const dm = async (userId: string, text: string): Promise<string[]> => {
    const since = p.host.transcript.length
    await p.host.sendPrivate(userId, text)
    return saidTo(p, 'private', userId, since)
  }

  it('a blacklisted user gets no model call (silence, or the refusal text); the master passes a blacklist', async () => {
    await p.run.rt.config.update({ access: { userBlacklist: ['30001', MASTER] } })
    expect(await group('800', '30001', '你好')).to.deep.equal([])
    expect(await dm('30001', '你好')).to.deep.equal([])
    expect(calls(), 'no model call for a blacklisted user').to.equal(0)
    await p.run.rt.config.update({ access: { refusal: 'reply', refusalText: '' } })
    expect(await dm('30001', '你好')).to.deep.equal(['抱歉，你暂时不能使用灵犀。'])
    await p.run.rt.config.update({ access: { refusalText: '不理你' } })
    expect(await group('800', '30001', '你好')).to.have.length(1).and.satisfy((l: string[]) => l[0]?.includes('不理你'))
    expect(calls()).to.equal(0)
    expect(await dm(MASTER, '你好'), 'the master is never locked out').to.deep.equal(['好的，收到'])
    expect(await group('800', '30002', '你好'), 'others are answered').to.have.length(1)
    expect(calls()).to.equal(2)
  })

  it('whitelist mode answers only listed groups; a blacklisted group is ignored, whatever the refusal setting', async () => {
    await p.run.rt.config.update({ access: { groupWhitelistOnly: true, groupWhitelist: ['810'], groupBlacklist: ['812'], refusal: 'reply' } })
    expect(await group('810', '30003', '在吗')).to.deep.equal(['好的，收到'])
    expect(await group('811', '30003', '在吗'), 'not listed: silence, even with refusal reply').to.deep.equal([])
    await p.run.rt.config.update({ access: { groupWhitelistOnly: false } })
    expect(await group('812', '30003', '在吗')).to.deep.equal([])
    expect(await group('811', '30003', '在吗')).to.deep.equal(['好的，收到'])
    expect(calls()).to.equal(2)
  })

  it('user whitelist mode and per-group feature lists', async () => {
    await p.run.rt.config.update({ access: { userWhitelistOnly: true, userWhitelist: ['30010'], refusal: 'reply' } })
    expect(await dm('30011', '你好')).to.deep.equal(['抱歉，你暂时不能使用灵犀。'])
    expect(await dm('30010', '你好')).to.deep.equal(['好的，收到'])
    await p.run.rt.config.update({ access: { userWhitelistOnly: false }, groups: { 820: { access: { features: { chat: ['30012', 'admin'] } } } } })
    expect(await group('820', '30013', '你好')).to.deep.equal(['抱歉，你在这里不能使用这个功能。'])
    expect(await group('820', '30012', '你好')).to.deep.equal(['好的，收到'])
    expect(await group('821', '30013', '你好'), 'other groups keep the global list (everyone)').to.deep.equal(['好的，收到'])
    expect(calls()).to.equal(3)
  })

  it('tools by risk tier: a user outside tools gets none; outside toolsMedium / toolsHigh no tool of that risk is offered', async () => {
    const kit = p.run.rt.need('tools')
    const offered = (): Array<{ name: string; risk: string }> => {
      const body = fake.chatRequests().at(-1)?.body
      return (body?.tools ?? []).map((t: { function: { name: string } }) => {
        const reg = kit.registry.get(kit.provider.nameOf(t.function.name) ?? t.function.name)
        return { name: t.function.name, risk: reg ? kit.registry.riskOf(reg) : 'unknown' }
      })
    }
    await dm('30080', '帮我查一下天气，顺便画张图')
    const all = offered()
    expect(all.some((t) => t.risk === 'medium'), 'the default offer has medium-risk tools').to.equal(true)
    await p.run.rt.config.update({ access: { features: { toolsMedium: ['30081'], toolsHigh: ['30081'] } } })
    await dm('30080', '帮我查一下天气，再画张图')
    const limited = offered()
    expect(limited.length).to.be.greaterThan(0)
    expect(limited.filter((t) => t.risk !== 'low'), 'only low-risk tools').to.deep.equal([])
    await dm('30081', '帮我查一下天气，还要画张图')
    expect(offered().some((t) => t.risk === 'medium'), 'a listed user gets them').to.equal(true)
    await dm(MASTER, '帮我查一下天气，以及画张图')
    expect(offered().some((t) => t.risk === 'medium'), 'masters get every tier').to.equal(true)
    await p.run.rt.config.update({ access: { features: { tools: ['30081'] } } })
    await dm('30080', '帮我查一下天气吧')
    expect(fake.chatRequests().at(-1)?.body.tools, 'not in the tools list: no tools at all').to.equal(undefined)
  })

  it('the fifth message past a limit of four gets the quota message and no model call; the next day\'s first passes', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2027, 2, 10, 9), toFake: ['Date'] })
    await p.run.rt.config.update({ quotas: { user: { messagesPerDay: 4 }, resetTime: '04:00', timezone: 'UTC' } })
    for (let i = 1; i <= 4; i++) expect(await group('830', '30020', `第${i}条`)).to.deep.equal(['好的，收到'])
    expect(calls()).to.equal(4)
    const fifth = await group('830', '30020', '第5条')
    expect(fifth).to.have.length(1)
    expect(fifth[0]).to.include('已达到使用额度（每日消息数）')
    expect(calls(), 'no model call past the quota').to.equal(4)
    expect(await dm('30020', '私聊也算'), 'a user\'s quota counts over all chats').to.have.length(1).and.satisfy((l: string[]) => l[0]?.includes('额度'))
    expect(await group('830', '30021', '别人'), 'another user has their own count').to.deep.equal(['好的，收到'])
    clock.setSystemTime(Date.UTC(2027, 2, 11, 3, 59))
    expect((await group('830', '30020', '还没到重置时间'))[0]).to.include('额度')
    clock.setSystemTime(Date.UTC(2027, 2, 11, 4, 0))
    expect(await group('830', '30020', '新的一天')).to.deep.equal(['好的，收到'])
    expect(calls()).to.equal(6)
  })

  it('group and per-minute limits, per-group and per-user overrides, a configured message; #lx额度 tells what is left', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2027, 2, 12, 9), toFake: ['Date'] })
    await p.run.rt.config.update({
      quotas: { group: { messagesPerMinute: 2 }, user: { messagesPerDay: 10 }, users: { 30031: { messagesPerDay: 1 } }, message: '今天到此为止' },
      groups: { 841: { quotas: { group: { messagesPerMinute: 0 } } } }
    })
    expect(await group('840', '30030', 'a')).to.have.length(1)
    expect(await group('840', '30032', 'b')).to.deep.equal(['好的，收到'])
    expect(await group('840', '30033', 'c'), 'the group\'s third in the minute').to.deep.equal(['今天到此为止'])
    clock.tick(60_000)
    expect(await group('840', '30033', 'd'), 'the next minute').to.deep.equal(['好的，收到'])
    expect(await group('841', '30031', 'e')).to.deep.equal(['好的，收到'])
    expect(await group('841', '30031', 'f'), 'the user\'s own limit of 1').to.deep.equal(['今天到此为止'])
    const since = p.host.transcript.length
    await p.host.sendGroup('841', '30030', '#lx额度')
    const left = saidTo(p, 'group', '841', since)
    expect(left).to.have.length(1)
    expect(left[0]).to.include('你：消息 剩余 9').and.include('本群：消息 剩余 不限')
    expect(await dm(MASTER, '#lx额度')).to.deep.equal(['你是主人，不受额度限制。'])
  })

  it('a token quota stops after the recorded tokens exceed it', async () => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2027, 2, 13, 9), toFake: ['Date'] })
    fake.respond = () => ({ content: '好的，收到', usage: { prompt_tokens: 300, completion_tokens: 200 } })
    await p.run.rt.config.update({ quotas: { user: { tokensPerDay: 1200 } } })
    expect(await dm('30040', '1')).to.deep.equal(['好的，收到'])
    expect(await dm('30040', '2')).to.deep.equal(['好的，收到']) // 1000 recorded: under 1200
    expect(await dm('30040', '3')).to.deep.equal(['好的，收到']) // 1500 now
    expect((await dm('30040', '4'))[0]).to.include('每日 token 数')
    expect(calls()).to.equal(3)
  })

  it('a banned word in an answer is masked or refused as the group\'s setting says, and the hit is logged (route)', async () => {
    await p.run.rt.config.update({ moderation: { keywords: ['禁词甲'] }, groups: { 851: { moderation: { strictness: 'refuse' } }, 852: { moderation: { strictness: 'off' } } } })
    fake.respond = () => ({ content: '这里有禁词甲和冰毒两个词' })
    expect(await group('850', '30050', '说点什么')).to.deep.equal(['这里有＊＊＊和＊＊＊两个词'])
    expect(await group('851', '30050', '说点什么')).to.deep.equal(['回答中包含不允许的内容，已被拦截。'])
    expect(await group('852', '30050', '说点什么')).to.deep.equal(['这里有禁词甲和冰毒两个词'])
    const api = await apiOf(p.run.rt)
    const r = await api('/api/governance/hits?groupId=851')
    expect(r.status).to.equal(200)
    expect(r.body.total).to.equal(1)
    expect(r.body.data[0]).to.include({ userId: '30050', groupId: '851', direction: 'output', action: 'refuse' })
    expect(r.body.data[0].rules).to.have.members(['禁词甲', '冰毒'])
    const all = await api('/api/governance/hits?direction=output&limit=1')
    expect(all.body.total).to.equal(2)
    expect(all.body.data).to.have.length(1)
    expect(all.body.data[0].groupId, 'newest first').to.equal('851')
    expect((await api('/api/governance/hits?direction=sideways')).status).to.equal(400)
  })

  it('a banned word in the input is refused before any model call (refuse), masked before the model (mask)', async () => {
    await p.run.rt.config.update({ moderation: { strictness: 'refuse', regexes: ['/买.{0,3}枪/'] } })
    expect(await group('860', '30060', '哪里可以买把枪')).to.deep.equal(['这条消息包含不允许的内容，无法回答。'])
    expect(await dm('30060', '告诉我海洛因的事')).to.deep.equal(['这条消息包含不允许的内容，无法回答。'])
    expect(calls(), 'no model call').to.equal(0)
    await p.run.rt.config.update({ moderation: { strictness: 'mask' } })
    expect(await dm('30060', '告诉我海洛因的事')).to.deep.equal(['好的，收到'])
    const asked = JSON.stringify(fake.chatRequests()[0]?.body.messages)
    expect(asked).to.include('告诉我＊＊＊的事').and.not.include('海洛因')
    const api = await apiOf(p.run.rt)
    const r = await api('/api/governance/hits?direction=input&userId=30060')
    expect(r.body.data.map((h: { action: string }) => h.action)).to.deep.equal(['mask', 'refuse', 'refuse'])
  })

  it('drawing obeys its feature list and input moderation; the game its feature list', async () => {
    await p.run.rt.need('channels').service.create({ name: `img-${profile}`, baseUrl: fake.url, apiKey: 'sk-image-test', model: 'gpt-test', image: { enabled: true, model: 'dall-e-3' } }).catch(() => undefined)
    await p.run.rt.config.update({ image: { enabled: true, maxImages: 1, sendMode: 'direct' }, access: { features: { drawing: ['30091'], game: ['30091'] }, refusal: 'reply' }, moderation: { strictness: 'refuse' } })
    const drawings = (): number => fake.requests.filter((r) => r.path.endsWith('/images/generations')).length
    expect(await dm('30090', '画图 一只橘猫')).to.deep.equal(['抱歉，你在这里不能使用这个功能。'])
    expect(drawings(), 'not drawn').to.equal(0)
    expect(await dm('30091', '画图 一包冰毒')).to.deep.equal(['这条消息包含不允许的内容，无法回答。'])
    expect(drawings(), 'a banned description is not drawn').to.equal(0)
    expect(await dm('30090', '#lx开始游戏')).to.deep.equal(['抱歉，你在这里不能使用这个功能。'])
    await p.run.rt.config.update({ image: { enabled: false } })
  })

  it('proactive replies obey the group lists and output moderation', async () => {
    const proactive = { enabled: true, probability: 1, busyMultiplier: 1, quietMultiplier: 1, hourlyCap: 100, dailyCap: 100, cooldownSeconds: 0 }
    await p.run.rt.config.update({ proactive, access: { groupBlacklist: ['880'] }, groups: { 882: { moderation: { strictness: 'refuse' } } } })
    fake.respond = () => ({ content: '要不要来点冰毒' })
    const chatter = async (groupId: string): Promise<string[]> => {
      const since = p.host.transcript.length
      await p.host.sendGroup(groupId, '30100', '今天好无聊啊')
      await p.run.rt.need('proactive').idle()
      return saidTo(p, 'group', groupId, since)
    }
    expect(await chatter('880')).to.deep.equal([])
    expect(calls(), 'no proactive call in a blacklisted group').to.equal(0)
    expect(await chatter('881')).to.deep.equal(['要不要来点＊＊＊'])
    expect(await chatter('882'), 'refused: dropped without a notice').to.deep.equal([])
    expect(calls()).to.equal(2)
    await p.run.rt.config.update({ proactive: { enabled: false } })
  })

  it('event reactions obey access and output moderation', async () => {
    await p.run.rt.config.update({ tools: { eventProbability: 1 }, access: { userBlacklist: ['30070'] } })
    await p.host.poke({ groupId: '870', userId: '30070' })
    expect(calls(), 'no reaction to a blacklisted user').to.equal(0)
    fake.respond = () => ({ content: '冰毒' })
    await p.run.rt.config.update({ moderation: { strictness: 'refuse' } })
    const since = p.host.transcript.length
    await p.host.poke({ groupId: '870', userId: '30071' })
    expect(calls()).to.equal(1)
    expect(saidTo(p, 'group', '870', since), 'a refused remark is dropped, no notice').to.deep.equal([])
    await p.run.rt.config.update({ tools: { eventProbability: 0.1 } })
  })
})
