// Spoken replies (lib/tts) through the standalone host in both profiles, with the fake model and a fake
// /audio/speech endpoint answering a real WAV: a short answer with tts always-on goes out as a voice
// record in the preset's voice, a long one as text, a failed synthesis as text (warned once), a group's
// override over the global mode, the speak tool and the #lx语音 command; the speech key never shows in
// the config API, the logs or the log files.
import { expect } from 'chai'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Runtime } from '../../lib/runtime.js'
import type { TranscriptEntry } from '../../standalone/types.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'
import { startFakeSpeech, type FakeSpeech } from './fake-speech.js'

const KEY = 'sk-speech-secret-0123456789abcdef'
const GROUP = '71001'
const OTHER_GROUP = '71002'
const TTS_OFF = { mode: 'off', baseUrl: '', apiKey: '', model: 'tts-1', voice: 'alloy', speed: 1, format: 'mp3', maxChars: 100, timeoutMs: 30000 } as const

const records = (entries: TranscriptEntry[]): unknown[] => entries.flatMap((e) => e.message.filter((s) => s.type === 'record').map((s) => s.file))

function filesText (dir: string): string {
  let out = ''
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const st = statSync(p)
    if (st.isDirectory()) out += filesText(p)
    else if (st.size < 5_000_000) out += readFileSync(p, 'utf8')
  }
  return out
}

