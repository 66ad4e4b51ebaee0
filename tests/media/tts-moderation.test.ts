// Spoken text passes the output moderation before it is synthesised (lib/tts/service.ts record, the
// outbound gate's own check): a voice record is media, which the gate lets through unread. Through the
// standalone host with the fake model and the fake speech endpoint: the speak tool, the #lx语音 command,
// an answer spoken in tts always mode, and a welcome line (text and spoken). Mask: the masked text is
// spoken; refuse: nothing is synthesised and nothing is sent.
import { expect } from 'chai'
import type { Runtime } from '../../lib/runtime.js'
import type { TranscriptEntry } from '../../standalone/types.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startFakeSpeech, type FakeSpeech } from './fake-speech.js'

const TTS = { mode: 'request', apiKey: 'sk-speech', model: 'tts-1', voice: 'alloy', speed: 1, format: 'wav', maxChars: 100, timeoutMs: 30000 } as const
const GROUP = '73001'

describe('tts: spoken text passes the output moderation before synthesis', function () {
  this.timeout(60_000)
  let chat: FakeOpenAI
  let speech: FakeSpeech
  let ph: PluginHost
  let rt: Runtime
  let user = 74000
  const nextUser = (): string => String(++user)
  const sentTo = (id: string, since: number): TranscriptEntry[] => ph.host.transcript.slice(since).filter((e) => e.targetId === id)
  const kinds = (entries: TranscriptEntry[]): string[] => entries.map((e) => e.message.map((s) => s.type).join())
  const outputHits = (): number => rt.need('governance').hits.list().filter((h) => h.direction === 'output').length
  const spoken = (): string[] => speech.requests.map((r) => r.body.input ?? '')

  before(async () => {
    chat = await startFakeOpenAI({ models: ['gpt-test'] })
    speech = await startFakeSpeech()
    ph = await startPluginHost('miao', 'lingxi-tts-moderation-')
    rt = ph.run.rt
  })
  after(async () => {
    await ph?.stop()
    await chat?.close()
    await speech?.close()
  })
  beforeEach(async () => {
    chat.reset()
    speech.reset()
    await rt.config.update({
      channels: [{ name: 'chat', baseUrl: chat.url, apiKey: 'sk-chat', model: 'gpt-test', models: ['gpt-test'] }],
      trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 },
      memory: { enabled: false },
      delivery: { quote: false },
      moderation: { strictness: 'mask', checkInput: false, checkOutput: true, useDefaultList: false, keywords: ['违禁词'], regexes: [], notice: '' },
      tts: { ...TTS, baseUrl: speech.url },
      groups: { [GROUP]: { events: { join: 1 } } } as never
    })
  })

  it('the speak tool: the masked text is spoken and the hit logged; in a refuse chat nothing is synthesised or sent, and the model is told', async () => {
    const hits = outputHits()
    chat.enqueue({ toolCalls: [{ name: 'speak', arguments: { text: '你好 违禁词 再见' } }] }, { content: '说完了' })
    let id = nextUser()
    let since = ph.host.transcript.length
    await ph.host.sendPrivate(id, '用语音跟我说句话')
    expect(spoken()).to.deep.equal(['你好 ＊＊＊ 再见'])
    expect(kinds(sentTo(id, since))).to.deep.equal(['record', 'text'])
    expect(outputHits()).to.equal(hits + 1)

    await rt.config.update({ moderation: { strictness: 'refuse' } })
    chat.enqueue({ toolCalls: [{ name: 'speak', arguments: { text: '你好 违禁词 再见' } }] }, { content: '没说出来' })
    id = nextUser()
    since = ph.host.transcript.length
    await ph.host.sendPrivate(id, '用语音再说一次')
    expect(speech.requests, 'no synthesis').to.have.length(1)
    expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['没说出来'])
    expect(JSON.stringify(chat.chatRequests().at(-1)?.body.messages.at(-1))).to.include('withheld by moderation')
  })

  it('#lx语音: the masked text is spoken; in a refuse chat nothing is synthesised or sent', async () => {
    let id = nextUser()
    let since = ph.host.transcript.length
    await ph.host.sendPrivate(id, '#lx语音 我要说违禁词了')
    expect(spoken()).to.deep.equal(['我要说＊＊＊了'])
    expect(kinds(sentTo(id, since))).to.deep.equal(['record'])

    await rt.config.update({ moderation: { strictness: 'refuse' } })
    id = nextUser()
    since = ph.host.transcript.length
    await ph.host.sendPrivate(id, '#lx语音 我要说违禁词了')
    expect(speech.requests, 'no synthesis').to.have.length(1)
    expect(sentTo(id, since), 'nothing sent, the text neither').to.deep.equal([])
  })

  it('tts always: an answer is spoken masked', async () => {
    await rt.config.update({ tts: { mode: 'always' } })
    chat.enqueue({ content: '晚安 违禁词' })
    const id = nextUser()
    const since = ph.host.transcript.length
    await ph.host.sendPrivate(id, '说晚安')
    expect(spoken()).to.deep.equal(['晚安 ＊＊＊'])
    expect(kinds(sentTo(id, since))).to.deep.equal(['record'])
  })

  it('welcome lines: as text masked, spoken masked, and in a refuse chat neither sent nor spoken', async () => {
    await rt.config.update({ tts: { mode: 'off' } })
    chat.enqueue({ content: '欢迎小明 违禁词' })
    let since = ph.host.transcript.length
    await ph.host.memberJoined({ groupId: GROUP, userId: '30001', nickname: '小明' })
    expect(sentTo(GROUP, since).map((e) => e.text)).to.deep.equal(['欢迎小明 ＊＊＊'])

    await rt.config.update({ tts: { mode: 'always' } })
    chat.enqueue({ content: '欢迎小红 违禁词' })
    since = ph.host.transcript.length
    await ph.host.memberJoined({ groupId: GROUP, userId: '30002', nickname: '小红' })
    expect(spoken()).to.deep.equal(['欢迎小红 ＊＊＊'])
    expect(kinds(sentTo(GROUP, since))).to.deep.equal(['record'])

    await rt.config.update({ moderation: { strictness: 'refuse' } })
    chat.enqueue({ content: '欢迎小刚 违禁词' })
    since = ph.host.transcript.length
    await ph.host.memberJoined({ groupId: GROUP, userId: '30003', nickname: '小刚' })
    expect(chat.chatRequests()).to.have.length(3)
    expect(sentTo(GROUP, since)).to.deep.equal([])
    expect(speech.requests).to.have.length(1)
  })
})
