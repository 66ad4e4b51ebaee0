// How answers go out (lib/delivery) through the standalone host in both profiles, with the fake model:
// a long markdown answer as one forward message (or an image from the host's renderer, falling back to
// the forward), short markdown as plain text, quote and @ switches, images as segments, sentence by
// sentence with pauses and the thinking notice (sinon fake timers), a group's settings over the global.
// All with delivery.stream off: streamed answers are tests/delivery/stream.test.ts.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'
import { renderText, toSegments } from '../../standalone/segments.js'
import type { ForwardNode, Seg, TranscriptEntry } from '../../standalone/types.js'
import type { Runtime } from '../../lib/runtime.js'
import { sentenceDelay } from '../../lib/delivery/split.js'
import { longMarkdownAnswer, MARKDOWN_SYNTAX } from './fixtures.js'

const DEFAULTS = {
  markdown: 'plain', longAnswer: 'forward', longAnswerChars: 500, splitSentences: false, sentenceDelayMs: 800,
  quote: true, atSender: false, thinkingNoticeMs: 0, thinkingNoticeText: '', stream: 'off'
} as const

/** Real-time wait (setImmediate is not faked) until `cond` holds. */
async function until (cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = performance.now() + ms
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

function forwardNodes (entry: TranscriptEntry | undefined): ForwardNode[] {
  const seg = entry?.message.find((s) => s.type === 'node')
  expect(seg, `a forward message in ${JSON.stringify(entry?.message)?.slice(0, 300)}`).to.not.equal(undefined)
  return (seg as Seg).data as ForwardNode[]
}

const nodeText = (n: ForwardNode): string => renderText(toSegments(n.message))

function expectPlain (text: string): void {
  for (const [name, re] of MARKDOWN_SYNTAX) expect(re.test(text), `${name} syntax (${re}) in:\n${text}`).to.equal(false)
}

for (const profile of PROFILES) describe(`delivery: answers in QQ form (standalone host, ${profile})`, function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  let user = 61000
  const nextUser = (): string => String(++user) // a fresh user per test: no rate limit, no context
  const sentTo = (id: string, since: number): TranscriptEntry[] => p.host.transcript.slice(since).filter((e) => e.targetId === id)

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-delivery-')
    rt = p.run.rt
    await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    fake.reset()
    p.host.renderer.mode = 'off'
    await rt.config.update({ delivery: { ...DEFAULTS }, trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 }, groups: {} })
  })

  it('a 3,000-character markdown answer with a <think> block arrives as ONE forward message of plain nodes', async () => {
    const answer = longMarkdownAnswer()
    expect(answer.length).to.be.greaterThan(3000)
    fake.enqueue({ content: answer })
    const id = nextUser()
    const since = p.host.transcript.length
    expect((await p.host.sendPrivate(id, '写一篇长文')).stage).to.equal('handled')
    const sent = sentTo(id, since)
    expect(sent, sent.map((e) => e.text).join('\n---\n')).to.have.length(1)
    const nodes = forwardNodes(sent[0])
    expect(nodes.length).to.be.within(2, 20)
    // the transcript shows the bundle readably: each node under the bot's name
    expect(sent[0]?.text.startsWith(`[转发消息 ${nodes.length} 条]\n\n灵犀: 总标题\n\n第 1 部分：要点`), sent[0]?.text.slice(0, 80)).to.equal(true)
    for (const n of nodes) {
      expect(n.nickname).to.equal('灵犀')
      expect(nodeText(n).length).to.be.at.most(800)
      expectPlain(nodeText(n))
    }
    const all = nodes.map(nodeText).join('\n\n')
    expect(all).to.include('总标题').and.include('• 第一点：列表项会变成圆点').and.include('1. 编号保留')
    expect(all).to.include('链接 1 (https://example.com/doc/1)').and.include('甲 1 | 10').and.include('    return x * 1  # 代码保持原样')
    // what was stored is the model's answer as it came, markdown and all, without its reasoning (the
    // gateway keeps reasoning apart: lib/channels/wire.ts)
    const stored = rt.need('conversations').store.history(`private:${id}`).at(-1)?.content
    expect(stored).to.equal(answer.slice(answer.indexOf('# 总标题')))
    expect(stored).to.not.include('SECRET-REASONING')
  })

  it('in a group the forward carries no quote and no @ (TRSS would send them apart)', async () => {
    await rt.config.update({ delivery: { atSender: true } })
    fake.enqueue({ content: longMarkdownAnswer() })
    const since = p.host.transcript.length
    await p.host.sendGroup('62001', nextUser(), '长一点', { at: true })
    const sent = sentTo('62001', since)
    expect(sent).to.have.length(1)
    expect(sent[0]?.quote).to.equal(undefined)
    expect(sent[0]?.message.map((s) => s.type)).to.deep.equal(['node'])
  })

  it('longAnswer image: rendered by the host renderer into one image; the page holds the plain text, escaped', async () => {
    await rt.config.update({ delivery: { longAnswer: 'image' } })
    p.host.renderer.mode = 'on'
    const calls = p.host.renderer.calls.length
    fake.enqueue({ content: `${longMarkdownAnswer()}\n<b>不是标签</b> & 1 < 2` })
    const id = nextUser()
    const since = p.host.transcript.length
    await p.host.sendPrivate(id, '长文，用图片')
    const sent = sentTo(id, since)
    expect(sent).to.have.length(1)
    expect(sent[0]?.message.map((s) => s.type)).to.deep.equal(['image'])
    const call = p.host.renderer.calls[calls]
    expect(call?.name).to.equal('lingxi-plugin/answer')
    expectPlain(call?.text ?? '')
    expect(call?.text).to.include('• 第一点').and.include('1 < 2')
    expect(call?.html).to.include('1 &#60; 2').and.not.include('<b>不是标签</b>')
  })

  it('longAnswer image falls back to the forward when the renderer fails or the host has none, and says why once', async () => {
    await rt.config.update({ delivery: { longAnswer: 'image' } })
    for (const mode of ['fail', 'off', 'fail'] as const) {
      p.host.renderer.mode = mode
      fake.enqueue({ content: longMarkdownAnswer() })
      const id = nextUser()
      const since = p.host.transcript.length
      await p.host.sendPrivate(id, `长文 ${mode}`)
      const sent = sentTo(id, since)
      expect(sent, mode).to.have.length(1)
      forwardNodes(sent[0]).forEach((n) => expectPlain(nodeText(n)))
    }
    const warns = rt.log.query({ level: 'warn', limit: 200 }).filter((l) => l.message.includes('could not be rendered'))
    expect(warns.map((w) => w.meta.reason).sort()).to.deep.equal(['the host has no renderer', 'the host renderer gave no image'])
  })

  it('a short markdown answer goes out as one plain-text message', async () => {
    fake.enqueue({ content: '<think>先想想</think>\n## 小结\n- **第一**：`npm i`\n- 见 [文档](https://ex.com/d)\n\n1. 一\n2. 二' })
    const id = nextUser()
    const since = p.host.transcript.length
    await p.host.sendPrivate(id, '简短点')
    const sent = sentTo(id, since)
    expect(sent).to.have.length(1)
    expect(sent[0]?.text).to.equal('小结\n• 第一：npm i\n• 见 文档 (https://ex.com/d)\n\n1. 一\n2. 二')
  })

  it('markdown keep and longAnswer off send the answer as the model wrote it (without reasoning)', async () => {
    await rt.config.update({ delivery: { markdown: 'keep', longAnswer: 'off' } })
    const answer = longMarkdownAnswer()
    fake.enqueue({ content: answer })
    const id = nextUser()
    const since = p.host.transcript.length
    await p.host.sendPrivate(id, '原样')
    const sent = sentTo(id, since)
    expect(sent).to.have.length(1)
    expect(sent[0]?.text).to.include('## 第 1 部分').and.include('**重点 1**').and.not.include('SECRET-REASONING')
  })

  it('quote and atSender switch the quote and the @ of the sender in groups', async () => {
    const group = '62002'
    let who = ''
    const ask = async (delivery: { quote: boolean; atSender: boolean }): Promise<TranscriptEntry | undefined> => {
      await rt.config.update({ delivery })
      who = nextUser()
      const since = p.host.transcript.length
      await p.host.sendGroup(group, who, '你好', { at: true })
      const sent = sentTo(group, since)
      expect(sent).to.have.length(1)
      return sent[0]
    }
    const both = await ask({ quote: true, atSender: true })
    expect(both?.quote).to.not.equal(undefined)
    expect(both?.message[0]?.type).to.equal('at')
    expect(String(both?.message[0]?.qq)).to.equal(who)
    const neither = await ask({ quote: false, atSender: false })
    expect(neither?.quote).to.equal(undefined)
    expect(neither?.message.some((s) => s.type === 'at')).to.equal(false)
    expect(neither?.text).to.equal('echo: 你好')
  })

  it('an image the model gives (markdown, bare URL, data URI) goes out as an image segment, not as text', async () => {
    fake.enqueue({ content: '看这张图：![猫](https://img.example.com/cat.png)\n还有 https://img.example.com/dog.jpg 和 data:image/png;base64,iVBORw0KGgo=' })
    const id = nextUser()
    const since = p.host.transcript.length
    await p.host.sendPrivate(id, '发图')
    const sent = sentTo(id, since)
    expect(sent).to.have.length(1)
    const images = sent[0]?.message.filter((s) => s.type === 'image').map((s) => s.file)
    expect(images).to.deep.equal(['https://img.example.com/cat.png', 'https://img.example.com/dog.jpg', 'base64://iVBORw0KGgo='])
    const text = sent[0]?.message.filter((s) => s.type === 'text').map((s) => s.text).join('')
    expect(text).to.equal('看这张图：\n还有 和')
  })

  it('an image a tool returns goes out as an image segment with the answer; the model is told so', async () => {
    const { scripts } = rt.need('tools')
    await scripts.write('tinypic', '.js', 'export const description = "draws a tiny picture"; export const inputSchema = { type: "object", properties: {} }; export const execute = () => ({ content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }, { type: "text", text: "drawn" }], isError: false })')
    await scripts.configure('tinypic', { enabled: true, risk: 'low', dangerous: false })
    try {
      fake.enqueue({ toolCalls: [{ name: 'tinypic', arguments: {} }] }, { content: '画好了，**请看**' })
      const id = nextUser()
      const since = p.host.transcript.length
      await p.host.sendPrivate(id, '画一张小图')
      const sent = sentTo(id, since)
      expect(sent).to.have.length(1)
      expect(sent[0]?.message.filter((s) => s.type === 'image').map((s) => s.file)).to.deep.equal(['base64://iVBORw0KGgo='])
      expect(sent[0]?.message.filter((s) => s.type === 'text').map((s) => s.text).join('')).to.equal('画好了，请看')
      const toolMsg = (fake.chatRequests()[1]?.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')
      expect(toolMsg?.content).to.include('[image image/png: sent to the user with your answer]').and.include('drawn')
    } finally {
      await scripts.remove('tinypic')
    }
  })

  it('a file link goes out as a file segment where the host has one (TRSS), else as its link', async () => {
    fake.enqueue({ content: '报告在这：[月报](https://files.example.com/r.pdf)' })
    const id = nextUser()
    const since = p.host.transcript.length
    await p.host.sendPrivate(id, '要报告')
    const sent = sentTo(id, since)
    if (profile === 'trss') {
      expect(sent.map((e) => e.message.map((s) => s.type))).to.deep.equal([['text'], ['file']])
      expect(sent[1]?.message[0]).to.include({ file: 'https://files.example.com/r.pdf', name: '月报' })
      expect(sent[0]?.text).to.equal('报告在这：月报')
    } else {
      expect(sent.map((e) => e.text)).to.deep.equal(['报告在这：月报\n月报 (https://files.example.com/r.pdf)'])
    }
  })

  it("a group's delivery settings win over the global ones", async () => {
    await rt.config.update({ groups: { 62003: { delivery: { longAnswer: 'off', markdown: 'keep' } } } })
    for (const group of ['62003', '62004']) {
      fake.enqueue({ content: longMarkdownAnswer() })
      const since = p.host.transcript.length
      await p.host.sendGroup(group, nextUser(), '长文', { at: true })
      const sent = sentTo(group, since)
      expect(sent).to.have.length(1)
      if (group === '62003') expect(sent[0]?.text).to.include('**重点 1**') // as written, one message
      else forwardNodes(sent[0]).forEach((n) => expectPlain(nodeText(n)))
    }
  })

  describe('with fake timers', () => {
    let clock: sinon.SinonFakeTimers | undefined
    afterEach(() => { clock?.restore(); clock = undefined })

    it('splitSentences sends a short answer sentence by sentence, pausing before each', async () => {
      await rt.config.update({ delivery: { splitSentences: true, sentenceDelayMs: 500 } })
      fake.enqueue({ content: '第一句。第二句稍微长一点！Third one? 最后……' })
      const id = nextUser()
      const since = p.host.transcript.length
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true })
      const times: number[] = []
      const off = p.host.onSend((e) => { if (e.targetId === id) times.push(clock!.now) })
      try {
        const done = p.host.sendPrivate(id, '分句')
        await until(() => fake.chatRequests().length === 1, 'the model request')
        // the first sentence waits for its pause too
        const t0 = clock.now
        while (times.length < 4) {
          await clock.tickAsync(50)
          await new Promise((resolve) => setImmediate(resolve))
          if (clock.now - t0 > 20_000) throw new Error(`only ${times.length} sentences`)
        }
        await done
      } finally { off() }
      const parts = ['第一句。', '第二句稍微长一点！', 'Third one?', '最后……']
      expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(parts)
      for (let i = 1; i < parts.length; i++) expect(times[i]! - times[i - 1]!, `pause before "${parts[i]}"`).to.equal(sentenceDelay(parts[i]!, 500))
      expect(sentenceDelay(parts[1]!, 500)).to.equal(500 + parts[1]!.length * 20)
    })

    it('the thinking notice goes out when the model is slow, and never when the answer came first', async () => {
      await rt.config.update({ delivery: { thinkingNoticeMs: 3000 } })
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true })
      // slow: the model answers after 5 s (the fake server's pause runs on the faked timers too)
      fake.enqueue({ content: '终于想好了', delayMs: 5000 })
      const slow = nextUser()
      const since = p.host.transcript.length
      const done = p.host.sendPrivate(slow, '难题')
      await until(() => fake.chatRequests().length === 1, 'the model request')
      await clock.tickAsync(2999)
      expect(sentTo(slow, since), 'no notice before 3 s').to.have.length(0)
      await clock.tickAsync(1)
      await until(() => sentTo(slow, since).length === 1, 'the notice')
      expect(sentTo(slow, since)[0]?.text).to.equal('让我想想……')
      await clock.tickAsync(2000)
      await until(() => sentTo(slow, since).length === 2, 'the answer')
      await done
      expect(sentTo(slow, since).map((e) => e.text)).to.deep.equal(['让我想想……', '终于想好了'])
      // quick: the answer comes first, the timer is cleared
      const quick = nextUser()
      const since2 = p.host.transcript.length
      await p.host.sendPrivate(quick, '简单')
      await clock.tickAsync(10_000)
      expect(sentTo(quick, since2).map((e) => e.text)).to.deep.equal(['echo: 简单'])
      // a custom notice text
      await rt.config.update({ delivery: { thinkingNoticeText: '稍等，我查一下' } })
      fake.enqueue({ content: '好了', delayMs: 4000 })
      const custom = nextUser()
      const since3 = p.host.transcript.length
      const done3 = p.host.sendPrivate(custom, '再来')
      await until(() => fake.chatRequests().length === 3, 'the third model request')
      await clock.tickAsync(3000)
      await until(() => sentTo(custom, since3).length === 1, 'the custom notice')
      await clock.tickAsync(1000)
      await done3
      expect(sentTo(custom, since3).map((e) => e.text)).to.deep.equal(['稍等，我查一下', '好了'])
    })
  })
})
