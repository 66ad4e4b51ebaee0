// Streamed answers (lib/delivery/stream.ts, README "Streamed answers") through the standalone host in
// both profiles, with the fake model streaming one chunk per second on sinon's fake timers: pieces go out
// while the model still writes, the quote / @ on the first piece only, the thinking notice cancelled by
// the first piece, reasoning never sent, a later piece withheld by moderation, a long answer's rest as
// one forward, a tool round's preface as one aside and the final answer not repeated, private chats only
// by default (a group override streams there), and no error message after pieces went out.
import { expect } from 'chai'
import sinon from 'sinon'
import { SENTENCES, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'
import { renderText, toSegments } from '../../standalone/segments.js'
import type { ForwardNode, Seg, TranscriptEntry } from '../../standalone/types.js'
import type { Runtime } from '../../lib/runtime.js'

const realTimeout = globalThis.setTimeout

const DEFAULTS = {
  markdown: 'plain', longAnswer: 'forward', longAnswerChars: 500, splitSentences: false, sentenceDelayMs: 800,
  quote: true, atSender: false, thinkingNoticeMs: 0, thinkingNoticeText: '', stream: 'private', streamMinChars: 30, streamMaxPieces: 4
} as const
const STEP_MS = 1000
const segText = (segs: Seg[]): string => segs.filter((x) => x.type === 'text').map((x) => String(x.text ?? '')).join('').trim()
const S = SENTENCES

for (const profile of PROFILES) describe(`delivery: streamed answers (standalone host, ${profile})`, function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  let clock: sinon.SinonFakeTimers | undefined
  let user = 64000
  let group = 65000
  const nextUser = (): string => String(++user)
  const sentTo = (id: string, since: number): TranscriptEntry[] => p.host.transcript.slice(since).filter((e) => e.targetId === id)

  /**
   * Runs a turn: once its model request arrived (real time until then: the thinking notice's timer runs
   * from the message), moves the fake clock 10 ms per 2 real ms (the network needs real time) until done.
   */
  async function drive<T> (turn: () => Promise<T>, limitMs = 120_000): Promise<T> {
    const asked = fake.chatRequests().length
    let settled = false
    const out = turn().finally(() => { settled = true })
    const t0 = clock!.now
    while (!settled) {
      if (clock!.now - t0 > limitMs) throw new Error(`not done after ${limitMs} fake ms`)
      await new Promise((resolve) => realTimeout(resolve, 2))
      if (!settled && fake.chatRequests().length > asked) await clock!.tickAsync(10)
    }
    return await out
  }

  /** The fake model's request of this turn had not ended yet when each message was sent. */
  function watchSends (id: string): { whileStreaming: boolean[]; times: number[]; off(): void } {
    const whileStreaming: boolean[] = []
    const times: number[] = []
    const off = p.host.onSend((e) => {
      if (e.targetId !== id) return
      whileStreaming.push(fake.chatRequests().at(-1)?.ended !== true)
      times.push(clock!.now)
    })
    return { whileStreaming, times, off }
  }

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-stream-')
    rt = p.run.rt
    await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }], memory: { enabled: false }, groupLog: { enabled: true } })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    fake.reset()
    await rt.config.update({ delivery: { ...DEFAULTS }, trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 }, groups: {}, moderation: { strictness: 'off' } })
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true })
  })
  afterEach(() => { clock?.restore(); clock = undefined })

  it('a private answer goes out in pieces while the model still writes; the notice is cancelled, reasoning never sent, the whole answer stored', async () => {
    await rt.config.update({ delivery: { thinkingNoticeMs: 4500 } })
    const chunks = ['<thi', 'nk>秘密的推理 SECRET。这一段推理很长很长，绝不能出现在聊天里。', '</think>\n', S[0]!, S[1]!, `${S[2]!}\n\n`, S[3]!, S[4]!]
    fake.enqueue({ chunks, chunkDelayMs: STEP_MS })
    const id = nextUser()
    const since = p.host.transcript.length
    const w = watchSends(id)
    const t0 = clock!.now
    try {
      await drive(() => p.host.sendPrivate(id, '流式'))
    } finally { w.off() }
    const texts = sentTo(id, since).map((e) => e.text)
    expect(texts).to.deep.equal([S[0], `${S[1]}${S[2]}`, `${S[3]}${S[4]}`])
    // the first piece left with the fourth chunk (4 s), while the model still wrote; the notice (4.5 s) never
    expect(w.whileStreaming).to.deep.equal([true, true, false])
    expect(w.times[0]! - t0).to.be.within(4 * STEP_MS, 4.5 * STEP_MS)
    expect(texts.join('')).to.not.include('SECRET').and.not.include('让我想想')
    expect(rt.need('conversations').store.history(`private:${id}`).at(-1)?.content).to.equal(`${S[0]}${S[1]}${S[2]}\n\n${S[3]}${S[4]}`)
  })

  it('each piece goes out in the plain-text form of delivery.markdown; a code block stays whole, short pieces wait', async () => {
    const chunks = ['## 标题\n\n**重点**：这是第一段话，足够长，', '用来测试纯文本的转换是否正确。\n\n', '- 第一项\n- 第二项，列表项会变成圆点\n\n', 'Run it:\n\n```js\nconst a = 1.5\n\nconsole.log(a)\n```\n\n', '见 [文档](https://ex.com/d) 里的说明。']
    fake.enqueue({ chunks, chunkDelayMs: STEP_MS })
    const id = nextUser()
    const since = p.host.transcript.length
    await drive(() => p.host.sendPrivate(id, '格式'))
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal([
      '标题\n\n重点：这是第一段话，足够长，用来测试纯文本的转换是否正确。',
      // the list is shorter than streamMinChars: it waits for the next paragraph, whose lead-in stays with its code
      '• 第一项\n• 第二项，列表项会变成圆点\n\nRun it:\n\nconst a = 1.5\n\nconsole.log(a)',
      '见 文档 (https://ex.com/d) 里的说明。'
    ])
  })

  it('groups do not stream by default; a group override `on` streams there, the quote and @ on the first piece only', async () => {
    await rt.config.update({ delivery: { atSender: true } })
    const plain = String(++group)
    const streaming = String(++group)
    await rt.config.update({ groups: { [streaming]: { delivery: { stream: 'on' } } } })
    for (const g of [plain, streaming]) {
      fake.enqueue({ chunks: [S[0]!, `${S[1]!}\n\n`, S[2]!], chunkDelayMs: STEP_MS })
      const since = p.host.transcript.length
      const asker = nextUser()
      await drive(() => p.host.sendGroup(g, asker, '分段吗', { at: true }))
      const sent = sentTo(g, since)
      if (g === plain) {
        expect(sent).to.have.length(1)
        expect(sent[0]?.text).to.include(`${S[0]}${S[1]}\n\n${S[2]}`)
        continue
      }
      expect(sent.map((e) => segText(e.message))).to.deep.equal([S[0], S[1], S[2]])
      expect(sent[0]?.quote).to.not.equal(undefined)
      expect(sent[0]?.message[0]?.type).to.equal('at')
      expect(String(sent[0]?.message[0]?.qq)).to.equal(asker)
      for (const later of sent.slice(1)) {
        expect(later.quote).to.equal(undefined)
        expect(later.message.some((s: Seg) => s.type === 'at')).to.equal(false)
      }
      // the group log keeps the whole answer, once
      const bot = rt.need('groupLog').recent(g, 10).filter((e) => e.fromBot).map((e) => e.text)
      expect(bot).to.deep.equal([`${S[0]}${S[1]}\n\n${S[2]}`])
    }
  })

  it('a piece the outbound moderation refuses stops the stream: the refusal, nothing more', async () => {
    await rt.config.update({ moderation: { strictness: 'refuse', checkInput: false, checkOutput: true, useDefaultList: false, keywords: ['违禁词'], regexes: [], notice: '' } })
    fake.enqueue({ chunks: [S[0]!, `${S[1]!}\n\n`, '这一段里有违禁词，所以这一整段都不能发出去，后面的内容也不再发了。\n\n', `${S[3]!}\n\n`, S[4]!], chunkDelayMs: STEP_MS })
    const id = nextUser()
    const since = p.host.transcript.length
    await drive(() => p.host.sendPrivate(id, '审核'))
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal([S[0], S[1], '回答中包含不允许的内容，已被拦截。'])
  })

  it('a long answer: pieces while it is short, then the rest (and only the rest) as one forward at the end', async () => {
    await rt.config.update({ delivery: { longAnswerChars: 100 } })
    const chunks = [S[0]!, `${S[1]!}\n\n`, ...S.slice(2).map((s, i) => (i % 2 ? `${s}\n\n` : s))]
    fake.enqueue({ chunks, chunkDelayMs: STEP_MS })
    const id = nextUser()
    const since = p.host.transcript.length
    const w = watchSends(id)
    try {
      await drive(() => p.host.sendPrivate(id, '长回答'))
    } finally { w.off() }
    const sent = sentTo(id, since)
    expect(sent.slice(0, 2).map((e) => e.text)).to.deep.equal([S[0], S[1]])
    expect(w.whileStreaming.slice(0, 2)).to.deep.equal([true, true])
    expect(sent).to.have.length(3)
    const fwd = sent[2]?.message.find((s) => s.type === 'node')
    expect(fwd, 'the rest as a forward').to.not.equal(undefined)
    const rest = ((fwd as Seg).data as ForwardNode[]).map((n) => renderText(toSegments(n.message))).join('\n\n')
    expect(rest.startsWith(S[2]!)).to.equal(true)
    expect(rest).to.include(S[7]).and.not.include(S[0]).and.not.include(S[1])
  })

  it('streamMaxPieces: after that many pieces the rest goes as one message', async () => {
    await rt.config.update({ delivery: { streamMaxPieces: 2, longAnswerChars: 5000 } })
    fake.enqueue({ chunks: S.slice(0, 5).map((s) => `${s}\n\n`), chunkDelayMs: STEP_MS })
    const id = nextUser()
    const since = p.host.transcript.length
    await drive(() => p.host.sendPrivate(id, '几段'))
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal([S[0], S[1], `${S[2]}\n\n${S[3]}\n\n${S[4]}`])
  })

  it("a tool round's preface goes out once as a short aside; the final answer is not repeated", async () => {
    fake.enqueue(
      { chunks: ['好的，我先查一下时间。'], toolCalls: [{ name: 'get_current_time', arguments: {} }], chunkDelayMs: STEP_MS },
      { chunks: ['再确认一次。'], toolCalls: [{ name: 'get_current_time', arguments: {} }], chunkDelayMs: STEP_MS },
      { chunks: [S[0]!, `${S[1]!}\n\n`, S[2]!], chunkDelayMs: STEP_MS }
    )
    const id = nextUser()
    const since = p.host.transcript.length
    await drive(() => p.host.sendPrivate(id, '现在几点'))
    expect(fake.offeredTools(0)).to.include('get_current_time')
    expect(fake.chatRequests()).to.have.length(3)
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['好的，我先查一下时间。', S[0], S[1], S[2]])
    expect(rt.need('conversations').store.history(`private:${id}`).at(-1)?.content).to.equal(`${S[0]}${S[1]}\n\n${S[2]}`)
  })

  it('the model failing after pieces went out: no error message; failing before any: the error message', async () => {
    fake.enqueue({ chunks: [S[0]!, S[1]!, S[2]!], chunkDelayMs: STEP_MS, breakAfterChunks: 2 })
    const id = nextUser()
    const since = p.host.transcript.length
    await drive(() => p.host.sendPrivate(id, '断了'))
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal([S[0]])
    fake.enqueue({ chunks: [S[0]!], chunkDelayMs: STEP_MS, breakAfterChunks: 0 })
    const other = nextUser()
    const since2 = p.host.transcript.length
    await drive(() => p.host.sendPrivate(other, '断了'))
    const sent = sentTo(other, since2)
    expect(sent).to.have.length(1)
    expect(sent[0]?.text).to.not.include(S[0])
  })

  it('stream off: exactly the unstreamed delivery (one message after the model finished)', async () => {
    await rt.config.update({ delivery: { stream: 'off' } })
    fake.enqueue({ chunks: [S[0]!, `${S[1]!}\n\n`, S[2]!], chunkDelayMs: STEP_MS })
    const id = nextUser()
    const since = p.host.transcript.length
    const w = watchSends(id)
    try {
      await drive(() => p.host.sendPrivate(id, '不分段'))
    } finally { w.off() }
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal([`${S[0]}${S[1]}\n\n${S[2]}`])
    expect(w.whileStreaming).to.deep.equal([false])
  })
})
