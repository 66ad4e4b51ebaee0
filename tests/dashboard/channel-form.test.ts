// End-to-end in Debian's chromium (issue 21): the complete channel form. A new channel against the fake
// model server: the provider's model list fetched before saving, the default model chosen from it, the
// advanced settings (image, templates, timeouts, cooldown), saved and read back through GET
// /api/channels; the save refused without a default model and with a broken JSON template; editing keeps
// the masked key. Screenshots: screenshots/channel-form*.png.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const KEY = 'sk-form-secret-77889900'

describe('dashboard: the channel form (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  const form = '[data-testid="channel-form"]'

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-4o', 'gpt-4o-mini', 'deepseek-chat'], validKeys: [KEY] })
    s = await startTestServer()
    await s.login()
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true })) // axe is injected inline
    await goTo(page, 'channels')
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const channel = async (name: string): Promise<Record<string, any> | undefined> =>
    (await s.api('/api/config/channels')).body.data.find((c: { name: string }) => c.name === name)

  it('refuses to save without a default model, naming the field, and sends nothing', async () => {
    await page.click('[data-testid="channel-add"]')
    await page.fill(`${form} input[name=name]`, 'nomodel')
    await page.fill(`${form} input[name=baseUrl]`, fake.url)
    await page.fill(`${form} input[name=apiKey]`, KEY)
    let posted = false
    const watch = (r: { url(): string, method(): string }): void => { if (r.url().endsWith('/api/config/channels') && r.method() === 'POST') posted = true }
    page.on('request', watch)
    await page.click('[data-testid="channel-save"]')
    await page.waitForSelector('[data-testid="ch-model-error"]')
    expect(await page.textContent('[data-testid="ch-model-error"]')).to.include('默认模型')
    expect(await page.getAttribute(`${form} input[name=model]`, 'aria-invalid')).to.equal('true')
    page.off('request', watch)
    expect(posted).to.equal(false)
    expect(await channel('nomodel')).to.equal(undefined)
    // the server refuses it too
    const direct = await s.api('/api/config/channels', { method: 'POST', json: { name: 'nomodel', baseUrl: fake.url } })
    expect(direct.status).to.equal(400)
  })

  it('fetches the model list before saving, chooses the default from it and saves every setting', async () => {
    const before = fake.requests.length
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/config/channels/models') && r.request().method() === 'POST'),
      page.click('[data-testid="channel-fetch-models"]')
    ])
    await page.waitForSelector('[data-testid="channel-fetched"] button[data-model="deepseek-chat"]')
    const asked = fake.requests.slice(before).find((r) => r.path.endsWith('/models'))
    expect(asked?.headers.authorization).to.equal(`Bearer ${KEY}`) // the typed, unsaved key
    expect(await channel('nomodel')).to.equal(undefined) // fetching saved nothing
    expect(await page.content()).to.not.include(KEY.slice(3)) // only in the password field's value, never as text
    // "add all" fills the empty default with the first fetched model; a click chooses another
    await page.click('[data-testid="channel-use-fetched"]')
    expect(await page.inputValue(`${form} input[name=model]`)).to.equal('deepseek-chat')
    expect(await page.inputValue(`${form} input[name=models]`)).to.equal('deepseek-chat, gpt-4o, gpt-4o-mini')
    await page.click('[data-testid="channel-fetched"] button[data-model="gpt-4o-mini"]')
    expect(await page.inputValue(`${form} input[name=model]`)).to.equal('gpt-4o-mini')
    expect(await page.getAttribute('[data-testid="channel-fetched"] button[data-model="gpt-4o-mini"]', 'aria-pressed')).to.equal('true')

    await page.check(`${form} input[name=imageEnabled]`)
    await page.fill(`${form} input[name=imageModel]`, 'dall-e-3')
    await page.uncheck(`${form} input[name=vision]`)
    await page.fill(`${form} input[name=customPath]`, '/chat/completions')
    // a broken JSON template is shown at once and stops the save
    await page.fill(`${form} textarea[name=headersTemplate]`, '{"X-Team": ')
    await page.waitForSelector('[data-testid="ch-headersTemplate-error"]')
    await page.click('[data-testid="channel-save"]')
    // the form with the fetched models and a refused field passes axe
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    expect(await channel('nomodel')).to.equal(undefined)
    await page.fill(`${form} textarea[name=headersTemplate]`, '{"X-Team": "lingxi"}')
    await page.waitForSelector('[data-testid="ch-headersTemplate-error"]', { state: 'detached' })
    await page.fill(`${form} textarea[name=bodyTemplate]`, '{"user": "{{userId}}"}')
    await page.fill(`${form} input[name=timeoutMs]`, '45000')
    await page.fill(`${form} input[name=idleTimeoutMs]`, '20000')
    await page.fill(`${form} input[name=keyCooldownMs]`, '5000')
    await page.fill(`${form} input[name=monthlyBudget]`, '12.5')
    await page.screenshot({ path: join(SHOTS, 'channel-form.png'), fullPage: true })
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/config/channels') && r.request().method() === 'POST'),
      page.click('[data-testid="channel-save"]')
    ])
    expect(res.status()).to.equal(200)
    await page.waitForSelector('td >> text=nomodel')
    const ch = await channel('nomodel')
    expect(ch).to.include({ baseUrl: fake.url, model: 'gpt-4o-mini', vision: false, customPath: '/chat/completions', timeoutMs: 45000, idleTimeoutMs: 20000, keyCooldownMs: 5000, monthlyBudget: 12.5, status: 'active' })
    expect(ch!.models).to.deep.equal(['deepseek-chat', 'gpt-4o', 'gpt-4o-mini'])
    expect(ch!.image).to.deep.equal({ enabled: true, model: 'dall-e-3' })
    expect(Object.keys(ch!.headersTemplate)).to.deep.equal(['X-Team']) // header values are answered masked (they may hold keys)
    expect(s.lx.rt.need('channels').service.get('nomodel').headersTemplate).to.deep.equal({ 'X-Team': 'lingxi' })
    expect(ch!.bodyTemplate).to.deep.equal({ user: '{{userId}}' })
    expect(ch!.apiKey).to.equal('sk-****9900')
    // the saved channel answers with its templates
    const beforeTest = fake.requests.length
    await s.api('/api/config/channels/nomodel/test', { method: 'POST', json: {} })
    const sent = fake.requests.slice(beforeTest).find((r) => r.path.endsWith('/chat/completions'))
    expect(sent?.headers['x-team']).to.equal('lingxi')
    expect(sent?.body.model).to.equal('gpt-4o-mini')
  })

  it('editing: the masked key fetches the models with the stored key, and the default stays required', async () => {
    await page.click('[data-testid="edit-nomodel"]')
    expect(await page.inputValue(`${form} input[name=apiKey]`)).to.equal('sk-****9900')
    const before = fake.requests.length
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/config/channels/models') && r.status() === 200),
      page.click('[data-testid="channel-fetch-models"]')
    ])
    expect(fake.requests.slice(before).find((r) => r.path.endsWith('/models'))?.headers.authorization).to.equal(`Bearer ${KEY}`)
    await page.fill(`${form} input[name=model]`, '')
    await page.click('[data-testid="channel-save"]')
    await page.waitForSelector('[data-testid="ch-model-error"]')
    expect((await channel('nomodel'))!.model).to.equal('gpt-4o-mini')
    await page.fill(`${form} input[name=model]`, 'gpt-4o')
    // an emptied number is refused at its field, not saved as 0
    await page.fill(`${form} input[name=timeoutMs]`, '')
    await page.fill(`${form} input[name=monthlyBudget]`, '')
    await page.click('[data-testid="channel-save"]')
    await page.waitForSelector('[data-testid="ch-timeoutMs-error"]')
    await page.waitForSelector('[data-testid="ch-monthlyBudget-error"]')
    expect((await channel('nomodel'))!).to.include({ timeoutMs: 45000, monthlyBudget: 12.5 })
    await page.fill(`${form} input[name=timeoutMs]`, '30000')
    await page.fill(`${form} input[name=monthlyBudget]`, '0')
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/config/channels/nomodel') && r.request().method() === 'PUT'),
      page.click('[data-testid="channel-save"]')
    ])
    expect(res.status()).to.equal(200)
    expect((await channel('nomodel'))!).to.include({ model: 'gpt-4o', timeoutMs: 30000, monthlyBudget: 0 })
    const stored = s.lx.rt.need('channels').service.get('nomodel')
    expect(stored.apiKey).to.equal(KEY)
    expect(stored.headersTemplate).to.deep.equal({ 'X-Team': 'lingxi' }) // the masked header sent back kept its value
  })

  it('a wrong key shows the provider\'s refusal without the key; the page reads in English at phone size', async () => {
    await page.click('[data-testid="channel-add"]')
    await page.fill(`${form} input[name=name]`, 'wrongkey')
    await page.fill(`${form} input[name=baseUrl]`, fake.url)
    await page.fill(`${form} input[name=apiKey]`, 'sk-wrong-typed-key-000111')
    await page.click('[data-testid="channel-fetch-models"]')
    await page.waitForSelector('[data-testid="channel-form-card"] .error')
    expect(await page.textContent('[data-testid="channel-form-card"] .error')).to.not.include('sk-wrong-typed-key-000111')
    await page.click('[data-testid="lang"]')
    await page.setViewportSize({ width: 390, height: 844 })
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('Fetch the model list').and.include('Header template (JSON)')
    expect(text).to.not.match(/\bcx\.\w/)
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'channel-form-phone-en.png'), fullPage: true })
    await page.click('[data-testid="lang"]')
    expect(pageErrors).to.deep.equal([])
  })
})
