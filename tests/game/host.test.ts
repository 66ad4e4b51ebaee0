// A visual-novel game through the standalone host with the real plugin and the fake model server.
import { expect } from 'chai'
import type { Running } from '../../lib/lifecycle.js'
import type { Host } from '../../standalone/host.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { userText } from '../support/user-text.js'

describe('game through the standalone host', function () {
  this.timeout(60_000)
  let host: Host
  let fake: FakeOpenAI
  let ph: PluginHost
  let run: Running

  before(async () => {
    fake = await startFakeOpenAI()
    ph = await startPluginHost('miao', 'lingxi-game-')
    host = ph.host
    run = ph.run
    await run.rt.need('channels').service.create({ name: 'main', baseUrl: fake.url, apiKey: 'sk-test-1234', model: 'gpt-4o-mini' })
    await run.rt.config.update({ game: { temperature: 0.6, maxTokens: 321, probability: 1 } })
  })
  after(async () => {
    await ph?.stop()
    await fake?.close()
  })

  it('lists characters, starts, talks in character, keeps state, leaves', async () => {
    expect((await host.sendGroup('700', '20002', '#lx游戏角色')).stage).to.equal('handled')
    expect(host.transcript.at(-1)?.text).to.include('sakura')

    expect((await host.sendGroup('700', '20002', '#lx开始游戏 樱')).stage).to.equal('handled')
    expect(host.transcript.at(-1)?.text).to.include('游戏开始')
    expect(run.rt.need('game').session({ userId: '20002', groupId: '700' })?.characterId).to.equal('sakura')

    const since = host.transcript.length
    const r = await host.sendGroup('700', '20002', '你好呀')
    expect(r.stage).to.equal('handled')
    const answer = await host.waitForSend((e) => e.text.includes('echo: 你好呀'), since)
    expect(answer.targetId).to.equal('700')
    const req = fake.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string }>; temperature: number; max_tokens?: number; max_completion_tokens?: number }
    expect(req.messages[0]?.role).to.equal('system')
    expect(req.messages[0]?.content).to.include('樱')
    expect(req.temperature).to.equal(0.6)
    expect(req.max_tokens ?? req.max_completion_tokens).to.equal(321)

    await host.sendGroup('700', '20002', '我们去天台吧')
    const second = fake.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string }> }
    // The story so far is sent with the next turn.
    expect(second.messages.map((m) => m.role === 'user' ? userText(m.content) : m.content)).to.include('你好呀')

    // Another member of the group is not in the game: the game does not answer them.
    const before = fake.chatRequests().length
    await host.sendGroup('700', '20003', '路过')
    expect(fake.chatRequests().length).to.equal(before)

    await host.sendGroup('700', '20002', '#lx游戏状态')
    expect(host.transcript.at(-1)?.text).to.include('2 轮')
    await host.sendGroup('700', '20002', '#lx结束游戏')
    expect(host.transcript.at(-1)?.text).to.include('游戏结束')
    expect(run.rt.need('game').session({ userId: '20002', groupId: '700' })).to.equal(undefined)
    const count = fake.chatRequests().length
    await host.sendGroup('700', '20002', '还在吗')
    expect(fake.chatRequests().length).to.equal(count)
  })

  it('an unknown character is refused', async () => {
    await host.sendPrivate('20002', '#lx开始游戏 不存在')
    expect(host.transcript.at(-1)?.text).to.include('没有找到角色')
  })
})
