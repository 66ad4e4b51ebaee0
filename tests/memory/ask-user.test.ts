// Asking the user about pending guesses (config memory.askUser, lib/memory/ask.ts), through the QQ path of
// the standalone host with the real plugin and a scripted fake model: the question arrives in the user's
// private chat with the ids, #lx记忆确认 then makes the memory used; not more than once an hour (the clock
// is sinon's fake Date); nothing with askUser off; a group's pending guess is asked in private, never in
// the group; a user the host cannot message privately is not asked and the memory stays pending.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { ASK_EVERY_MS } from '../../lib/memory/ask.js'
import type { MemoryService } from '../../lib/memory/service.js'

const QUESTION = '我推测了这些，对吗？'

describe('memory: asking the user about pending guesses (QQ path)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let clock: sinon.SinonFakeTimers
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-memory-ask-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { reviewBelow: 0.7, askUser: true }
    })
    // only Date: the host's own timers run as usual; the asker's hour is read from the clock
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'], shouldAdvanceTime: true })
  })
  after(async () => { clock?.restore(); await p?.stop(); await fake?.close() })
  const rt = (): PluginHost['run']['rt'] => p.run.rt
  const mem = (): MemoryService => rt().need('memory')
  /** The bot's messages after `since` (transcript index) that ask about guesses. */
  const questions = (since: number): Array<{ target: string; targetId: string; text: string }> =>
    p.host.transcript.slice(since).filter((e) => e.text.includes(QUESTION))
  const chatAndExtract = async (send: () => Promise<unknown>, facts: unknown[]): Promise<number> => {
    fake.enqueue({ content: '好的～' })
    await send()
    const since = p.host.transcript.length
    fake.enqueue({ content: JSON.stringify(facts) })
    await rt().need('memoryExtractor').runOnce()
    return since
  }
  const idOf = (userId: string, content: string): number => mem().list({ userId }).find((m) => m.content === content)!.id

  it('asks in the private chat with the ids; #lx记忆确认 <id> makes the memory used', async () => {
    const since = await chatAndExtract(() => p.host.sendPrivate('60001', '最近天天熬夜写代码', { nickname: '小明' }), [
      { content: '是程序员', category: 'profile', confidence: 0.95, kind: 'stated' },
      { content: '睡眠不足', category: 'custom', confidence: 0.5, kind: 'inferred' }
    ])
    const id = idOf('60001', '睡眠不足')
    expect(mem().get(id)?.status).to.equal('pending')
    const asked = questions(since)
    expect(asked).to.have.length(1)
    expect(asked[0]).to.include({ target: 'private', targetId: '60001' })
    expect(asked[0]!.text).to.include(`#${id} 睡眠不足`).and.include(`#lx记忆确认 ${id}`).and.include(`#lx记忆删除 ${id}`)
    expect(asked[0]!.text, 'only the guesses').to.not.include('是程序员')

    await p.host.sendPrivate('60001', `#lx记忆确认 ${id}`)
    expect(p.host.transcript.at(-1)?.text).to.include('已确认')
    expect(mem().get(id)?.status).to.equal(undefined)
  })

  it('asks a user at most once an hour: a second round within the hour sends nothing, after it asks again', async () => {
    let since = await chatAndExtract(() => p.host.sendPrivate('60001', '周末又去爬山了', { nickname: '小明' }), [
      { content: '喜欢户外运动', category: 'preference', confidence: 0.5, kind: 'inferred' }
    ])
    expect(mem().get(idOf('60001', '喜欢户外运动'))?.status).to.equal('pending')
    expect(questions(since), 'within the hour').to.have.length(0)

    clock.tick(ASK_EVERY_MS)
    since = await chatAndExtract(() => p.host.sendPrivate('60001', '下周去看海', { nickname: '小明' }), [
      { content: '喜欢旅行', category: 'preference', confidence: 0.5, kind: 'inferred' }
    ])
    const asked = questions(since)
    expect(asked, 'an hour later').to.have.length(1)
    // the newest first, the one still waiting from the round before included
    expect(asked[0]!.text).to.include(`#${idOf('60001', '喜欢旅行')} 喜欢旅行`).and.include('喜欢户外运动')
  })

  it('a group\'s pending guess is asked in private, never in the group', async () => {
    const since = await chatAndExtract(() => p.host.sendGroup('903', '60002', '我们组下周上线新版本', { at: true, nickname: '小红' }), [
      { content: '在做软件发布', category: 'event', confidence: 0.5, kind: 'inferred' }
    ])
    const m = mem().get(idOf('60002', '在做软件发布'))!
    expect(m).to.include({ status: 'pending', groupId: '903' })
    const asked = questions(since)
    expect(asked).to.have.length(1)
    expect(asked[0]).to.include({ target: 'private', targetId: '60002' })
    expect(p.host.transcript.slice(since).filter((e) => e.target === 'group')).to.have.length(0)
  })

  it('a user the host cannot message privately (not a friend) is not asked; the memory stays pending', async () => {
    // no nickname: the standalone host does not add the user to its friend list
    const since = await chatAndExtract(() => p.host.sendGroup('903', '60003', '今天好冷', { at: true }), [
      { content: '怕冷', category: 'custom', confidence: 0.5, kind: 'inferred' }
    ])
    expect(mem().get(idOf('60003', '怕冷'))?.status).to.equal('pending')
    expect(questions(since)).to.have.length(0)
  })

  it('with askUser off nothing is sent', async () => {
    await rt().config.update({ memory: { askUser: false } })
    clock.tick(ASK_EVERY_MS)
    const since = await chatAndExtract(() => p.host.sendPrivate('60001', '我养了一只猫', { nickname: '小明' }), [
      { content: '喜欢猫', category: 'preference', confidence: 0.5, kind: 'inferred' }
    ])
    expect(mem().get(idOf('60001', '喜欢猫'))?.status).to.equal('pending')
    expect(questions(since)).to.have.length(0)
  })
})
