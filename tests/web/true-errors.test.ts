// With the model down, every place says what is true: a listed channel that cannot be reached is named with
// the reason (the chat API, its stream, the channel test, the bot's reply in QQ, the dashboard in both
// languages); only when there is no channel at all is the owner asked to add one. The "model down" is a
// fake model's port after it closed: nothing listens there.
import { expect } from 'chai'
import { t } from '../../lib/i18n.js'
import type { Running } from '../../lib/lifecycle.js'
import { addChannel, readSse } from '../channels/helpers.js'
import { startFakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { launch, openDashboard, goTo, prepare } from '../dashboard/browser.js'

const NO_CHANNEL = /^(No available channels|No model channel is available)$/

/** A base URL where nothing answers: a fake model's, after it closed. */
async function deadUrl (): Promise<string> {
  const fake = await startFakeOpenAI()
  const url = fake.url
  await fake.close()
  return url
}

describe('true errors with the model down', function () {
  this.timeout(120_000)
  let s: TestServer
  let down = ''
  before(async () => {
    down = await deadUrl()
    s = await startTestServer()
  })
  after(async () => { await s?.close() })

  const chat = (): ReturnType<TestServer['api']> => s.api('/api/chat', { method: 'POST', json: { message: 'hello' } })
  async function streamError (): Promise<{ code: string; message: string }> {
    const res = await fetch(`${s.base}/api/chat/stream`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'hello' }) })
    const frames = await readSse(res)
    const err = frames.map((f) => f.data).find((d) => d?.type === 'error')
    expect(err, JSON.stringify(frames)).to.be.an('object')
    return err
  }

  it('without any channel: the API says there is none (the one case where adding one is the answer)', async () => {
    const r = await chat()
    expect(r.status).to.equal(503)
    expect(r.body.code).to.equal('CHANNEL_UNAVAILABLE')
    expect(r.body.message).to.match(NO_CHANNEL)
    expect((await streamError()).message).to.match(NO_CHANNEL)
  })

  it('with a listed channel that is down: chat, its stream and the channel test name it and the reason', async () => {
    await addChannel(s, { name: 'down', baseUrl: down, apiKey: 'sk-test', model: 'gpt-test' })
    for (let i = 0; i < 3; i++) { // also once the channel's health says "error" and it waits for its retry
      const r = await chat()
      expect(r.status, r.text).to.equal(503)
      expect(r.body.code).to.equal('CHANNEL_UNAVAILABLE')
      expect(r.body.message).to.match(/^Channel down: Channel unreachable: .+/).and.not.match(NO_CHANNEL)
    }
    const frame = await streamError()
    expect(frame.code).to.equal('CHANNEL_UNAVAILABLE')
    expect(frame.message).to.match(/^Channel down: Channel unreachable: /)
    const test = await s.api('/api/config/channels/down/test', { method: 'POST', json: {} })
    expect(test.status).to.equal(503)
    expect(test.body.message).to.match(/^Channel down: Channel unreachable: /)
    const list = await s.api('/api/config/channels')
    expect(list.body.data[0]).to.include({ name: 'down', status: 'error' })
  })

  describe('in the dashboard (chromium)', () => {
    before(async function () { await prepare(this) })

    for (const lang of ['zh', 'en'] as const) {
      it(`says the channel could not be reached on the chat page and at the channel test, never "add one" (${lang})`, async () => {
        const browser = await launch()
        try {
          const { page, pageErrors } = await openDashboard(browser, s)
          await page.evaluate((l) => { localStorage.setItem('lingxi.lang', l) }, lang)
          await page.reload()
          const reached = lang === 'zh' ? '无法连接渠道“down”：' : 'The channel “down” could not be reached: '
          const addOne = lang === 'zh' ? /没有可用的模型渠道|添加一个/ : /No model channel|add one/i
          await goTo(page, 'chat')
          await page.waitForFunction(() => (document.querySelector('[data-testid="chat-channel"] option') as HTMLOptionElement | null)?.textContent?.includes('down'))
          await page.fill('[data-testid="chat-input"]', 'hello')
          await page.click('[data-testid="chat-send"]')
          const alert = page.locator('[data-testid="chat-msg"] [role="alert"]').first()
          await alert.waitFor()
          const said = await alert.textContent() ?? ''
          expect(said).to.include(reached).and.not.match(addOne)
          expect(await page.locator('main').textContent()).to.not.match(addOne)
          await goTo(page, 'channels')
          await page.click('[data-testid="test-down"]')
          const toast = page.getByText(reached).first()
          await toast.waitFor()
          expect(await page.locator('body').textContent()).to.not.match(addOne)
          expect(pageErrors).to.deep.equal([])
        } finally {
          await browser.close()
        }
      })
    }
  })
})

describe('true errors with the model down: the bot in QQ', function () {
  this.timeout(60_000)
  let ph: PluginHost
  let run: Running
  before(async () => {
    ph = await startPluginHost('trss', 'lingxi-true-errors-')
    run = ph.run
    await run.rt.config.update({ trigger: { private: 'always' } } as never)
  })
  after(async () => { await ph?.stop() })

  async function reply (): Promise<string> {
    const since = ph.host.transcript.length
    await ph.host.sendPrivate(MASTER, 'hello')
    return ph.host.transcript.slice(since).map((e) => e.text).filter(Boolean).join('\n')
  }

  it('asks for a channel only when there is none; a listed one that is down gets "cannot be used right now"', async () => {
    expect(await reply()).to.equal(t('zh-CN', 'chat.noChannel'))
    await run.rt.config.update({ channels: [{ name: 'down', baseUrl: await deadUrl(), apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }] } as never)
    const said = await reply()
    expect(said).to.equal(t('zh-CN', 'chat.channelDown'))
    expect(said).to.not.equal(t('zh-CN', 'chat.noChannel'))
  })
})
