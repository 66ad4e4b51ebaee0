// What the bot reads of a message (lib/input) in the real TRSS-Yunzai host, driven through its own
// OneBot v11 adapter by a protocol client that keeps messages as NapCat does (get_msg,
// get_forward_msg: support/onebot-history.ts): a reply to the bot's answer reaches the model with the
// quoted text (the host's e.getReply() -> get_msg), a forwarded bundle is expanded (get_forward_msg)
// and bounded, an image for a vision:false channel is captioned by another channel, a voice message
// (record segment with a URL, as NapCat gives it) is transcribed or, with transcription off, never sent
// to a model, and the transcription key stays out of the config API and the host's output.
// Set-up as in trss.test.ts (tests/realhost/README.md); skipped in one line without the snapshot.
import { userText } from '../support/user-text.js'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai.js'
import { HistoryOneBot, type Segment } from './support/onebot-history.js'
import { ensureToolchain, type Toolchain } from './support/toolchain.js'
import { endHostSuite } from './support/prepare.js'
import { copyPlugin, freePort, installHost, PLUGIN_KEY, spawnHost, startRedis, waitForHttp, writeHostConfig, type HostProcess } from './support/trss-host.js'

const BOT = 3000000002
const MASTER = 10001
const USER = 10002
const GROUP = 20001
const KEY = 'sk-transcribe-realhost-0123456789abcdef'
const VOICE = Buffer.from('#!AMR\n' + 'v'.repeat(128))

const text = (t: string): Segment => ({ type: 'text', data: { text: t } })

