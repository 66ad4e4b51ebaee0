// The drawing command (and the preset switch command) through the standalone host, with the real
// plugin and the fake model server's images API.
import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Running } from '../../lib/lifecycle.js'
import type { Host } from '../../standalone/host.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
const images = (fake: FakeOpenAI): Array<{ prompt: string; n: number; model: string }> =>
  fake.requests.filter((r) => r.path.endsWith('/images/generations')).map((r) => r.body as { prompt: string; n: number; model: string })
interface EditRequest { prompt: string; n: string; model: string; image: { name: string; type: string; size: number; head: string } }
const edits = (fake: FakeOpenAI): EditRequest[] => fake.requests.filter((r) => r.path.endsWith('/images/edits')).map((r) => r.body as EditRequest)

// A tiny PNG (signature + IHDR) served like a chat image on the QQ CDN.
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex')])

describe('drawing and preset commands through the standalone host', function () {
  this.timeout(60_000)
  let host: Host
  let fake: FakeOpenAI
  let ph: PluginHost
  let run: Running
  let cdn: Server
  let cdnUrl = ''

  before(async () => {
    cdn = createServer((req, res) => {
      if (req.url === '/cat.png') { res.writeHead(200, { 'Content-Type': 'application/octet-stream' }); res.end(PNG) } else res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve))
    cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`
    fake = await startFakeOpenAI()
    ph = await startPluginHost('trss', 'lingxi-draw-')
    host = ph.host
    run = ph.run
    // the image server is on 127.0.0.1, which the outbound fetcher refuses unless the master names it
    await run.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
    await run.rt.need('channels').service.create({ name: 'img', baseUrl: fake.url, apiKey: 'sk-test-1234', model: 'gpt-4o-mini', image: { enabled: true, model: 'dall-e-3' } })
  })
  after(async () => {
    await ph?.stop()
    await fake?.close()
    await new Promise<void>((resolve) => cdn ? cdn.close(() => resolve()) : resolve())
  })

  it('does nothing while drawing is disabled', async () => {
    const r = await host.sendPrivate('20002', '画图 一只橘猫')
    // Passed on (the chat handler may answer it), never drawn.
    expect(r.fnc).to.not.equal('draw')
    expect(images(fake)).to.have.length(0)
  })

  it('draws a keyword message and sends the image (maxImages)', async () => {
    await run.rt.config.update({ image: { enabled: true, maxImages: 2, sendMode: 'direct' } })
    const since = host.transcript.length
    const r = await host.sendPrivate('20002', '画图 一只橘猫')
    expect(r.stage).to.equal('handled')
    const sent = await host.waitForSend((e) => e.message.some((s) => s.type === 'image'), since)
    expect(sent.message.filter((s) => s.type === 'image')).to.have.length(2)
    const req = images(fake).at(-1)
    expect(req).to.include({ prompt: '一只橘猫', n: 2, model: 'dall-e-3' })
  })

  it('a needImage preset asks for an image, then draws with one', async () => {
    await run.rt.config.update({ image: { maxImages: 1 } })
    const before = images(fake).length
    await host.sendPrivate('20002', '手办化')
    expect(host.transcript.at(-1)?.text).to.include('图片')
    expect(images(fake).length).to.equal(before)
    const since = host.transcript.length
    await host.sendPrivate('20002', [{ type: 'text', text: '手办化' }, { type: 'image', url: `${cdnUrl}/cat.png` }])
    await host.waitForSend((e) => e.message.some((s) => s.type === 'image'), since)
    // the user's image went to the images edit API with the preset's prompt, typed from its bytes
    const edit = edits(fake).at(-1)
    expect(edit?.prompt).to.include('figure')
    expect(edit?.image).to.include({ type: 'image/png', size: PNG.length, head: '89504e470d0a1a0a' })
    expect(images(fake).length).to.equal(before)
  })

  it('an image that cannot be downloaded is answered, not drawn without it', async () => {
    const before = edits(fake).length
    await host.sendPrivate('20002', [{ type: 'text', text: '手办化' }, { type: 'image', url: `${cdnUrl}/missing.png` }])
    expect(host.transcript.at(-1)?.text).to.include('绘图失败')
    expect(edits(fake).length).to.equal(before)
  })

  it('draws through the image API entries in order, the next when one fails, skipping disabled ones', async () => {
    const second = await startFakeOpenAI()
    try {
      await run.rt.config.update({
        image: {
          apis: [
            { name: 'off', baseUrl: second.url, apiKey: 'sk-off', enabled: false },
            { name: 'dead one', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-dead' },
            { name: 'second', baseUrl: second.url, apiKey: 'sk-second-5678', models: ['gpt-image-1'] }
          ]
        }
      })
      const channelBefore = images(fake).length
      const since = host.transcript.length
      await host.sendPrivate('20002', '画图 灯塔')
      await host.waitForSend((e) => e.message.some((s) => s.type === 'image'), since)
      const got = second.requests.filter((r) => r.path.endsWith('/images/generations'))
      expect(got).to.have.length(1) // the disabled entry was not asked
      expect(got[0]?.body).to.include({ prompt: '灯塔', model: 'gpt-image-1' })
      expect(got[0]?.headers.authorization).to.equal('Bearer sk-second-5678')
      expect(images(fake).length, 'the channel is not used while entries exist').to.equal(channelBefore)
      const stats = run.rt.stats.channels()
      expect(stats.find((c) => c.name === 'image-api-second')).to.include({ requests: 1, errors: 0 })
      expect(stats.find((c) => c.name === 'image-api-dead-one')).to.include({ requests: 1, errors: 1 }) // tried first, failed over
    } finally {
      await run.rt.config.update({ image: { apis: [] } })
      await second.close()
    }
  })

  it('a model error or timeout is answered, not thrown', async () => {
    fake.enqueue({ status: 500 })
    await host.sendPrivate('20002', '画图 坏掉')
    expect(host.transcript.at(-1)?.text).to.include('绘图失败')
    await run.rt.config.update({ image: { timeout: 1000 } })
    fake.enqueue({ delayMs: 1500 })
    await host.sendPrivate('20002', '画图 慢')
    expect(host.transcript.at(-1)?.text).to.include('超时')
    await run.rt.config.update({ image: { timeout: 120000 } })
  })

  it('sendMode url sends links when the model returns URLs, images otherwise', async () => {
    await run.rt.config.update({ image: { sendMode: 'url' } })
    // The fake returns base64 images: those cannot be links, so they are sent as images.
    let since = host.transcript.length
    await host.sendPrivate('20002', '画图 星空')
    await host.waitForSend((e) => e.message.some((s) => s.type === 'image'), since)
    const models = run.rt.need('models')
    const original = models.generateImages
    models.generateImages = async () => ['https://img.example/1.png']
    try {
      since = host.transcript.length
      await host.sendPrivate('20002', '画图 星空')
      const sent = await host.waitForSend(() => true, since)
      expect(sent.text).to.include('https://img.example/1.png')
      expect(sent.message.some((s) => s.type === 'image')).to.equal(false)
    } finally {
      models.generateImages = original
      await run.rt.config.update({ image: { sendMode: 'direct' } })
    }
  })

  it('sendMode forward sends several images as one forward message', async () => {
    await run.rt.config.update({ image: { sendMode: 'forward', maxImages: 2 } })
    try {
      const since = host.transcript.length
      await host.sendGroup('800', '20002', '画图 两只猫')
      const sent = await host.waitForSend(() => true, since)
      expect(sent.message.map((s) => s.type)).to.not.include('image')
      expect(host.transcript.length - since).to.equal(1)
      expect(images(fake).at(-1)?.n).to.equal(2)
    } finally {
      await run.rt.config.update({ image: { sendMode: 'direct', maxImages: 1 } })
    }
  })

  it('switches presets per user with #lx切换人设 and lists them', async () => {
    await host.sendPrivate('20002', '#lx人设列表')
    expect(host.transcript.at(-1)?.text).to.include('coder')
    await host.sendPrivate('20002', '#lx切换人设 coder')
    expect(host.transcript.at(-1)?.text).to.include('只有主人')
    await run.rt.config.update({ presets: { perUserPreset: true } })
    await host.sendPrivate('20002', '#lx切换人设 代码助手')
    expect(host.transcript.at(-1)?.text).to.include('代码助手')
    expect(run.rt.need('presets').userChoice('20002')).to.equal('coder')
    await host.sendPrivate('20002', '#lx当前人设')
    expect(host.transcript.at(-1)?.text).to.include('coder')
    await host.sendPrivate('20002', '#lx切换人设 nope')
    expect(host.transcript.at(-1)?.text).to.include('没有找到')
    await run.rt.config.update({ presets: { allowUserSwitch: false } })
    await host.sendPrivate('20002', '#lx切换人设 default')
    expect(host.transcript.at(-1)?.text).to.include('关闭')
    expect(run.rt.need('presets').userChoice('20002')).to.equal('coder')
  })

  it('switches a group\'s preset (perGroupPreset) only for admins, owners and masters', async () => {
    await run.rt.config.update({ presets: { allowUserSwitch: true, perUserPreset: false, perGroupPreset: true } })
    await host.sendGroup('900', '20002', '#lx切换人设 translator', { role: 'member' })
    expect(host.transcript.at(-1)?.text).to.include('只有群主')
    expect(run.rt.need('presets').groupChoice('900')).to.equal(undefined)
    await host.sendGroup('900', '20002', '#lx切换人设 translator', { role: 'admin' })
    expect(run.rt.need('presets').groupChoice('900')).to.equal('translator')
    const resolved = await run.rt.chat.presets!.resolve({ userId: '20003', groupId: '900', isMaster: false, via: 'bot', conversationId: 'group:900:20003' })
    expect(resolved.id).to.equal('translator')
  })
})
