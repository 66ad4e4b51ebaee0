// draw_image (lib/tools/builtin/draw.ts): the drawing domain as a tool the model calls, through the
// standalone host in both profiles with the fake model's images API (as tests/drawing/command.test.ts):
// the drawn image goes out as an image segment with the answer, with the drawing config's size, preset
// and image API entries; drawing off (the tool is not offered), a failing API and approvalMode manual
// (medium risk) answer the model instead; the tool is listed in the tool routes under category media.
import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Runtime } from '../../lib/runtime.js'
import type { TranscriptEntry } from '../../standalone/types.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { PROFILES } from '../host/helpers.js'

/** what the fake images API answers for each image (b64_json of 'fake-png') */
const FAKE_IMAGE = `base64://${Buffer.from('fake-png').toString('base64')}`
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex')])

const images = (fake: FakeOpenAI): Array<{ prompt: string; n: number; model: string; size?: string }> =>
  fake.requests.filter((r) => r.path.endsWith('/images/generations')).map((r) => r.body as { prompt: string; n: number; model: string; size?: string })
const toolResult = (fake: FakeOpenAI): string =>
  ((fake.chatRequests()[1]?.body.messages ?? []) as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')?.content ?? ''

describe('draw_image: drawing as a tool (standalone host)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let cdn: Server
  let cdnUrl = ''
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    cdn = createServer((req, res) => {
      if (req.url === '/drawn.png') { res.writeHead(200, { 'Content-Type': 'image/png' }); res.end(PNG) } else res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve))
    cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`
  })
  after(async () => {
    await fake?.close()
    await new Promise<void>((resolve) => cdn ? cdn.close(() => resolve()) : resolve())
  })

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let ph: PluginHost
      let rt: Runtime
      let user = 73000
      const nextUser = (): string => String(++user)
      const sentTo = (id: string, since: number): TranscriptEntry[] => ph.host.transcript.slice(since).filter((e) => e.targetId === id)

      before(async () => {
        ph = await startPluginHost(profile, 'lingxi-drawtool-')
        rt = ph.run.rt
      })
      after(async () => { await ph?.stop() })
      beforeEach(async () => {
        fake.reset()
        await rt.config.update({
          channels: [{ name: 'chat', baseUrl: fake.url, apiKey: 'sk-chat', model: 'gpt-test', models: ['gpt-test'], image: { enabled: true, model: 'dall-e-3' } }],
          trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 },
          memory: { enabled: false },
          image: { enabled: true, maxImages: 1, sendMode: 'direct', apis: [], timeout: 120000 },
          tools: { approvalMode: 'auto' },
          // the image link server is on 127.0.0.1, which the outbound fetcher refuses unless the master names it
          web: { allowPrivateHosts: ['127.0.0.1'] }
        })
      })

      it('the model draws: the image goes out as an image segment with the answer', async () => {
        fake.enqueue({ toolCalls: [{ name: 'draw_image', arguments: { prompt: '一只橘猫在月亮上', size: '512x512' } }] }, {}, { content: '画好了，请看' }) // {}: the images request takes a queued behaviour too
        const id = nextUser()
        const since = ph.host.transcript.length
        expect((await ph.host.sendPrivate(id, '帮我画一只在月亮上的橘猫')).stage).to.equal('handled')
        const sent = sentTo(id, since)
        expect(sent).to.have.length(1)
        expect(sent[0]?.message.filter((s) => s.type === 'image').map((s) => s.file)).to.deep.equal([FAKE_IMAGE])
        expect(sent[0]?.message.filter((s) => s.type === 'text').map((s) => s.text).join('')).to.equal('画好了，请看')
        expect(images(fake)).to.deep.equal([{ prompt: '一只橘猫在月亮上', n: 1, model: 'dall-e-3', size: '512x512' }])
        expect(toolResult(fake)).to.include('sent to the user with your answer').and.include('Drew 1 image(s)')
      })

      it('in a group, with a drawing preset and through the image API entries (the first failing, the next drawing)', async () => {
        const second = await startFakeOpenAI()
        try {
          await rt.config.update({ image: { apis: [{ name: 'dead', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-dead' }, { name: 'second', baseUrl: second.url, apiKey: 'sk-second', models: ['gpt-image-1'] }] } })
          const preset = await rt.need('drawing').addCustom({ keywords: ['水彩'], needImage: false, prompt: '水彩画风格：{{input}}', name: 'watercolor' })
          fake.enqueue({ toolCalls: [{ name: 'draw_image', arguments: { prompt: '灯塔', preset: '水彩' } }] }, { content: '水彩灯塔' })
          const since = ph.host.transcript.length
          await ph.host.sendGroup('74001', nextUser(), '画个水彩灯塔', { at: true })
          const sent = sentTo('74001', since)
          expect(sent.flatMap((e) => e.message.filter((s) => s.type === 'image').map((s) => s.file))).to.deep.equal([FAKE_IMAGE])
          const got = second.requests.filter((r) => r.path.endsWith('/images/generations')).map((r) => r.body as Record<string, unknown>)
          expect(got).to.have.length(1)
          expect(got[0]).to.include({ prompt: '水彩画风格：灯塔', model: 'gpt-image-1' })
          expect(images(fake), 'the channel is not used while entries exist').to.have.length(0)
          await rt.need('drawing').removeCustom(preset.uid)
        } finally {
          await second.close()
        }
      })

      it('an image the API gives as a link is fetched and sent as the image itself', async () => {
        const models = rt.need('models')
        const original = models.generateImages
        models.generateImages = async () => [`${cdnUrl}/drawn.png`]
        try {
          fake.enqueue({ toolCalls: [{ name: 'draw_image', arguments: { prompt: '星空' } }] }, { content: '星空来了' })
          const id = nextUser()
          const since = ph.host.transcript.length
          await ph.host.sendPrivate(id, '画星空')
          const sent = sentTo(id, since)
          expect(sent.flatMap((e) => e.message.filter((s) => s.type === 'image').map((s) => s.file))).to.deep.equal([`base64://${PNG.toString('base64')}`])
          expect(toolResult(fake)).to.include('[image image/png')
        } finally {
          models.generateImages = original
        }
      })

      it('drawing off or a failing images API: the model is told, no image goes out', async () => {
        // drawing off: the tool is not offered, and a model naming it anyway is refused
        await rt.config.update({ image: { enabled: false } })
        fake.enqueue({ toolCalls: [{ name: 'draw_image', arguments: { prompt: '猫' } }] }, { content: '现在画不了' })
        let id = nextUser()
        let since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '画猫')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['现在画不了'])
        expect(fake.offeredTools(0)).to.include('get_current_time').and.not.include('draw_image')
        expect(toolResult(fake)).to.include('draw_image does not exist or is not available')
        expect(images(fake)).to.have.length(0)

        fake.reset()
        await rt.config.update({ image: { enabled: true } })
        fake.enqueue({ toolCalls: [{ name: 'draw_image', arguments: { prompt: '狗' } }] }, { status: 500 }, { content: '画失败了' }) // the 500 is the images request's
        id = nextUser()
        since = ph.host.transcript.length
        await ph.host.sendPrivate(id, '画狗')
        expect(sentTo(id, since).map((e) => e.text)).to.deep.equal(['画失败了'])
        expect(fake.offeredTools(0)).to.include('draw_image')
        expect(toolResult(fake)).to.include('Error: Drawing failed')
      })

      it('medium risk: under approvalMode manual a member\'s call in a group waits for the master\'s #lx同意, then draws', async () => {
        await rt.config.update({ tools: { approvalMode: 'manual' } })
        const tool = rt.need('tools').registry.get('draw_image')
        expect(tool).to.include({ category: 'media', risk: 'medium', dangerous: false, source: 'builtin' })
        fake.enqueue({ toolCalls: [{ name: 'draw_image', arguments: { prompt: '猫' } }] }, {}, { content: '批准后画好了' })
        const group = '74002'
        const since = ph.host.transcript.length
        const turn = ph.host.sendGroup(group, nextUser(), '画猫', { at: true })
        const asked = await ph.host.waitForSend((e) => e.targetId === group && e.text.includes('需要主人批准'), since)
        expect(asked.text).to.include('draw_image')
        expect(images(fake), 'nothing drawn before the approval').to.have.length(0)
        const approvalId = /同意 (\d+)/.exec(asked.text)?.[1]
        await ph.host.sendGroup(group, '10001', `#lx同意 ${approvalId ?? ''}`)
        await turn
        expect(images(fake)).to.have.length(1)
        const answer = sentTo(group, since).find((e) => e.message.some((s) => s.type === 'image'))
        expect(answer?.text).to.include('批准后画好了')
      })

      it('is listed by the tool routes under category media', async () => {
        const web = rt.need('web').server
        const { token } = rt.loginTokens.issue({ userId: '10001', isMaster: true })
        const login = await fetch(`${web?.localUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
        const session = ((await login.json()) as { data: { token: string } }).data.token
        const res = await fetch(`${web?.localUrl}/api/tools`, { headers: { Authorization: `Bearer ${session}` } })
        const body = JSON.stringify(await res.json())
        expect(res.status).to.equal(200)
        expect(body).to.include('draw_image').and.include('"media"')
        expect(body).to.include('"speak"')
        // the skills listing's categories and the built-in categories count the media tools
        const get = async (path: string): Promise<unknown> => ((await (await fetch(`${web?.localUrl}${path}`, { headers: { Authorization: `Bearer ${session}` } })).json()) as { data: unknown }).data
        const skillsCats = await get('/api/skills/categories') as Array<{ key: string; toolCount: number; enabled: boolean }>
        expect(skillsCats.find((c) => c.key === 'media')).to.include({ toolCount: 2, enabled: true })
        expect(JSON.stringify(await get('/api/tools/builtin/categories'))).to.include('media')
      })
    })
  }
})