/** The last user message of a chat request: its text (text parts joined), image URLs, raw content. */
function lastUser (r: RecordedRequest | undefined): { text: string; images: string[]; raw: unknown } {
  const msgs = ((r?.body as { messages?: Array<{ role: string; content: unknown }> })?.messages ?? []).filter((m) => m.role === 'user')
  const content = msgs.at(-1)?.content
  // the user's words: not the note (time, speaker) that heads them (lib/chat/turn-note.ts)
  if (typeof content === 'string') return { text: userText(content), images: [], raw: content }
  const parts = Array.isArray(content) ? content as Array<{ type: string; text?: string; image_url?: { url: string } }> : []
  return { text: userText(parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n')), images: parts.flatMap((p) => (p.image_url ? [p.image_url.url] : [])), raw: content }
}

/** Resolves once `fake` has `n` requests on `path` (the model call happens after the event went in). */
async function requestsOn (fake: FakeOpenAI, path: string, n: number, timeoutMs = 20_000): Promise<RecordedRequest[]> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const got = fake.requests.filter((r) => r.path.endsWith(path))
    if (got.length >= n) return got
    if (Date.now() > until) throw new Error(`${path}: ${got.length} of ${n} requests within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('real TRSS-Yunzai host: what the bot reads of a message (OneBot v11)', function () {
  this.timeout(60_000)
  let tc: Toolchain
  let work = ''
  let root = ''
  let redis: { port: number; stop(): Promise<void> } | undefined
  let chat: FakeOpenAI | undefined
  let eyes: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: HistoryOneBot | undefined
  let audio: Server | undefined
  let audioUrl = ''
  let ownUrl = ''
  let session = ''

  before(async function () {
    this.timeout(15 * 60_000)
    const got = await ensureToolchain()
    if (typeof got === 'string') {
      console.warn(`    real-host input suite skipped: ${got}`)
      this.skip()
    }
    tc = got as Toolchain
    work = mkdtempSync(join(tmpdir(), 'lingxi-realhost-input-'))
    root = join(work, 'trss-yunzai')
    redis = await startRedis(tc, work)
    await installHost(tc, root).catch((err: Error & { unreachable?: boolean }) => {
      if (!err.unreachable) throw err
      console.warn(`    real-host input suite skipped: the host's packages could not be fetched (${err.message.split('\n')[0]})`)
      this.skip()
    })
    await copyPlugin(join(root, 'plugins', PLUGIN_KEY))
    const serverPort = await freePort()
    let lingxiPort: number
    do lingxiPort = await freePort(); while (lingxiPort === serverPort)
    ownUrl = `http://127.0.0.1:${lingxiPort}`
    writeHostConfig(root, { botId: String(BOT), masterId: String(MASTER), serverPort, redisPort: redis.port })
    chat = await startFakeOpenAI({ models: ['gpt-chat'] })
    eyes = await startFakeOpenAI({ models: ['gpt-eyes'] })
    // where the protocol implementation serves a voice message's file (NapCat gives such a URL)
    audio = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'audio/amr' }); res.end(VOICE) })
    await new Promise<void>((resolve) => audio!.listen(0, '127.0.0.1', resolve))
    audioUrl = `http://127.0.0.1:${(audio.address() as AddressInfo).port}/voice.amr`
    host = spawnHost(tc, root, { LINGXI_DATA_DIR: join(work, 'lingxi-data'), LINGXI_PORT: String(lingxiPort) })
    await waitForHttp(`${ownUrl}/api/system/health`, host, 120_000)
    bot = new HistoryOneBot(BOT, { nickname: '灵犀测试机', friends: [{ user_id: MASTER, nickname: 'master' }, { user_id: USER, nickname: 'friend' }], groups: [{ group_id: GROUP, group_name: 'test group' }] }, 0)
    await bot.connectToHost(serverPort, () => host?.output() ?? '')
    // a session through the master's login link, then the settings of the scenarios
    const since = Date.now()
    await bot.privateMessage(MASTER, '#lx面板')
    const reply = await bot.waitForSent((s) => s.userId === String(MASTER) && s.text.includes('login#token='), 20_000, since)
    const token = /#token=([\w-]+)/.exec(reply.text)?.[1]
    const login = await fetch(`${ownUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    session = ((await login.json()) as { data: { token: string } }).data.token
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, { root, work }, { bot, host, servers: [redis, chat, eyes, audio] })
  })

  async function configure (patch: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${ownUrl}/api/config`, { method: 'PUT', headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' }, body: JSON.stringify(patch) })
    expect(res.status, await res.clone().text()).to.equal(200)
  }

  const textChannel = (vision: boolean): Record<string, unknown> => ({ name: 'chat', baseUrl: chat!.url, apiKey: 'sk-chat', model: 'gpt-chat', models: ['gpt-chat'], vision, priority: 10 })
  const eyesChannel = (): Record<string, unknown> => ({ name: 'eyes', baseUrl: eyes!.url, apiKey: 'sk-eyes', model: 'gpt-eyes', models: ['gpt-eyes'] })

  beforeEach(async () => {
    chat!.reset()
    eyes!.reset()
    await configure({
      channels: [textChannel(true)],
      // the voice server is on 127.0.0.1 (as a protocol implementation on the same machine): named so the outbound fetcher reaches it
      web: { allowPrivateHosts: ['127.0.0.1'] },
      input: { quoted: true, forwardMaxMessages: 30, captionChannel: '', captionModel: '', transcription: { baseUrl: '', apiKey: '', model: 'whisper-1' } }
    })
  })

  it("a reply to the bot's earlier answer carries the quoted text to the model (the host's getReply -> get_msg)", async () => {
    let since = Date.now()
    bot!.message(USER, [text('讲个笑话吧')])
    const first = await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('echo: 讲个笑话吧'), 20_000, since)
    const sentId = bot!.sentIds.get(first.params)
    expect(sentId, 'the id the implementation gave the answer').to.be.a('number')
    const stored = bot!.lookups.length
    since = Date.now()
    bot!.message(USER, [{ type: 'reply', data: { id: String(sentId) } }, text('笑点在哪')])
    await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('笑点在哪'), 20_000, since)
    expect(bot!.lookups.slice(stored).map((l) => l.action)).to.include('get_msg')
    expect(lastUser(chat!.chatRequests().at(-1)).text).to.equal('[引用 你（机器人）之前的回复: echo: 讲个笑话吧]\n笑点在哪')
  })

  it("in a group, an @bot reply to a member's message gives the model its author and text (the group's getMsg)", async () => {
    const quoted = bot!.message(MASTER, [text('周五晚上七点聚餐')], { groupId: GROUP, nickname: '老张' })
    // the host drops any group message within groupCD (500 ms) of the group's previous one: a person
    // replying takes longer than that
    await new Promise((resolve) => setTimeout(resolve, 600))
    const since = Date.now()
    bot!.message(USER, [{ type: 'reply', data: { id: String(quoted) } }, { type: 'at', data: { qq: String(BOT) } }, text('几点来着？')], { groupId: GROUP })
    await bot!.waitForSent((s) => s.groupId === String(GROUP) && s.text.includes('几点来着'), 20_000, since)
    expect(lastUser(chat!.chatRequests().at(-1)).text).to.equal('[引用 老张 的消息: 周五晚上七点聚餐]\n几点来着？')
  })

  it('a forwarded bundle reaches the model through get_forward_msg, bounded (N+1 messages give N)', async () => {
    await configure({ input: { forwardMaxMessages: 3 } })
    bot!.addForward('fw-real-1', [
      { user_id: 40001, nickname: '甲', message: [text('周末去爬山吗')] },
      { user_id: 40002, nickname: '乙', message: [text('好啊')] },
      { user_id: 40003, nickname: '丙', message: [text('带上水')] },
      { user_id: 40004, nickname: '丁', message: [text('第四条不该出现')] }
    ])
    const since = Date.now()
    bot!.message(USER, [{ type: 'forward', data: { id: 'fw-real-1' } }, text('帮我总结')])
    await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('帮我总结'), 20_000, since)
    expect(bot!.lookups.map((l) => l.action)).to.include('get_forward_msg')
    expect(lastUser(chat!.chatRequests().at(-1)).text).to.equal('[转发的聊天记录，共 3 条]\n甲: 周末去爬山吗\n乙: 好啊\n丙: 带上水\n帮我总结')
  })

  it('an image sent to a vision:false channel reaches it as a caption; the caption channel receives the image', async () => {
    await configure({ channels: [textChannel(false), eyesChannel()] })
    eyes!.enqueue({ content: '一只橘猫趴在键盘上' })
    const since = Date.now()
    bot!.message(USER, [{ type: 'image', data: { file: 'cat.png', url: 'https://img.example/cat.png' } }])
    await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('一只橘猫'), 20_000, since)
    expect(lastUser(eyes!.chatRequests()[0]).images).to.deep.equal(['https://img.example/cat.png'])
    const got = lastUser(chat!.chatRequests().at(-1))
    expect(typeof got.raw, 'text only').to.equal('string')
    expect(got.text).to.equal('[图片: 一只橘猫趴在键盘上]')
  })

  it('a voice message (record with a URL) is transcribed and answered', async () => {
    await configure({ input: { transcription: { baseUrl: chat!.url, apiKey: KEY, model: 'whisper-1' } } })
    chat!.enqueue({ content: '今天吃什么' })
    const since = Date.now()
    bot!.message(USER, [{ type: 'record', data: { file: 'voice.amr', url: audioUrl } }])
    await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('echo: 今天吃什么'), 20_000, since)
    const [tr] = await requestsOn(chat!, '/audio/transcriptions', 1)
    expect(tr?.headers.authorization).to.equal(`Bearer ${KEY}`)
    expect(tr?.body.file.size).to.equal(VOICE.length)
  })

  it('transcription off: a voice message is never sent to a model; the key stays out of the config API and the host output', async () => {
    const since = Date.now()
    bot!.message(USER, [{ type: 'record', data: { file: 'voice.amr', url: audioUrl } }])
    // a text message after it is answered; by then the voice message was handled (and passed on)
    bot!.message(USER, [text('语音之后的文字')])
    await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('语音之后的文字'), 20_000, since)
    expect(chat!.requests.map((r) => r.path).filter((p) => !p.endsWith('/chat/completions'))).to.deep.equal([])
    expect(chat!.chatRequests().map((r) => lastUser(r).text)).to.deep.equal(['语音之后的文字'])
    expect(bot!.sent.filter((s) => s.time >= since && s.userId === String(USER))).to.have.length(1)
    // a failing transcription whose upstream echoes the key
    await configure({ input: { transcription: { baseUrl: chat!.url, apiKey: KEY, model: 'whisper-1' } } })
    chat!.enqueue({ echoRequest: true, status: 401 })
    const t2 = Date.now()
    bot!.message(USER, [{ type: 'record', data: { file: 'voice2.amr', url: audioUrl } }])
    await bot!.waitForSent((s) => s.userId === String(USER) && s.text.includes('语音没能识别出来'), 20_000, t2)
    for (const path of ['/api/config', '/api/config/input']) {
      const res = await fetch(`${ownUrl}${path}`, { headers: { Authorization: `Bearer ${session}` } })
      expect(await res.text(), path).to.not.include(KEY)
    }
    expect(host!.output()).to.include('Voice message not transcribed')
    expect(host!.output()).to.not.include(KEY)
  })
})
