// Media (issue 19 point 4) in the real TRSS-Yunzai host, driven through its OneBot v11 adapter with the
// fake model and a fake /audio/speech endpoint (tests/media/fake-speech.ts, a real WAV): the model's
// draw_image call lands as send_private_msg / send_group_msg with an image segment and the answer's
// text; with tts always-on a short answer lands as a record segment carrying the audio (the group's
// voice in the speech request); a failed synthesis lands as the text; the speech key never appears in
// the host's output. Set-up as in delivery.test.ts (tests/realhost/README.md).
import { join } from 'node:path'
import { expect } from 'chai'
import { stringify } from 'yaml'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { startFakeSpeech, type FakeSpeech } from '../media/fake-speech.js'
import { FakeOneBot, type Sent, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const MEMBER = 10003
const GROUP_DRAW = 22001
const GROUP_VOICE = 22002 // tts.mode always here (the global mode is request)
const GROUP_VOICE_FAIL = 22003 // the same, its own group: TRSS drops a group's messages within its cooldowns
const KEY = 'sk-speech-realhost-0123456789abcdef'
const FAKE_IMAGE = `base64://${Buffer.from('fake-png').toString('base64')}`

interface Seg { type: string; data: Record<string, unknown> }
const segs = (s: Sent): Seg[] => (Array.isArray(s.params.message) ? s.params.message as Seg[] : [])
const segTexts = (list: Seg[]): string => list.filter((s) => s.type === 'text').map((s) => String(s.data.text ?? '')).join('')

/** The last message of a chat request and whether a tool already answered in it. */
function turnOf (body: { messages?: Array<{ role: string; content: unknown }> }): { last: string; toolDone: boolean } {
  const msgs = body.messages ?? []
  const users = msgs.filter((m) => m.role === 'user')
  return { last: JSON.stringify(users.at(-1)?.content ?? ''), toolDone: msgs.at(-1)?.role === 'tool' }
}

describe('real TRSS-Yunzai host: media (draw_image, voice replies)', function () {
  this.timeout(60_000)
  let dataDir = ''
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let speech: FakeSpeech | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'media', { botId: BOT, masterId: MASTER })
    dataDir = p.dataDir
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    speech = await startFakeSpeech()
    // the model draws when asked to (DRAWCAT), then answers; everything else is echoed
    fake.respond = (body: { messages?: Array<{ role: string; content: unknown }> }) => {
      if (!body?.messages) return {} // an images request: the fake draws
      const { last, toolDone } = turnOf(body)
      if (last.includes('DRAWCAT')) return toolDone ? { content: '画好了，请看' } : { toolCalls: [{ name: 'draw_image', arguments: { prompt: '一只橘猫' } }] }
      if (last.includes('SAYNIGHT')) return { content: '晚安，好梦' }
      return defaultBehavior(body)
    }
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'], image: { enabled: true, model: 'dall-e-3' } }],
      memory: { enabled: false },
      delivery: { quote: false, atSender: false },
      image: { enabled: true },
      tts: { mode: 'request', baseUrl: speech.url, apiKey: KEY, format: 'wav', voice: 'alloy' },
      groups: { [String(GROUP_VOICE)]: { tts: { mode: 'always', voice: 'shimmer' } }, [String(GROUP_VOICE_FAIL)]: { tts: { mode: 'always' } } }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, FRIEND, MEMBER], [GROUP_DRAW, GROUP_VOICE, GROUP_VOICE_FAIL]))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake, speech] })
  })

  it('the model\'s draw_image call lands as send_private_msg with an image segment and the answer', async () => {
    const since = Date.now()
    await bot!.privateMessage(FRIEND, 'DRAWCAT 画只猫')
    const sent = await bot!.waitForSent((s) => s.userId === String(FRIEND), 30_000, since)
    expect(sent.action).to.match(/^send_(private_)?msg$/)
    expect(segs(sent).filter((s) => s.type === 'image').map((s) => s.data.file)).to.deep.equal([FAKE_IMAGE])
    expect(segTexts(segs(sent))).to.equal('画好了，请看')
    const drawn = fake!.requests.filter((r) => r.path.endsWith('/images/generations'))
    expect(drawn.at(-1)?.body).to.include({ prompt: '一只橘猫', model: 'dall-e-3' })
  })

  it('in a group (@bot) the drawn image lands as send_group_msg with an image segment', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP_DRAW, MEMBER, ' DRAWCAT 群里画猫', { atBot: true })
    const sent = await bot!.waitForSent((s) => s.groupId === String(GROUP_DRAW), 30_000, since)
    expect(sent.action).to.match(/^send_(group_)?msg$/)
    expect(segs(sent).filter((s) => s.type === 'image').map((s) => s.data.file)).to.deep.equal([FAKE_IMAGE])
  })

  it('tts always-on in a group: a short answer lands as a record segment with the audio, in the group\'s voice', async () => {
    speech!.reset()
    const since = Date.now()
    await bot!.groupMessage(GROUP_VOICE, MEMBER, ' SAYNIGHT 说晚安', { atBot: true })
    const sent = await bot!.waitForSent((s) => s.groupId === String(GROUP_VOICE), 30_000, since)
    expect(segs(sent).map((s) => s.type)).to.deep.equal(['record'])
    expect(segs(sent)[0]?.data.file).to.equal(`base64://${speech!.audio.toString('base64')}`)
    expect(speech!.requests.map((r) => r.body)).to.deep.equal([{ model: 'tts-1', input: '晚安，好梦', voice: 'shimmer', response_format: 'wav', speed: 1 }])
  })

  it('a failed synthesis lands as the text; the speech key never appears in the host\'s output', async () => {
    speech!.reset()
    speech!.failNext('echo')
    const since = Date.now()
    await bot!.groupMessage(GROUP_VOICE_FAIL, FRIEND, ' SAYNIGHT 再说一次', { atBot: true })
    const sent = await bot!.waitForSent((s) => s.groupId === String(GROUP_VOICE_FAIL), 30_000, since)
    expect(segs(sent).map((s) => s.type)).to.deep.equal(['text'])
    expect(segTexts(segs(sent))).to.equal('晚安，好梦')
    expect(speech!.requests).to.have.length(1)
    expect(host!.output()).to.include('Speech failed').and.not.include(KEY)
  })

  it('#lx语音 <text> (mode request) lands as a record segment in a private chat', async () => {
    speech!.reset()
    const since = Date.now()
    await bot!.privateMessage(FRIEND, '#lx语音 你好呀')
    const sent = await bot!.waitForSent((s) => s.userId === String(FRIEND), 30_000, since)
    expect(segs(sent).map((s) => s.type)).to.deep.equal(['record'])
    expect(speech!.requests.map((r) => [r.body.input, r.body.voice])).to.deep.equal([['你好呀', 'alloy']])
  })
})
