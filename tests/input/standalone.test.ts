// What the bot reads of a message (lib/input), through the standalone host in both profiles with the
// real plugin and fake models: a quoted message (TRSS: reply segment + getReply; Miao: e.source +
// getChatHistory), forwarded bundles (bounded), images for a text-only channel (captioned by a channel
// that can see), voice messages (transcribed, or passed on when transcription is off), and the
// transcription key never shown or logged.
import { userText } from '../support/user-text.js'
import { expect } from 'chai'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Runtime } from '../../lib/runtime.js'
import type { Host } from '../../standalone/host.js'
import type { Seg } from '../../standalone/types.js'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'

const USER = '20001'
const OTHER = '20002'
const GROUP = '30001'
const KEY = 'sk-transcribe-secret-0123456789abcdef'
/** a few bytes standing in for a QQ voice file (the fake transcriber reads only its size) */
const VOICE = Buffer.from('#!AMR\n' + 'x'.repeat(64))

/** The last user message of a chat request, as text (its text parts joined) and its image URLs. */
function lastUser (r: RecordedRequest | undefined): { text: string; images: string[]; raw: unknown } {
  const msgs = ((r?.body as { messages?: Array<{ role: string; content: unknown }> })?.messages ?? []).filter((m) => m.role === 'user')
  const content = msgs.at(-1)?.content
  // the user's words: not the note (time, speaker) that heads them (lib/chat/turn-note.ts)
  if (typeof content === 'string') return { text: userText(content), images: [], raw: content }
  const parts = Array.isArray(content) ? content as Array<{ type: string; text?: string; image_url?: { url: string } }> : []
  return { text: userText(parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('\n')), images: parts.flatMap((p) => (p.image_url ? [p.image_url.url] : [])), raw: content }
}

/** Every file under `dir`, as text (log files, stores). */
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