describe('tts: spoken replies (standalone host)', function () {
  this.timeout(60_000)
  let chat: FakeOpenAI
  let speech: FakeSpeech
  before(async () => {
    chat = await startFakeOpenAI({ models: ['gpt-test'] })
    speech = await startFakeSpeech()
  })
  after(async () => { await chat?.close(); await speech?.close() })

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let ph: PluginHost
      let rt: Runtime
      let user = 72000
      const nextUser = (): string => String(++user)
      const sentTo = (id: string, since: number): TranscriptEntry[] => ph.host.transcript.slice(since).filter((e) => e.targetId === id)
      const wav = (): string => `base64://${speech.audio.toString('base64')}`

      before(async () => {
        ph = await startPluginHost(profile, 'lingxi-tts-')
        rt = ph.run.rt
        await rt.need('presets').create('singer', { name: '歌手', systemPrompt: '你是歌手', voice: { enabled: true, voiceId: 'nova', speed: 1.25 } })
      })
      after(async () => { await ph?.stop() })
      beforeEach(async () => {
        chat.reset()
        speech.reset()
        await rt.config.update({
          channels: [{ name: 'chat', baseUrl: chat.url, apiKey: 'sk-chat', model: 'gpt-test', models: ['gpt-test'] }],
          trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 },
          memory: { enabled: false },
          presets: { defaultId: 'default' },
          groups: {},
          tts: { ...TTS_OFF, baseUrl: speech.url, apiKey: KEY, format: 'wav' }
        })
      })

      it('always-on: a short answer goes out as one voice record in the preset\'s voice, not as text', async () => {
        await rt.config.update({ tts: { mode: 'always' }, presets: { defaultId: 'singer' } })
        chat.enqueue({ content: '<think>想想</think>**晚安**，好梦' })
        const id = nextUser()
        const since = ph.host.transcript.length
        expect((await ph.host.sendPrivate(id, '说晚安')).stage).to.equal('handled')
        const sent = sentTo(id, since)
        expect(sent.map((e) => e.message.map((s) => s.type)), JSON.stringify(sent.map((e) => e.text))).to.deep.equal([['record']])
        expect(records(sent)).to.deep.equal([wav()])
        expect(speech.requests).to.have.length(1)
        // reasoning and markdown out, the preset's voice fields in the request
        expect(speech.requests[0]?.body).to.deep.equal({ model: 'tts-1', input: '晚安，好梦', voice: 'nova', response_format: 'wav', speed: 1.25 })
        expect(speech.requests[0]?.authorization).to.equal(`Bearer ${KEY}`)
      })

      it('always-on without a preset voice uses the configured voice; an answer over maxChars stays text', async () => {
        await rt.config.update({ tts: { mode: 'always', maxChars: 10, voice: 'echo', speed: 0.9 } })
        chat.enqueue({ content: '好的' }, { content: '这是一段明显超过十个字符的比较长的回答。' })
        const id = nextUser()
        let since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '短')
        expect(records(sentTo(id, since))).to.deep.equal([wav()])
        expect(speech.requests[0]?.body).to.include({ voice: 'echo', speed: 0.9, input: '好的' })
        since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '长')
        const sent = sentTo(id, since)
        expect(sent.map((e) => e.text)).to.deep.equal(['这是一段明显超过十个字符的比较长的回答。'])
        expect(speech.requests).to.have.length(1)
      })

      it('a failed synthesis sends the answer as text, warned once; an echoed key is never logged or shown', async () => {
        await rt.config.update({ tts: { mode: 'always' } })
        speech.failNext('echo', 500, 500)
        const id = nextUser()
        for (const [q, a] of [['一', '第一句'], ['二', '第二句'], ['三', '第三句']] as const) {
          chat.enqueue({ content: a })
          const since = ph.host.transcript.length
          await ph.host.sendPrivate(id, q)
          expect(sentTo(id, since).map((e) => e.text)).to.deep.equal([a])
          expect(records(sentTo(id, since))).to.deep.equal([])
        }
        expect(speech.requests).to.have.length(3)
        const warned = rt.log.query({ level: 'warn', limit: 500 }).filter((l) => l.message.includes('Speech failed'))
        // one warning per reason (the 401 and the 500s are all MODEL_ERROR); the later ones go to debug
        expect(warned.map((l) => l.message)).to.deep.equal(['Speech failed; the answer is sent as text (told once per reason)'])
        expect(JSON.stringify(rt.log.query({ limit: 2000 }))).to.not.include(KEY)
        expect(ph.host.logs.map((l) => l.text).join('\n')).to.not.include(KEY)
        await rt.log.flush()
        expect(filesText(join(ph.dataDir, 'logs'))).to.not.include(KEY)
        const web = rt.need('web').server
        const { token } = rt.loginTokens.issue({ userId: '10001', isMaster: true })
        const login = await fetch(`${web?.localUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
        const session = ((await login.json()) as { data: { token: string } }).data.token
        for (const path of ['/api/config', '/api/config/tts', '/api/logs?limit=500']) {
          const res = await fetch(`${web?.localUrl}${path}`, { headers: { Authorization: `Bearer ${session}` } })
          const text = await res.text()
          expect(res.status, path).to.equal(200)
          expect(text, path).to.not.include(KEY)
        }
        const cfg = await fetch(`${web?.localUrl}/api/config/tts`, { headers: { Authorization: `Bearer ${session}` } })
        expect(JSON.stringify(await cfg.json())).to.include('sk-****cdef')
        // the masked key sent back keeps the stored one
        const put = await fetch(`${web?.localUrl}/api/config/tts`, { method: 'PUT', headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ apiKey: 'sk-****cdef', voice: 'fable' }) })
        expect(put.status).to.equal(200)
        expect(rt.config.get().tts).to.include({ apiKey: KEY, voice: 'fable' })
      })

      it('mode off speaks nothing; a group\'s mode wins over the global one', async () => {
        await rt.config.update({ groups: { [GROUP]: { tts: { mode: 'always', voice: 'onyx' } } } })
        const id = nextUser()
        chat.enqueue({ content: '私聊文字' })
        let since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '你好')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['私聊文字'])
        chat.enqueue({ content: '群里语音' })
        since = ph.host.transcript.length
        await ph.host.sendGroup(GROUP, id, '你好', { at: true })
        expect(records(sentTo(GROUP, since))).to.deep.equal([wav()])
        expect(speech.requests.map((r) => r.body.voice)).to.deep.equal(['onyx'])
        chat.enqueue({ content: '别的群文字' })
        since = ph.host.transcript.length
        await ph.host.sendGroup(OTHER_GROUP, id, '你好', { at: true })
        expect(records(sentTo(OTHER_GROUP, since))).to.deep.equal([])
        expect(speech.requests).to.have.length(1)
      })

      it('on request: the model\'s speak tool sends a voice record, then the answer as text', async () => {
        await rt.config.update({ tts: { mode: 'request' }, presets: { defaultId: 'singer' } })
        chat.enqueue({ toolCalls: [{ name: 'speak', arguments: { text: '祝你生日快乐' } }] }, { content: '已经唱给你听啦' })
        const id = nextUser()
        const since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '用语音祝我生日快乐')
        const sent = sentTo(id, since)
        expect(sent.map((e) => e.message.map((s) => s.type))).to.deep.equal([['record'], ['text']])
        expect(records(sent)).to.deep.equal([wav()])
        expect(sent[1]?.text).to.equal('已经唱给你听啦')
        expect(speech.requests[0]?.body).to.include({ input: '祝你生日快乐', voice: 'nova', speed: 1.25 })
        const toolMsg = (chat.chatRequests()[1]?.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')
        expect(toolMsg?.content).to.include('voice message was sent')
      })

      it('the speak tool answers the model an error while tts is off, and sends nothing', async () => {
        chat.enqueue({ toolCalls: [{ name: 'speak', arguments: { text: '你好' } }] }, { content: '语音没开，只能打字' })
        const id = nextUser()
        const since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '说句话')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['语音没开，只能打字'])
        expect(speech.requests).to.have.length(0)
        const toolMsg = (chat.chatRequests()[1]?.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')
        expect(toolMsg?.content).to.include('Error: Voice messages are turned off')
      })

      it('#lx语音 <text> says the text as a voice record; off: a short notice; a failure: the text', async () => {
        const id = nextUser()
        let since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '#lx语音 你好呀')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['语音回复没有开启。'])
        await rt.config.update({ tts: { mode: 'request' } })
        since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '#lx语音 你好呀')
        expect(records(sentTo(id, since))).to.deep.equal([wav()])
        expect(speech.requests[0]?.body.input).to.equal('你好呀')
        // no space after 语音 (Chinese); `say` in English
        since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '#lx语音晚安')
        await ph.host.sendPrivate(id, '#lx say good night')
        expect(records(sentTo(id, since))).to.have.length(2)
        expect(speech.requests.slice(1).map((r) => r.body.input)).to.deep.equal(['晚安', 'good night'])
        speech.failNext(503)
        since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '#lx语音 再见')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['再见'])
        since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '#lx语音')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['用法：#lx语音 <要说的话>'])
        expect(chat.chatRequests(), 'the command never reaches the model').to.have.length(0)
      })
    })
  }
})
