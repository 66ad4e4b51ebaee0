// Reminders through the standalone host with the real plugin (both profiles): a reminder the model sets
// in a chat turn (the fake model calls set_reminder) arrives in that group @-mentioning its owner once
// its time has passed (sinon fake timers), a private one in the private chat; #lx提醒列表 and
// #lx取消提醒 (own only; a master any).
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'
import type { Runtime } from '../../lib/runtime.js'
import type { TranscriptEntry } from '../../standalone/types.js'

const MIN = 60_000

/** Real-time wait (setImmediate is not faked) until `cond` holds. */
async function until (cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = performance.now() + ms
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

for (const profile of PROFILES) describe(`reminders: in QQ chats (standalone host, ${profile})`, function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  let clock: sinon.SinonFakeTimers | undefined
  let n = 0
  const fresh = (base: number): string => String(base + ++n)
  const reminders = (since: number, id: string): TranscriptEntry[] =>
    p.host.transcript.slice(since).filter((e) => e.targetId === id && e.text.includes('⏰'))

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-reminders-bot-')
    rt = p.run.rt
    await rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }],
      reminders: { ...rt.config.get().reminders, timezone: 'Asia/Shanghai' }
    })
  })
  afterEach(() => { clock?.restore(); clock = undefined; fake.reset() })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })

  it('a reminder the model sets in a group turn arrives there after its time, @-mentioning its owner, once', async () => {
    const g = fresh(7000)
    const user = fresh(64000)
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    fake.enqueue({ toolCalls: [{ name: 'set_reminder', arguments: { when: '2分钟后', message: '喝水' } }] }, { content: '好的，两分钟后提醒你喝水。' })
    const res = await p.host.sendGroup(g, user, '2分钟后提醒我喝水', { at: true })
    expect(res.stage).to.equal('handled')
    const toolResult = JSON.stringify(fake.chatRequests().at(-1)?.body.messages.at(-1))
    expect(toolResult).to.include('\\"set\\": true')
    const mine = rt.need('reminders').list({ userId: user })
    expect(mine.map((r) => [r.groupId, r.message])).to.deep.equal([[g, '喝水']])
    const since = p.host.transcript.length
    await clock.tickAsync(2 * MIN - 1000)
    await rt.need('reminders').idle()
    expect(reminders(since, g), 'not before its time').to.deep.equal([])
    await clock.tickAsync(1000)
    await until(() => reminders(since, g).length > 0, 'the reminder in the group')
    const sent = reminders(since, g)
    expect(sent).to.have.length(1)
    expect(sent[0]?.text).to.include('提醒：喝水').and.not.include('迟到')
    expect(sent[0]?.message.some((s) => s.type === 'at' && String((s as { qq?: unknown }).qq ?? (s.data as { qq?: unknown } | undefined)?.qq) === user), JSON.stringify(sent[0]?.message)).to.equal(true)
    await clock.tickAsync(10 * MIN)
    await rt.need('reminders').idle()
    expect(reminders(since, g)).to.have.length(1)
    expect(rt.need('reminders').list({ userId: user })).to.deep.equal([])
  })

  it('a private reminder goes to the private chat; a recurring one comes again', async () => {
    const user = fresh(65000)
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    const since = p.host.transcript.length
    await rt.need('reminders').create({ userId: user, botId: p.host.botId, isMaster: false, isGroupAdmin: false }, { when: '每隔3分钟', message: 'stand up' })
    for (let i = 1; i <= 2; i++) {
      await clock.tickAsync(3 * MIN)
      await until(() => reminders(since, user).length >= i, `reminder ${i}`)
      await rt.need('reminders').idle() // the round advances it (a file write) after the send
    }
    const sent = reminders(since, user)
    expect(sent.map((e) => [e.target, e.text])).to.deep.equal([['private', '⏰ 提醒：stand up'], ['private', '⏰ 提醒：stand up']])
    for (const r of rt.need('reminders').list({ userId: user })) await rt.need('reminders').cancel(r.id, { userId: user, isMaster: false })
  })

  it('the text goes out through lib/delivery: markdown as plain text; a long one as a forward after an @ of its own', async () => {
    const g = fresh(7000)
    const user = fresh(68000)
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    const since = p.host.transcript.length
    const svc = rt.need('reminders')
    await svc.create({ userId: user, groupId: g, isMaster: false, isGroupAdmin: false }, { when: '1分钟后', message: '**交** `周报`' })
    await svc.create({ userId: user, groupId: g, isMaster: false, isGroupAdmin: false }, { when: '2分钟后', message: '长'.repeat(500) })
    await clock.tickAsync(MIN)
    await until(() => p.host.transcript.slice(since).some((e) => e.targetId === g), 'the short one')
    await svc.idle()
    const short = p.host.transcript.slice(since).filter((e) => e.targetId === g)
    expect(short.map((e) => e.text.replace(/\s+/g, ' ').trim())).to.deep.equal([`@${user} ⏰ 提醒：交 周报`])
    expect(short[0]?.message.some((x) => x.type === 'at')).to.equal(true)
    const mark = p.host.transcript.length
    await clock.tickAsync(MIN)
    await until(() => p.host.transcript.slice(mark).some((e) => e.message.some((x) => x.type === 'node')), 'the forward')
    await svc.idle()
    const long = p.host.transcript.slice(mark).filter((e) => e.targetId === g)
    expect(long).to.have.length(2)
    expect(long[0]?.message.map((x) => x.type)).to.deep.equal(['at'])
    expect(long[1]?.message.some((x) => x.type === 'node')).to.equal(true)
    expect(long[1]?.text).to.include('长'.repeat(100))
  })

  it('a recurring reminder in a group: refused for a member (the model is told why), set for a group admin', async () => {
    const g = fresh(7000)
    const member = fresh(67000)
    const admin = fresh(67000)
    const ask = async (user: string, role: 'member' | 'admin'): Promise<string> => {
      fake.enqueue({ toolCalls: [{ name: 'set_reminder', arguments: { when: '每周一9点', message: '发周报' } }] }, { content: '好的' })
      await p.host.sendGroup(g, user, '每周一9点提醒大家发周报', { at: true, role })
      return JSON.stringify(fake.chatRequests().at(-1)?.body.messages.at(-1))
    }
    expect(await ask(member, 'member')).to.include('Only a group admin')
    expect(rt.need('reminders').list({ groupId: g })).to.deep.equal([])
    expect(await ask(admin, 'admin')).to.include('\\"set\\": true')
    const set = rt.need('reminders').list({ groupId: g })
    expect(set.map((r) => [r.userId, r.recurrence])).to.deep.equal([[admin, { kind: 'weekly', weekday: 1, hour: 9, minute: 0 }]])
    await rt.need('reminders').cancel(set[0]!.id, { userId: admin, isMaster: false })
  })

  it('#lx提醒列表 lists the asker\'s own; #lx取消提醒 cancels only their own, a master any', async () => {
    const g = fresh(7000)
    const alice = fresh(66000)
    const bob = fresh(66000)
    const svc = rt.need('reminders')
    const a = await svc.create({ userId: alice, groupId: g, isMaster: false, isGroupAdmin: false }, { when: '30分钟后', message: '开会' })
    const b = await svc.create({ userId: bob, isMaster: false, isGroupAdmin: false }, { when: '明天早上8点', message: 'bob 的事' })
    const elsewhere = await svc.create({ userId: alice, isMaster: false, isGroupAdmin: false }, { when: '2小时后', message: '私事' })
    await p.host.sendGroup(g, alice, '#lx提醒列表')
    const list = p.host.transcript.at(-1)?.text ?? ''
    expect(list).to.include(a.id).and.include('开会').and.not.include(b.id)
    expect(list, 'a private reminder is not listed in the group').to.not.include('私事')
    await p.host.sendPrivate(alice, '#lx提醒列表')
    expect(p.host.transcript.at(-1)?.text).to.include('私事').and.include('开会').and.include(`群 ${g}`)
    await svc.cancel(elsewhere.id, { userId: alice, isMaster: false })
    await p.host.sendPrivate(bob, '#lx reminders')
    expect(p.host.transcript.at(-1)?.text).to.include(b.id).and.include('bob 的事').and.not.include('开会')
    await p.host.sendGroup(g, alice, `#lx取消提醒 ${b.id}`)
    expect(p.host.transcript.at(-1)?.text).to.include('不是你设置的')
    expect(svc.get(b.id)).to.not.equal(undefined)
    await p.host.sendGroup(g, alice, `#lx取消提醒 ${a.id}`)
    expect(p.host.transcript.at(-1)?.text).to.include(`已取消提醒 [${a.id}]`)
    expect(svc.get(a.id)).to.equal(undefined)
    await p.host.sendPrivate(MASTER, `#lx取消提醒 ${b.id}`)
    expect(p.host.transcript.at(-1)?.text).to.include(`已取消提醒 [${b.id}]`)
    await p.host.sendPrivate(bob, '#lx提醒列表')
    expect(p.host.transcript.at(-1)?.text).to.include('没有待发送的提醒')
    await p.host.sendPrivate(bob, '#lx取消提醒')
    expect(p.host.transcript.at(-1)?.text).to.include('用法')
  })
})
