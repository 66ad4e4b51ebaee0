// End-to-end in Debian's chromium: the voice replies page (issue 19, text to speech) edits the tts settings
// (the key shown masked, a masked key kept), one group's override and a preset's voice fields, each read
// back through the HTTP API; a new preset's template carries the voice fields. Screenshot: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const GROUP = '20260001'
const KEY = 'sk-dashboard-speech-0123456789'

describe('dashboard: voice replies (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    await s.lx.rt.config.update({ tts: { apiKey: KEY } })
    await s.lx.rt.need('presets').create('narrator', { name: '旁白', systemPrompt: '你是旁白' })
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { viewport: { width: 1280, height: 900 } }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  const saveAndWait = async (button: string, url: RegExp): Promise<number> => {
    const [res] = await Promise.all([page.waitForResponse((r) => url.test(r.url()) && r.request().method() === 'PUT'), page.click(button)])
    return res.status()
  }
  const form = '[data-testid="tts-form"]'

  it('opens from the menu with labelled, helped fields, no raw keys, and the key masked', async () => {
    await goTo(page, 'voice')
    await page.waitForSelector(`${form} select[name="tts.mode"]`)
    expect(await page.textContent('nav a[data-page="voice"]')).to.equal('语音回复')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('何时说话').and.include('预设的声音')
    expect(text).to.not.match(/\bb[sv]\.|\btts\.\w/)
    const options = await page.$$eval(`${form} select[name="tts.mode"] option`, (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]))
    expect(options).to.deep.equal([['off', '关闭'], ['request', '按需'], ['always', '总是（短回答）']])
    expect(await page.inputValue(`${form} input[name="tts.apiKey"]`)).to.equal('sk-****6789')
    expect(await page.content()).to.not.include(KEY)
    const helpless = await page.$$eval(`${form} .field`, (fs) => fs.filter((f) => !f.querySelector('small.help')?.textContent?.trim()).map((f) => f.textContent))
    expect(helpless).to.deep.equal([])
  })

  it('saves the speech settings; the masked key keeps the stored one', async () => {
    await page.selectOption(`${form} select[name="tts.mode"]`, 'always')
    await page.fill(`${form} input[name="tts.baseUrl"]`, 'http://127.0.0.1:9/v1')
    await page.fill(`${form} input[name="tts.voice"]`, 'nova')
    await page.fill(`${form} input[name="tts.maxChars"]`, '60')
    await page.selectOption(`${form} select[name="tts.format"]`, 'wav')
    expect(await saveAndWait('[data-testid="tts-form-save"]', /\/api\/config\/tts$/)).to.equal(200)
    const tts = s.lx.rt.config.get().tts
    expect(tts).to.include({ mode: 'always', baseUrl: 'http://127.0.0.1:9/v1', voice: 'nova', maxChars: 60, format: 'wav', apiKey: KEY })
    const shown = (await s.api('/api/config/tts')).body.data
    expect(shown.apiKey).to.equal('sk-****6789')
  })

  it('sets a group\'s voice override, inheriting the rest', async () => {
    await page.fill('[data-testid="tts-gid"]', GROUP)
    await page.click('[data-testid="tts-gopen"]')
    const g = '[data-testid="tts-gform"]'
    await page.waitForSelector(`${g} select[name="tts.mode"]`)
    expect(await page.getAttribute(`${g} input[name="tts.maxChars"]`, 'placeholder')).to.equal('继承全局：60')
    await page.selectOption(`${g} select[name="tts.mode"]`, 'off')
    await page.check(`${g} input[name="tts.voice:set"]`)
    await page.fill(`${g} input[name="tts.voice"]`, 'onyx')
    expect(await saveAndWait('[data-testid="tts-gform-save"]', new RegExp(`/api/config/groups/${GROUP}$`))).to.equal(200)
    const v = (await s.api(`/api/config/groups/${GROUP}`)).body.data
    expect(v.overrides.tts).to.deep.equal({ mode: 'off', voice: 'onyx' })
  })

  it('edits a preset\'s voice fields (built-ins are read-only) and a new preset\'s template has them', async () => {
    const card = '[data-testid="pv-narrator"]'
    await page.waitForSelector(card)
    expect(await page.isDisabled('[data-testid="pv-default"] input[name="voiceId"]')).to.equal(true)
    await page.check(`${card} input[name="enabled"]`)
    await page.fill(`${card} input[name="voiceId"]`, 'fable')
    await page.fill(`${card} input[name="speed"]`, '1.5')
    expect(await saveAndWait('[data-testid="pv-narrator-save"]', /\/api\/presets\/narrator$/)).to.equal(200)
    expect(s.lx.rt.need('presets').get('narrator').voice).to.deep.equal({ enabled: true, voiceId: 'fable', speed: 1.5 })
    await page.screenshot({ path: join(SHOTS, 'voice.png'), fullPage: true })
    // in English too, without raw keys
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('[data-testid="tts-card"] h2')).to.equal('Speech')
    const en = await page.textContent('main') ?? ''
    expect(en).to.include('When to speak').and.include('Preset voices').and.include('Inherit: always (short answers)')
    expect(en).to.not.match(/\bb[sv]\.|\btts\.\w/)
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('[data-testid="tts-card"] h2')).to.equal('语音合成')
    await goTo(page, 'presets')
    await page.click('[data-testid="preset-add"]')
    // a new preset's voice part starts off, with no voice and the normal speed
    expect(await page.isChecked('[data-testid="pe-voice-enabled"]')).to.equal(false)
    expect(await page.inputValue('[data-testid="pe-voiceId"]')).to.equal('')
    expect(await page.inputValue('[data-testid="pe-speed"]')).to.equal('1')
    expect(pageErrors).to.deep.equal([])
  })
})