describe('input: what the bot reads of a message (standalone host)', function () {
  this.timeout(60_000)
  let chat: FakeOpenAI
  let eyes: FakeOpenAI
  before(async () => {
    chat = await startFakeOpenAI({ models: ['gpt-chat'] })
    eyes = await startFakeOpenAI({ models: ['gpt-eyes'] })
  })
  after(async () => { await chat?.close(); await eyes?.close() })

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let ph: PluginHost
      let host: Host
      let rt: Runtime
      before(async () => {
        ph = await startPluginHost(profile, 'lingxi-input-')
        host = ph.host
        rt = ph.run.rt
      })
      after(async () => { await ph?.stop() })
      beforeEach(async () => {
        chat.reset()
        eyes.reset()
        await rt.config.update({
          channels: [{ name: 'chat', baseUrl: chat.url, apiKey: 'sk-chat', model: 'gpt-chat', models: ['gpt-chat'] }],
          trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 },
          input: { quoted: true, forwardMaxMessages: 30, captionChannel: '', captionModel: '', transcription: { baseUrl: '', apiKey: '', model: 'whisper-1' } }
        })
        await rt.need('conversations').store.clearAll()
        rt.need('conversations').pipeline.reset()
      })

      /** Dispatches a message event and returns it (its message_id is what a reply quotes). */
      async function send (kind: 'private' | 'group', userId: string, message: Array<Seg | string>, opts: { at?: boolean; nickname?: string } = {}): Promise<{ id: string; stage: string }> {
        const e = host.makeEvent({ kind, userId, ...(kind === 'group' ? { groupId: GROUP } : {}), message, ...(opts.at ? { atBot: true } : {}), ...(opts.nickname ? { nickname: opts.nickname } : {}) })
        const res = await host.dispatch(e)
        return { id: String(e.message_id), stage: res.stage }
      }

      it('a reply to an earlier bot message carries the quoted text to the model, marked as the bot\'s own', async () => {
        await send('private', USER, ['讲个笑话'])
        const botMsg = host.transcript.at(-1)
        expect(botMsg?.text).to.equal('echo: 讲个笑话')
        const before = chat.chatRequests().length
        await send('private', USER, [{ type: 'reply', id: botMsg?.message_id }, '这个笑点在哪？'])
        expect(chat.chatRequests()).to.have.length(before + 1)
        const got = lastUser(chat.chatRequests().at(-1)).text
        expect(got).to.equal('[引用 你（机器人）之前的回复: echo: 讲个笑话]\n这个笑点在哪？')
        expect(host.transcript.at(-1)?.text).to.include('这个笑点在哪？')
      })

      it("a reply to another member's message in a group gives the model its author, text and images", async () => {
        const quoted = await send('group', OTHER, ['明天下午三点开会，地点看图', { type: 'image', url: 'https://img.example/room.png', file: 'room.png' }], { nickname: '小王' })
        expect(quoted.stage, 'not addressed: not answered').to.not.equal('handled')
        expect(chat.chatRequests()).to.have.length(0)
        const res = await send('group', USER, [{ type: 'reply', id: quoted.id }, '他说几点？'], { at: true })
        expect(res.stage).to.equal('handled')
        const got = lastUser(chat.chatRequests().at(-1))
        expect(got.text).to.equal('[引用 小王 的消息: 明天下午三点开会，地点看图]\n他说几点？')
        expect(got.images).to.deep.equal(['https://img.example/room.png'])
      })

      it('ordinary chatter costs nothing: an unaddressed reply or voice message in a group is not read', async () => {
        await rt.config.update({ input: { transcription: { baseUrl: chat.url, apiKey: KEY, model: 'whisper-1' } } })
        const earlier = await send('group', OTHER, ['随便说说'])
        const lookups: string[] = []
        for (const message of [[{ type: 'reply', id: earlier.id }, '我同意'], [{ type: 'record', file: `base64://${VOICE.toString('base64')}` }]] as Array<Array<Seg | string>>) {
          const e = host.makeEvent({ kind: 'group', userId: USER, groupId: GROUP, message })
          const group = e.group as unknown as Record<string, (...a: unknown[]) => unknown>
          for (const name of ['getMsg', 'getForwardMsg', 'getChatHistory']) {
            const real = group[name]
            if (real) group[name] = (...a: unknown[]) => { lookups.push(name); return real(...a) }
          }
          if (e.getReply) { const real = e.getReply; e.getReply = async () => { lookups.push('getReply'); return await real() } }
          expect((await host.dispatch(e)).stage).to.not.equal('handled')
        }
        expect(lookups, 'no host lookups').to.deep.equal([])
        expect(chat.requests, 'no model or transcription request').to.have.length(0)
      })

      it('input.quoted false: the quoted message is not fetched', async () => {
        await rt.config.update({ input: { quoted: false } })
        await send('private', USER, ['第一句'])
        const botMsg = host.transcript.at(-1)
        await send('private', USER, [{ type: 'reply', id: botMsg?.message_id }, '第二句'])
        expect(lastUser(chat.chatRequests().at(-1)).text).to.equal('第二句')
      })

      it('a forwarded bundle reaches the model, bounded by input.forwardMaxMessages (N+1 messages give N)', async () => {
        await rt.config.update({ input: { forwardMaxMessages: 3 } })
        const nodes = [
          { user_id: 40001, nickname: '甲', message: '周末去爬山吗' },
          { user_id: 40002, nickname: '乙', message: ['好啊', { type: 'image', url: 'https://img.example/hill.png' }] },
          { user_id: 40003, nickname: '丙', message: [{ type: 'forward', id: 'inner-1' }] },
          { user_id: 40004, nickname: '丁', message: '第四条不该出现' }
        ]
        const res = await send('private', USER, [{ type: 'forward', id: `fw-${profile}-1`, nodes }])
        expect(res.stage).to.equal('handled')
        const got = lastUser(chat.chatRequests().at(-1))
        expect(got.text).to.equal('[转发的聊天记录，共 3 条]\n甲: 周末去爬山吗\n乙: 好啊\n丙: [聊天记录]')
        expect(got.text).to.not.include('第四条')
        expect(got.images).to.deep.equal(['https://img.example/hill.png'])
      })

      it('a forwarded bundle with a question, and forwardMaxMessages 0 (bundles ignored, the text still answered)', async () => {
        const nodes = [{ user_id: 40001, nickname: '甲', message: '结论是 42' }]
        await send('private', USER, [{ type: 'forward', id: `fw-${profile}-2`, nodes }, '总结一下'])
        expect(lastUser(chat.chatRequests().at(-1)).text).to.equal('[转发的聊天记录，共 1 条]\n甲: 结论是 42\n总结一下')
        await rt.config.update({ input: { forwardMaxMessages: 0 } })
        const before = chat.chatRequests().length
        const only = await send('private', OTHER, [{ type: 'forward', id: `fw-${profile}-3`, nodes }])
        expect(only.stage, 'nothing readable: passed on').to.not.equal('handled')
        expect(chat.chatRequests()).to.have.length(before)
        await send('private', OTHER, [{ type: 'forward', id: `fw-${profile}-4`, nodes }, '在吗'])
        expect(lastUser(chat.chatRequests().at(-1)).text).to.equal('在吗')
      })

      describe('images and a channel without vision', () => {
        beforeEach(async () => {
          await rt.config.update({
            channels: [
              { name: 'chat', baseUrl: chat.url, apiKey: 'sk-chat', model: 'gpt-chat', models: ['gpt-chat'], vision: false, priority: 10 },
              { name: 'eyes', baseUrl: eyes.url, apiKey: 'sk-eyes', model: 'gpt-eyes', models: ['gpt-eyes'], priority: 0 }
            ]
          })
        })

        it('an image sent to a vision:false channel reaches it as a caption; the caption channel receives the image', async () => {
          eyes.enqueue({ content: '一只橘猫趴在键盘上' })
          const res = await send('private', USER, [{ type: 'image', url: 'https://img.example/cat.png', file: 'cat.png' }])
          expect(res.stage).to.equal('handled')
          const asked = eyes.chatRequests()
          expect(asked).to.have.length(1)
          const seen = lastUser(asked[0])
          expect(seen.images).to.deep.equal(['https://img.example/cat.png'])
          expect(seen.text).to.include('描述这张图片')
          expect((asked[0]?.body as { max_tokens?: number }).max_tokens).to.equal(300)
          const got = lastUser(chat.chatRequests().at(-1))
          expect(got.raw, 'the text-only channel gets no image parts').to.be.a('string')
          expect(got.text).to.equal('[图片: 一只橘猫趴在键盘上]')
          expect(host.transcript.at(-1)?.text).to.include('一只橘猫趴在键盘上')
        })

        it('input.captionChannel and captionModel choose who describes; a failed caption leaves [图片] and the turn goes on', async () => {
          await rt.config.update({ input: { captionChannel: 'eyes', captionModel: 'gpt-eyes-mini' } })
          eyes.enqueue({ status: 400, errorMessage: 'no such model' })
          await send('private', USER, ['这是哪里？', { type: 'image', url: 'https://img.example/place.png' }])
          expect((eyes.chatRequests()[0]?.body as { model?: string }).model).to.equal('gpt-eyes-mini')
          expect(lastUser(chat.chatRequests().at(-1)).text).to.equal('这是哪里？\n[图片]')
          expect(rt.log.query({ level: 'warn', limit: 20 }).some((l) => l.message.includes('Could not describe an image'))).to.equal(true)
        })

        it('a channel with vision gets the image parts and nobody is asked for a caption', async () => {
          await rt.config.update({ channels: [{ name: 'chat', baseUrl: chat.url, apiKey: 'sk-chat', model: 'gpt-chat', models: ['gpt-chat'] }] })
          await send('private', USER, ['看图', { type: 'image', url: 'https://img.example/a.png' }])
          expect(eyes.chatRequests()).to.have.length(0)
          const got = lastUser(chat.chatRequests().at(-1))
          expect(got.text).to.equal('看图')
          expect(got.images).to.deep.equal(['https://img.example/a.png'])
        })
      })

      describe('voice messages', () => {
        const voiceSeg = (): Seg => ({ type: 'record', file: `base64://${VOICE.toString('base64')}` })

        it('transcription off: a voice message is not sent to the model and passed on', async () => {
          const before = host.transcript.length
          const res = await send('private', USER, [voiceSeg()])
          expect(res.stage).to.not.equal('handled')
          expect(chat.requests).to.have.length(0)
          expect(host.transcript.length).to.equal(before)
        })

        it('transcription on: the voice message is transcribed and answered', async () => {
          await rt.config.update({ input: { transcription: { baseUrl: chat.url, apiKey: KEY, model: 'whisper-test' } } })
          chat.enqueue({ content: '明天天气怎么样' })
          const res = await send('private', USER, [voiceSeg()])
          expect(res.stage).to.equal('handled')
          const tr = chat.requests.find((r) => r.path.endsWith('/audio/transcriptions'))
          expect(tr, 'the transcription endpoint was asked').to.not.equal(undefined)
          expect(tr?.headers.authorization).to.equal(`Bearer ${KEY}`)
          expect(tr?.body.model).to.equal('whisper-test')
          expect(tr?.body.file.size).to.equal(VOICE.length)
          expect(lastUser(chat.chatRequests().at(-1)).text).to.equal('明天天气怎么样')
          expect(host.transcript.at(-1)?.text).to.include('echo: 明天天气怎么样')
        })

        it('a voice file the host names by path is read (an audio file only)', async () => {
          await rt.config.update({ input: { transcription: { baseUrl: chat.url, apiKey: KEY, model: 'whisper-1' } } })
          const file = join(ph.dataDir, 'voice-in.amr')
          writeFileSync(file, VOICE)
          chat.enqueue({ content: '路径里的语音' })
          await send('private', USER, [{ type: 'record', file, path: file }])
          expect(lastUser(chat.chatRequests().at(-1)).text).to.equal('路径里的语音')
          // a path that is no audio file is never read
          const before = chat.requests.length
          await send('private', USER, [{ type: 'record', file: join(ph.dataDir, 'config.yaml') }])
          expect(chat.requests.length, 'nothing sent').to.equal(before)
          expect(host.transcript.at(-1)?.text).to.equal('语音没能识别出来，请再说一次或发文字。')
        })

        it('a user over the chat rate limit costs no transcription: the limit answers first', async () => {
          await rt.config.update({ chat: { userRateLimitPerMinute: 1 }, input: { transcription: { baseUrl: chat.url, apiKey: KEY, model: 'whisper-1' } } })
          try {
            chat.enqueue({ content: '第一条语音' })
            await send('private', '20031', [voiceSeg()])
            expect(host.transcript.at(-1)?.text).to.include('echo: 第一条语音')
            await send('private', '20031', [voiceSeg()])
            expect(host.transcript.at(-1)?.text).to.equal('你发消息太快了，请稍后再试。')
            expect(chat.requests.filter((r) => r.path.endsWith('/audio/transcriptions'))).to.have.length(1)
          } finally {
            await rt.config.update({ chat: { userRateLimitPerMinute: 20 } })
          }
        })

        it('a failed transcription is answered with a short notice and the model is not asked; the key is never shown or logged', async () => {
          await rt.config.update({ input: { transcription: { baseUrl: chat.url, apiKey: KEY, model: 'whisper-1' } } })
          chat.enqueue({ echoRequest: true, status: 401 })
          const res = await send('private', USER, [voiceSeg()])
          expect(res.stage).to.equal('handled')
          expect(chat.chatRequests()).to.have.length(0)
          expect(host.transcript.at(-1)?.text).to.equal('语音没能识别出来，请再说一次或发文字。')
          // the upstream echoed the key: neither the log (memory, host console, files) nor the config API shows it
          const warned = rt.log.query({ level: 'warn', limit: 50 }).filter((l) => l.message.includes('Voice message not transcribed'))
          expect(warned, 'the failure is logged').to.have.length.greaterThan(0)
          expect(JSON.stringify(rt.log.query({ limit: 500 }))).to.not.include(KEY)
          expect(host.logs.map((l) => l.text).join('\n')).to.not.include(KEY)
          await rt.log.flush()
          const web = rt.need('web').server
          expect(web, 'web server').to.not.equal(undefined)
          const { token } = rt.loginTokens.issue({ userId: '10001', isMaster: true })
          const login = await fetch(`${web?.localUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
          const session = ((await login.json()) as { data: { token: string } }).data.token
          for (const path of ['/api/config', '/api/config/input', '/api/logs?limit=500']) {
            const res = await fetch(`${web?.localUrl}${path}`, { headers: { Authorization: `Bearer ${session}` } })
            const text = await res.text()
            expect(res.status, path).to.equal(200)
            expect(text, path).to.not.include(KEY)
          }
          const cfg = await fetch(`${web?.localUrl}/api/config/input`, { headers: { Authorization: `Bearer ${session}` } })
          expect(JSON.stringify(await cfg.json())).to.include('sk-****cdef')
          expect(filesText(join(ph.dataDir, 'logs'))).to.not.include(KEY)
        })
      })
    })
  }
})
