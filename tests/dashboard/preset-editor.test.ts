// End-to-end in Debian's chromium: the presets page. A built-in preset offers only viewing and "copy to edit"
// (no Edit or Delete), its view is read-only, and its copy is editable; a custom preset is edited through
// the form (the prompt with a placeholder inserted and previewed, a sampling slider moved with the keyboard)
// and read back through the API; an invalid value is shown at its field in both languages and not sent; the
// preset settings form saves, and a group preset id that does not exist is refused with the error shown at
// the field; deleting a preset asks, naming it. Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'


describe('dashboard: preset editor and preset settings (chromium e2e)', function () {
  this.timeout(180_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  const writes: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    // the models the editor offers to pick from are the channels' (no request reaches this address)
    await s.lx.rt.need('channels').service.create({ name: 'pm', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen-max', models: ['qwen-max', 'glm-4'] })
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true }))
    page.on('request', (r) => { if (['PUT', 'POST'].includes(r.method()) && /\/api\/presets(\/|$)/.test(new URL(r.url()).pathname)) writes.push(`${r.method()} ${r.url()}`) })
    await goTo(page, 'presets')
    await page.waitForSelector('[data-testid="preset-actions-coder"]')
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  const preset = async (id: string): Promise<Record<string, any>> => {
    const r = await s.api(`/api/presets/${id}`)
    expect(r.status, r.text).to.equal(200)
    return r.body.data
  }
  const clickSave = async (): Promise<number> => {
    const [res] = await Promise.all([
      page.waitForResponse((r) => /\/api\/presets(\/[^/]+)?$/.test(new URL(r.url()).pathname) && ['PUT', 'POST'].includes(r.request().method())),
      page.click('[data-testid="preset-save"]')
    ])
    return res.status()
  }

  it('a built-in preset offers only view and copy to edit; its view is read-only', async () => {
    const actions = await page.$$eval('[data-testid="preset-actions-coder"] [data-testid]', (bs) => bs.map((b) => b.getAttribute('data-testid')))
    expect(actions).to.include.members(['preset-view-coder', 'preset-copy-coder'])
    expect(actions).to.not.include('preset-edit-coder')
    expect(actions).to.not.include('preset-delete-coder')
    expect(await page.textContent('[data-testid="preset-copy-coder"]')).to.equal('复制后编辑')
    await page.click('[data-testid="preset-view-coder"]')
    await page.waitForSelector('[data-testid="preset-readonly"]')
    expect(await page.$('[data-testid="preset-save"]')).to.equal(null)
    expect(await page.isDisabled('[data-testid="pe-name"]')).to.equal(true)
    expect(await page.getAttribute('[data-testid="pe-prompt"]', 'readonly')).to.not.equal(null)
    await page.screenshot({ path: join(SHOTS, 'preset-builtin-readonly-1440.png'), fullPage: true })
    expect(await seriousAxeViolations(page)).to.deep.equal([])
  })

  it('the copy of a built-in preset is editable and saves', async () => {
    await page.click('[data-testid="preset-editor-copy"]')
    await page.waitForSelector('[data-testid="preset-save"]')
    const copy = await preset('coder-copy')
    expect(copy).to.include({ isBuiltin: false, createdFrom: 'coder' })
    expect(await page.isDisabled('[data-testid="pe-name"]')).to.equal(false)
    await page.fill('[data-testid="pe-name"]', '我的代码助手')
    expect(await clickSave()).to.equal(200)
    expect((await preset('coder-copy')).name).to.equal('我的代码助手')
    await page.waitForSelector('[data-testid="preset-editor"]', { state: 'detached' })
    // the copy is a custom preset: Edit and Delete, no "copy to edit"
    const actions = await page.$$eval('[data-testid="preset-actions-coder-copy"] [data-testid]', (bs) => bs.map((b) => b.getAttribute('data-testid')))
    expect(actions).to.include.members(['preset-edit-coder-copy', 'preset-delete-coder-copy'])
  })

  it('creates a preset through the form: a placeholder inserted from the list and shown rendered in the preview', async () => {
    await page.click('[data-testid="preset-add"]')
    await page.fill('[data-testid="pe-id"]', 'tea-master')
    await page.fill('[data-testid="pe-name"]', '茶艺师')
    await page.fill('[data-testid="pe-prompt"]', '你好，')
    await page.click('[data-testid="pe-ph-nickname"]')
    await page.waitForFunction(() => (document.querySelector('[data-testid="pe-prompt"]') as HTMLTextAreaElement).value === '你好，{{nickname}}')
    await page.waitForFunction(() => document.querySelector('[data-testid="pe-preview"]')?.textContent === '你好，小明')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="pe-models"] option').length === 2)
    expect(await page.$$eval('[data-testid="pe-models"] option', (os) => os.map((o) => (o as HTMLOptionElement).value))).to.deep.equal(['glm-4', 'qwen-max'])
    expect(await page.getAttribute('[data-testid="pe-model"]', 'list')).to.equal('pe-models')
    await page.fill('[data-testid="pe-model"]', 'glm-4')
    expect(await clickSave()).to.equal(201)
    const p = await preset('tea-master')
    expect(p).to.include({ name: '茶艺师', systemPrompt: '你好，{{nickname}}', temperature: 0.7, model: 'glm-4' })
  })

  it('edits a custom preset through the form (prompt and a slider) and reads it back', async () => {
    await page.click('[data-testid="preset-edit-tea-master"]')
    await page.waitForSelector('[data-testid="preset-save"]')
    await page.fill('[data-testid="pe-prompt"]', '你是一位茶艺师，和{{nickname}}聊茶{{groupLine}}。')
    await page.waitForFunction(() => document.querySelector('[data-testid="pe-preview"]')?.textContent === '你是一位茶艺师，和小明聊茶，你们在私聊中。')
    // the temperature slider, by keyboard: 0.7 + 4 steps of 0.05
    await page.focus('[data-testid="pe-temperature-range"]')
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight')
    expect(await page.inputValue('[data-testid="pe-temperature"]')).to.equal('0.9')
    // top_p is unset until switched on
    await page.click('[data-testid="pe-topP-set"]')
    await page.fill('[data-testid="pe-topP"]', '0.8')
    await page.fill('[data-testid="pe-maxMemories"]', '4')
    await page.screenshot({ path: join(SHOTS, 'preset-editor-1440.png'), fullPage: true })
    expect(await clickSave()).to.equal(200)
    const p = await preset('tea-master')
    expect(p).to.deep.include({ systemPrompt: '你是一位茶艺师，和{{nickname}}聊茶{{groupLine}}。', temperature: 0.9, topP: 0.8 })
    expect(p.memory.maxMemories).to.equal(4)
    // switched off again: top_p is unset
    await page.click('[data-testid="preset-edit-tea-master"]')
    await page.waitForSelector('[data-testid="preset-save"]')
    expect(await page.inputValue('[data-testid="pe-topP"]')).to.equal('0.8')
    await page.click('[data-testid="pe-topP-set"]')
    expect(await clickSave()).to.equal(200)
    expect(await preset('tea-master')).to.not.have.property('topP')
  })

  it('an invalid value is shown at its field in both languages and not sent', async () => {
    await page.click('[data-testid="preset-edit-tea-master"]')
    await page.waitForSelector('[data-testid="preset-save"]')
    const before = writes.length
    await page.fill('[data-testid="pe-temperature"]', '3')
    expect(await page.textContent('[data-testid="pe-temperature-error"]')).to.equal('不能大于 2')
    await page.fill('[data-testid="pe-maxTokens"]', '')
    expect(await page.textContent('[data-testid="pe-maxTokens-error"]')).to.equal('必填')
    await page.fill('[data-testid="pe-name"]', ' ')
    await page.click('[data-testid="preset-save"]')
    expect(await page.textContent('[data-testid="preset-invalid"]')).to.include('3')
    await page.click('[data-testid="lang"]')
    expect(await page.textContent('[data-testid="pe-temperature-error"]')).to.equal('Must be at most 2')
    expect(await page.textContent('[data-testid="pe-maxTokens-error"]')).to.equal('Required')
    await page.screenshot({ path: join(SHOTS, 'preset-editor-invalid-en-1440.png'), fullPage: true })
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.click('[data-testid="lang"]')
    expect(writes.length, 'nothing was sent').to.equal(before)
    expect((await preset('tea-master')).temperature).to.equal(0.9)
    await page.click('[data-testid="preset-close"]')
  })

  it('the preset settings form saves; an unknown group preset id is refused with the error at the field', async () => {
    await page.selectOption('[data-testid="ps-defaultId"]', 'tea-master')
    await page.click('[data-testid="ps-perGroupPreset"]')
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/presets/config') && r.request().method() === 'PUT'),
      page.click('[data-testid="ps-save"]')
    ])
    expect(res.status()).to.equal(200)
    const cfg = (await s.api('/api/presets/config')).body.data
    expect(cfg).to.include({ defaultId: 'tea-master', perGroupPreset: true })
    await page.fill('[data-testid="ps-group-id"]', '20260001')
    await page.fill('[data-testid="ps-group-preset"]', 'ghost-preset')
    const [bad] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/config/groups/20260001') && r.request().method() === 'PUT'),
      page.click('[data-testid="ps-group-save"]')
    ])
    expect(bad.status()).to.equal(400)
    expect(await page.textContent('[data-testid="ps-group-error"]')).to.equal('预设“ghost-preset”不存在')
    expect(await page.getAttribute('[data-testid="ps-group-preset"]', 'aria-invalid')).to.equal('true')
    await page.screenshot({ path: join(SHOTS, 'preset-settings-unknown-group-preset-1440.png'), fullPage: true })
    expect(s.lx.rt.config.get().groups['20260001']).to.equal(undefined)
    await page.fill('[data-testid="ps-group-preset"]', 'coder-copy')
    const [good] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/config/groups/20260001') && r.request().method() === 'PUT'),
      page.click('[data-testid="ps-group-save"]')
    ])
    expect(good.status()).to.equal(200)
    expect((await s.api('/api/config/groups/20260001')).body.data.preset).to.equal('coder-copy')
  })

  it('deleting a preset asks, naming it', async () => {
    await page.click('[data-testid="preset-delete-coder-copy"]')
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    const text = await page.textContent('[data-testid="confirm-text"]')
    expect(text).to.include('我的代码助手').and.include('coder-copy')
    await page.click('[data-testid="confirm-cancel"]')
    expect((await s.api('/api/presets/coder-copy')).status).to.equal(200)
    await page.click('[data-testid="preset-delete-coder-copy"]')
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/presets/coder-copy') && r.request().method() === 'DELETE'),
      page.click('[data-testid="confirm-ok"]')
    ])
    expect((await s.api('/api/presets/coder-copy')).status).to.equal(404)
    await page.waitForSelector('[data-testid="preset-actions-coder-copy"]', { state: 'detached' })
  })

  it('works on a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.click('[data-testid="preset-edit-tea-master"]')
    await page.waitForSelector('[data-testid="preset-save"]')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).to.be.at.most(0)
    await page.screenshot({ path: join(SHOTS, 'preset-editor-390.png'), fullPage: true })
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    expect(pageErrors).to.deep.equal([])
  })
})
