// Group awareness and bursts through the standalone host (both profiles) with the fake model: the
// group log fills from unaddressed messages and reaches the model as context, through
// get_group_history and the daily-summary skill; a shared group conversation; bursts merged into one
// model call (fake timers); opt-outs never logged.
import { expect } from 'chai'
import sinon from 'sinon'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { contextOf, sentMessages, spokenMessages } from '../chat/helpers.js'
import { PROFILES } from '../host/helpers.js'
import type { Runtime } from '../../lib/runtime.js'

const TOPICS = Array.from({ length: 30 }, (_, i) => `第${i + 1}条闲聊：话题${String.fromCharCode(0x4e00 + i * 7)}`)

for (const profile of PROFILES) describe(`grouplog: group awareness and bursts, ${profile} profile`, function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  let group = 70000
  const nextGroup = (): string => String(++group)
  // what the model got besides the users' words: system message, the newest message's note and tail
  const systemOf = (i = -1): string => contextOf(fake.chatRequests().at(i)?.body)
  const chat = async (groupId: string, topics: readonly string[]): Promise<void> => {
    for (const [i, t] of topics.entries()) await p.host.sendGroup(groupId, String(60001 + (i % 5)), t, { nickname: `群友${i % 5}` })
  }

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-grouplog-')
    rt = p.run.rt
    await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    fake.reset()
    await rt.config.update({ groupLog: { enabled: true, contextMessages: 40, excludeUsers: [], excludeGroups: [] }, chat: { groupConversation: 'user', burstWindowMs: 0 } })
  })

  it('30 unaddressed messages are logged (not the model\'s business) and an @bot question about them has them in context', async () => {
    const g = nextGroup()
    await chat(g, TOPICS)
    expect(fake.chatRequests(), 'nobody called the bot').to.have.length(0)
    expect(rt.need('groupLog').recent(g, 100).map((e) => e.text)).to.deep.equal(TOPICS)
    const res = await p.host.sendGroup(g, '60009', '刚才大家聊了什么？', { at: true, nickname: '提问者' })
    expect(res.stage).to.equal('handled')
    const system = systemOf()
    expect(system).to.include('群里的新消息:')
    for (const t of TOPICS) expect(system).to.include(t)
    expect(system).to.match(/\[\d\d:\d\d\] 群友0: 第1条闲聊/)
    expect(system, 'the question itself is the user message, not context').to.not.include('刚才大家聊了什么')
    expect(spokenMessages(fake.chatRequests().at(-1)?.body).at(-1)?.content).to.equal('刚才大家聊了什么？')
    // the question and the bot's answer are logged too
    const last = rt.need('groupLog').recent(g, 2)
    expect(last.map((e) => e.text)).to.deep.equal(['刚才大家聊了什么？', 'echo: 刚才大家聊了什么？'])
    expect(last[1]?.fromBot).to.equal(true)
  })

  it('the next question gets only the messages since the last answer; the first note is replayed unchanged', async () => {
    const g = nextGroup()
    await chat(g, TOPICS.slice(0, 3))
    await p.host.sendGroup(g, '60009', '第一个问题', { at: true, nickname: '提问者' })
    const first = sentMessages(fake.chatRequests().at(-1)?.body)
    await chat(g, TOPICS.slice(3, 5))
    await p.host.sendGroup(g, '60009', '第二个问题', { at: true, nickname: '提问者' })
    const second = sentMessages(fake.chatRequests().at(-1)?.body)
    // the first request's messages open the second one, byte for byte (its tail aside: read for that turn only)
    expect(second.slice(0, first.length - 1)).to.deep.equal(first.slice(0, -1))
    expect(second[first.length - 1]?.content).to.equal(first.at(-1)?.content)
    const note = contextOf(fake.chatRequests().at(-1)?.body)
    for (const t of TOPICS.slice(3, 5)) expect(note).to.include(t)
    for (const t of TOPICS.slice(0, 3)) expect(note, 'already in the history').to.not.include(t)
    expect(note, 'the bot\'s own answer is in the history, not again in the note').to.not.include('echo: 第一个问题')
  })

  it('contextMessages bounds the block (the newest kept); 0 leaves it out', async () => {
    const g = nextGroup()
    await chat(g, TOPICS)
    await rt.config.update({ groups: { [g]: { contextMessages: 5 } } })
    await p.host.sendGroup(g, '60009', '最近五条？', { at: true })
    const system = systemOf()
    for (const t of TOPICS.slice(-5)) expect(system).to.include(t)
    expect(system).to.not.include(TOPICS[24])
    await rt.config.update({ groups: { [g]: { contextMessages: 0 } } })
    await p.host.sendGroup(g, '60009', '没有上下文？', { at: true })
    expect(systemOf()).to.not.include('群里的新消息')
    await rt.config.update({ groups: {} })
  })

  it('get_group_history answers the model\'s tool call with the group\'s messages; not offered in a private chat', async () => {
    const g = nextGroup()
    await chat(g, TOPICS)
    fake.enqueue({ toolCalls: [{ name: 'get_group_history', arguments: { limit: 40 } }] }, { content: '大家在闲聊' })
    await p.host.sendGroup(g, '60009', '帮我翻翻记录', { at: true })
    const tool = sentMessages(fake.chatRequests().at(-1)?.body).find((m) => m.role === 'tool')?.content ?? ''
    for (const t of TOPICS) expect(tool).to.include(t)
    expect(tool.indexOf(TOPICS[0]!)).to.be.lessThan(tool.indexOf(TOPICS[29]!)) // oldest first
    expect(p.host.transcript.at(-1)?.text).to.include('大家在闲聊')

    fake.enqueue({ toolCalls: [{ name: 'get_group_history', arguments: {} }] }, { content: 'ok' })
    await p.host.sendPrivate('60009', '群里说了啥')
    // not offered in a private chat (lib/tools/README.md, offeredIn): a model naming it anyway is refused
    expect(fake.offeredTools(-2)).to.not.include('get_group_history')
    const privateTool = sentMessages(fake.chatRequests().at(-1)?.body).find((m) => m.role === 'tool')?.content ?? ''
    expect(privateTool).to.match(/^Error: Tool get_group_history .*not available in this chat/)
  })

  it('a daily summary request in a group gets the logged messages to the model (daily-summary skill + get_group_history)', async () => {
    const g = nextGroup()
    await chat(g, TOPICS.slice(0, 12))
    fake.enqueue({ toolCalls: [{ name: 'get_group_history', arguments: { sinceHours: 24, limit: 500 } }] }, { content: '**📌 要点**：闲聊' })
    await p.host.sendGroup(g, '60009', '总结一下今天的群聊', { at: true })
    const [ask, withTool] = fake.chatRequests().slice(-2)
    const system = contextOf(ask?.body)
    expect(system, 'the skill is active').to.include('daily-summary')
    expect(system).to.include('get_group_history')
    expect(fake.offeredTools(-2), 'offered in the request that asked').to.include('get_group_history')
    const tool = sentMessages(withTool?.body).find((m) => m.role === 'tool')?.content ?? ''
    for (const t of TOPICS.slice(0, 12)) expect(tool).to.include(t)
  })

  it('a shared group conversation: two users\' turns land in one conversation, named; memory stays per user', async () => {
    const g = nextGroup()
    await rt.config.update({ groups: { [g]: { conversation: 'group' } } })
    await rt.need('memory').add({ userId: '61001', content: '甲养了一只叫团子的猫', category: 'preference' })
    await p.host.sendGroup(g, '61001', '我是甲，我喜欢猫', { at: true, nickname: '甲' })
    expect(systemOf(), 'the speaker\'s own memories').to.include('团子')
    await p.host.sendGroup(g, '61002', '我是乙，甲喜欢什么？', { at: true, nickname: '乙' })
    const store = rt.need('conversations').store
    expect(store.history(`group:${g}`).map((m) => m.content)).to.deep.equal(['甲: 我是甲，我喜欢猫', 'echo: 甲: 我是甲，我喜欢猫', '乙: 我是乙，甲喜欢什么？', 'echo: 乙: 我是乙，甲喜欢什么？'])
    expect(store.get(`group:${g}:61001`)).to.equal(undefined)
    const second = spokenMessages(fake.chatRequests().at(-1)?.body)
    expect(second.map((m) => m.content)).to.include('甲: 我是甲，我喜欢猫')
    expect(second[0]?.content).to.include('整个群共享的对话')
    expect(second[0]?.content, 'not the other user\'s memories').to.not.include('团子')
    // other groups keep one conversation per user
    const other = nextGroup()
    await p.host.sendGroup(other, '61001', '你好', { at: true })
    expect(store.get(`group:${other}:61001`)).to.not.equal(undefined)
    await rt.config.update({ groups: {} })
  })

  it('three messages within the burst window are one turn and one model call (fake timers)', async () => {
    const g = nextGroup()
    await rt.config.update({ groups: { [g]: { burstWindowMs: 1500 } } })
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    let first: Promise<{ stage: string }> | undefined
    try {
      first = p.host.sendGroup(g, '62001', '帮我看看', { at: true })
      await clock.tickAsync(1000)
      expect((await p.host.sendGroup(g, '62001', '这段话')).stage, 'a later piece is done at once').to.equal('handled')
      await clock.tickAsync(1400)
      expect((await p.host.sendGroup(g, '62001', '有没有错字')).stage).to.equal('handled')
      await clock.tickAsync(1400)
      expect(fake.chatRequests(), 'the window runs from the last piece').to.have.length(0)
      await clock.tickAsync(200)
    } finally { clock.restore() }
    expect((await first).stage).to.equal('handled')
    expect(fake.chatRequests()).to.have.length(1)
    expect(spokenMessages(fake.chatRequests()[0]?.body).at(-1)?.content).to.equal('帮我看看\n这段话\n有没有错字')
    expect(systemOf(), 'the burst\'s own messages are not context').to.not.include('这段话')
    expect(rt.need('conversations').store.history(`group:${g}:62001`)).to.have.length(2)
    expect(rt.need('groupLog').recent(g, 10).filter((e) => !e.fromBot).map((e) => e.text)).to.deep.equal(['帮我看看', '这段话', '有没有错字'])
    await rt.config.update({ groups: {} })
  })

  it('a plain piece that reached the handler just before the @-message joins the burst at its start', async () => {
    const g = nextGroup()
    await rt.config.update({ groups: { [g]: { burstWindowMs: 1500 } } })
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    let opener: Promise<{ stage: string }> | undefined
    try {
      expect((await p.host.sendGroup(g, '62003', '这段代码')).stage, 'nobody called the bot yet: passed on').to.not.equal('handled')
      await clock.tickAsync(300)
      opener = p.host.sendGroup(g, '62003', '帮我看看', { at: true })
      await clock.tickAsync(1600)
    } finally { clock.restore() }
    expect((await opener).stage).to.equal('handled')
    expect(fake.chatRequests()).to.have.length(1)
    expect(spokenMessages(fake.chatRequests()[0]?.body).at(-1)?.content).to.equal('这段代码\n帮我看看')
    // a plain message longer ago than the window is not part of the next burst
    const clock2 = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    try {
      await p.host.sendGroup(g, '62003', '很久以前的话')
      await clock2.tickAsync(2000)
      opener = p.host.sendGroup(g, '62003', '新问题', { at: true })
      await clock2.tickAsync(1600)
    } finally { clock2.restore() }
    await opener
    expect(spokenMessages(fake.chatRequests().at(-1)?.body).at(-1)?.content).to.equal('新问题')
    await rt.config.update({ groups: {} })
  })

  it('window 0: three messages are three model calls', async () => {
    const g = nextGroup()
    for (const t of ['一', '二', '三']) await p.host.sendGroup(g, '62002', t, { at: true })
    expect(fake.chatRequests()).to.have.length(3)
  })

  it('excluded users and groups are never logged; commands are not logged', async () => {
    const g = nextGroup()
    const quiet = nextGroup()
    await rt.config.update({ groupLog: { excludeUsers: ['63001'], excludeGroups: [quiet] } })
    await p.host.sendGroup(g, '63001', '请别记录我的话')
    await p.host.sendGroup(g, '63002', '我可以被记录')
    await p.host.sendGroup(g, '63002', '#原神公告')
    await p.host.sendGroup(quiet, '63002', '这个群不记录')
    await p.host.sendGroup(quiet, '63002', '这个群的提问', { at: true })
    expect(rt.need('groupLog').recent(g, 10).map((e) => e.text)).to.deep.equal(['我可以被记录'])
    expect(rt.need('groupLog').recent(quiet, 10)).to.deep.equal([])
    expect(systemOf()).to.not.include('这个群不记录')
    await rt.need('groupLog').idle()
    const dir = join(p.dataDir, 'group-log')
    const files = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
    expect(files).to.include('我可以被记录')
    for (const absent of ['请别记录', '这个群不记录', '这个群的提问', '原神公告']) expect(files).to.not.include(absent)
  })
})
