// The outbound gate (lib/governance/outbound.ts through lib/host/port.ts): every text the bot account
// sends passes the output moderation, also on paths the chat answer's check never saw: the model's
// `send_message` tool, reminders at their time (a long one as a forward: its nodes), a command reply
// that echoes the user's words. Mask: the
// banned part goes out as ＊＊＊ and the hit is logged; refuse: the message is withheld.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { saidTo } from './helpers.js'

const USER = '41001'
const MIN = 60_000

/** Real-time wait (setImmediate and performance are not faked) until `cond` holds. */
async function until (cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = performance.now() + ms; !cond();) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
const GROUP = '42001'

describe('governance: the outbound gate (every text the account sends)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-outbound-gate-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-gate-test', model: 'gpt-test' }],
      moderation: { strictness: 'mask', checkInput: true, checkOutput: true, useDefaultList: false, keywords: ['违禁词'], regexes: [], notice: '' }
    })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    fake.reset()
    await p.run.rt.config.update({ moderation: { strictness: 'mask' } })
  })

  const outputHits = (): number => p.run.rt.need('governance').hits.list().filter((h) => h.direction === 'output').length

  it("send_message: the model's extra message goes out masked, and the hit is logged", async () => {
    const before = outputHits()
    fake.enqueue({ toolCalls: [{ name: 'send_message', arguments: { text: '额外的消息：违禁词 在这里' } }] }, { content: '好的' })
    const since = p.host.transcript.length
    await p.host.sendPrivate(USER, '帮我发一条消息')
    const said = saidTo(p, 'private', USER, since)
    expect(said).to.include('额外的消息：＊＊＊ 在这里')
    expect(said.join('\n')).to.not.include('违禁词')
    expect(outputHits()).to.equal(before + 1)
  })

  it('send_message in a refuse group: withheld, the model is told it was not sent', async () => {
    await p.run.rt.config.update({ moderation: { strictness: 'refuse' } })
    fake.enqueue({ toolCalls: [{ name: 'send_message', arguments: { text: '违禁词' } }] }, { content: '发不出去' })
    const since = p.host.transcript.length
    await p.host.sendGroup(GROUP, USER, ' 帮我发', { at: true })
    expect(saidTo(p, 'group', GROUP, since).join('\n')).to.not.include('违禁词')
    const toolResult = JSON.stringify(fake.chatRequests().at(-1)?.body.messages.at(-1))
    expect(toolResult).to.include('could not be sent')
  })

  it('reminders at their time: a short one masked, a long one in a group (a forward) with its nodes masked', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    try {
      const svc = p.run.rt.need('reminders')
      const since = p.host.transcript.length
      await svc.create({ userId: USER, botId: p.host.botId, isMaster: false, isGroupAdmin: false }, { when: '1分钟后', message: '记得 违禁词 喝水' })
      await svc.create({ userId: USER, groupId: GROUP, botId: p.host.botId, isMaster: false, isGroupAdmin: false }, { when: '2分钟后', message: `${'长'.repeat(245)} 违禁词 ${'长'.repeat(250)}` })
      await clock.tickAsync(MIN)
      await until(() => saidTo(p, 'private', USER, since).length > 0, 'the short reminder')
      await svc.idle()
      const short = saidTo(p, 'private', USER, since).join('\n')
      expect(short).to.include('＊＊＊').and.to.include('喝水').and.not.include('违禁词')
      const mark = p.host.transcript.length
      await clock.tickAsync(MIN)
      await until(() => p.host.transcript.slice(mark).some((e) => e.message.some((x) => x.type === 'node')), 'the forward')
      await svc.idle()
      const long = p.host.transcript.slice(mark).filter((e) => e.targetId === GROUP)
      expect(long.some((e) => e.message.some((x) => x.type === 'node')), 'sent as a forward').to.equal(true)
      expect(long.map((e) => e.text).join('\n')).to.include('＊＊＊').and.not.include('违禁词')
    } finally {
      clock.restore()
    }
  })

  it("a command reply that echoes the user's words (#lx取消提醒 <id>): masked, or withheld in a refuse chat", async () => {
    let since = p.host.transcript.length
    await p.host.sendPrivate(USER, '#lx取消提醒 违禁词')
    const said = saidTo(p, 'private', USER, since)
    expect(said.join('\n')).to.include('＊＊＊').and.not.include('违禁词')
    await p.run.rt.config.update({ moderation: { strictness: 'refuse' } })
    since = p.host.transcript.length
    await p.host.sendPrivate(USER, '#lx取消提醒 违禁词2')
    expect(saidTo(p, 'private', USER, since)).to.deep.equal([])
  })
})
