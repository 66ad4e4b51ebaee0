// `#lx为什么` / `#lx why` in the standalone host with the real plugin and the fake model: what shaped the
// last answer to the asker (preset, channel and model, the memory used, the tool called, tokens);
// memories listed only in private and only the asker's own; the last answer to *them*, not to others.
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { fakeSource, fakeTool } from '../tools/helpers.js'

describe('why: #lx为什么 in the standalone host', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-why-bot-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
  })
  after(async () => { await p?.stop(); await fake?.close() })
  const last = (): string => p.host.transcript.at(-1)?.text ?? ''

  it('answers what shaped the last answer: preset, channel/model, the asker\'s memory, the tool, tokens', async () => {
    await p.run.rt.need('memory').add({ userId: '40001', content: 'likes oolong tea', category: 'preference' })
    fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: {} }], usage: { prompt_tokens: 21, completion_tokens: 4 } },
      { content: 'An oolong now would be nice.', usage: { prompt_tokens: 33, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 27 } } })
    await p.host.sendPrivate('40001', 'which tea should I have now?')
    expect(last()).to.equal('An oolong now would be nice.')
    const res = await p.host.sendPrivate('40001', '#lx为什么')
    expect(res).to.include({ stage: 'handled', plugin: 'lingxi-why' })
    const text = last()
    const preset = await p.run.rt.need('conversations').pipeline.preset({ userId: '40001', isMaster: false, via: 'bot', conversationId: 'private:40001' })
    expect(text).to.include('which tea should I have now?')
    expect(text).to.include(`人设：${preset.name}（${preset.id}）`)
    expect(text).to.include('fake / gpt-test')
    expect(text).to.include('[preference] likes oolong tea')
    expect(text).to.include('get_current_time(')
    expect(text).to.include('输入 54，输出 11')
    // 27 of the 54 input tokens came from the provider's cache
    expect(text).to.include('其中 27 个输入 token 来自缓存（50%）')
  })

  it('in a group: the last answer to the asker there, their memories counted, not listed; #lx why is the alias', async () => {
    await p.host.sendGroup('777', '40001', 'any tea advice?', { at: true })
    await p.host.sendGroup('777', '40001', '#lx why')
    const text = last()
    expect(text).to.include('any tea advice?')
    expect(text).to.include('1 条记忆').and.not.include('likes oolong tea')
    // someone else asking in the group gets their own last answer there: none
    await p.host.sendGroup('777', '40009', '#lx为什么')
    expect(last()).to.include('还没有回答过你')
  })

  it('memories of other users in a record are counted, never shown; an erased memory is not shown', async () => {
    const rt = p.run.rt
    const why = rt.need('why')
    const c = why.begin({ userId: '40002', groupId: '888', isMaster: false, via: 'bot', conversationId: 'group:888' }, { id: 'default', name: 'Default' }, 'shared question')
    c.memories([{ id: 999_001, userId: '40003', category: 'profile', content: 'secret of 40003' }])
    await why.keep(c, { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, rt.clock.now())
    await p.host.sendPrivate('40002', '#lx为什么')
    const text = last()
    expect(text, 'no cache line without cached input').to.not.include('来自缓存')
    expect(text).to.include('shared question')
    expect(text).to.include('其他人的记忆：1 条').and.not.include('secret of 40003')
    // #lx忘记我: the memory used in the first answer is gone, and so is its text in the why
    await p.host.sendPrivate('40001', '#lx忘记我')
    await p.host.sendPrivate('40001', '#lx为什么')
    expect(last()).to.not.include('likes oolong tea')
  })

  it('a tool that waited for the master\'s approval says so', async () => {
    p.run.rt.need('tools').registry.addSource(fakeSource('why-test', [
      fakeTool('brew_tea', { untrusted: true, dangerous: true, execute: async () => ({ content: [{ type: 'text', text: 'brewed' }], isError: false }) })
    ]))
    fake.enqueue({ toolCalls: [{ name: 'brew_tea', arguments: { kind: 'green' } }] }, { content: 'Your tea is ready.' })
    const since = p.host.transcript.length
    const turn = p.host.sendGroup('999', '40005', 'brew me a tea', { at: true })
    const asked = await p.host.waitForSend((e) => e.text.includes('brew_tea') && /同意 (\d+)/.test(e.text), since)
    const id = /同意 (\d+)/.exec(asked.text)?.[1]
    await p.host.sendGroup('999', MASTER, `#lx同意 ${String(id)}`)
    await turn
    expect(p.host.transcript.some((e) => e.text === 'Your tea is ready.')).to.equal(true)
    await p.host.sendGroup('999', '40005', '#lx为什么')
    expect(last()).to.include('brew_tea(').and.include('brewed').and.include('批准：已批准')
  })

  it('is listed in #lx帮助', async () => {
    await p.host.sendPrivate('40001', '#lx帮助')
    expect(last()).to.include('#lx为什么 / #lxwhy')
  })
})
