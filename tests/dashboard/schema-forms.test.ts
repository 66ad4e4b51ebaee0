// End-to-end in Debian's chromium: the configuration page's forms generated from the config schema
// (GET /api/config/schema). A memory setting changed through the generated form reads back through
// GET /api/config; an invalid value shows its error next to the field in both languages and is not sent;
// a value only the server can judge comes back with the server's error at the field; secrets stay masked
// and unchanged; the YAML import says when it imported nothing. Screenshots: screenshots/.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const MCP_KEY = 'mcp-endpoint-secret-0123456789'

describe('dashboard: settings forms from the config schema (chromium e2e)', function () {
  this.timeout(180_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  const puts: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    expect((await s.api('/api/config/mcp', { method: 'PUT', json: { server: { apiKey: MCP_KEY } } })).status).to.equal(200)
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true }))
    page.on('request', (r) => { if (r.method() === 'PUT') puts.push(r.url()) })
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  const field = (path: string): string => `[data-testid="cfg-${path}"]`
  const errorOf = (path: string): string => `[data-testid="cfg-${path}-error"]`
  const openSection = async (name: string): Promise<void> => {
    await page.click(`[data-testid="section-link-${name}"]`)
    await page.waitForSelector(`[data-testid="section-form-${name}"]`)
  }
  /** Clicks a section's save and waits for its PUT and the page's reload of the configuration. */
  const save = async (name: string): Promise<number> => {
    const reloaded = page.waitForResponse((r) => /\/api\/config$/.test(r.url()) && r.request().method() === 'GET')
    reloaded.catch(() => undefined)
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/config/${name}`) && r.request().method() === 'PUT'),
      page.click(`[data-testid="section-save-${name}"]`)
    ])
    if (res.status() === 200) await (await reloaded).finished()
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    return res.status()
  }
  const setLang = async (want: 'zh' | 'en'): Promise<void> => {
    const isEn = await page.evaluate(() => localStorage.getItem('lingxi.lang') === 'en')
    if ((want === 'en') !== isEn) await page.click('[data-testid="lang"]')
  }

  it('lists every section of the schema with its title in the page language, each control named', async () => {
    await goTo(page, 'config')
    await page.waitForSelector('[data-testid="section-list"]')
    const schema = (await s.api('/api/config/schema')).body.data as { properties: Record<string, { 'x-title-zh': string }> }
    const links = await page.$$eval('[data-testid="section-list"] button', (bs) => bs.map((b) => [b.getAttribute('data-testid')?.replace('section-link-', ''), b.textContent]))
    expect(links.map(([n]) => n)).to.have.members(Object.keys(schema.properties))
    for (const [n, text] of links) expect(text, n).to.equal(schema.properties[n as string]?.['x-title-zh'])
    await openSection('memory')
    expect(await page.textContent('[data-testid="section-memory"] h2')).to.equal('记忆')
    expect(await page.textContent('[data-testid="section-form-memory"]')).to.include('提示词中的记忆条数')
    // every input, select and textarea of the page has an accessible name
    for (const name of ['memory', 'tools', 'mcp', 'web', 'quotas']) {
      await openSection(name)
      const unnamed = await page.$$eval('main input, main select, main textarea', (els) => els.filter((e) => {
        const el = e as HTMLInputElement
        return !(el.labels?.length && el.labels[0]!.textContent?.trim()) && !el.getAttribute('aria-label')
      }).map((e) => e.outerHTML.slice(0, 100)))
      expect(unnamed, name).to.deep.equal([])
    }
    // the tools section: an enum is a select of named values, booleans are switches
    await openSection('tools')
    const modes = await page.$$eval(`${field('tools.approvalMode')} option`, (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]))
    expect(modes.map(([v]) => v)).to.deep.equal(['auto', 'manual', 'deny', 'allow'])
    expect(modes.every(([v, label]) => label !== v)).to.equal(true)
    expect(await page.getAttribute(field('tools.enabled'), 'role')).to.equal('switch')
    await page.screenshot({ path: join(SHOTS, 'schema-forms-tools-1440.png'), fullPage: true })
  })

  it('changes a memory setting through the generated form; GET /api/config reads it back and only the changes are written', async () => {
    await openSection('memory')
    await page.fill(field('memory.maxMemoriesInPrompt'), '7')
    await page.click(field('memory.enabled'))
    expect(await save('memory')).to.equal(200)
    const cfg = (await s.api('/api/config')).body.data
    expect(cfg.memory).to.deep.include({ maxMemoriesInPrompt: 7, enabled: false, pollIntervalMinutes: 5 })
    const file = readFileSync(join(s.dataDir, 'config.yaml'), 'utf8')
    expect(file).to.match(/maxMemoriesInPrompt: 7/)
    expect(file).to.not.match(/pollIntervalMinutes/)
    // the form shows the saved values after the reload
    expect(await page.inputValue(field('memory.maxMemoriesInPrompt'))).to.equal('7')
    expect(await page.isChecked(field('memory.enabled'))).to.equal(false)
    await page.screenshot({ path: join(SHOTS, 'schema-forms-memory-1440.png'), fullPage: true })
  })

  it('an invalid value shows its error next to the field in both languages and is not sent; an empty number is an error, not 0', async () => {
    await openSection('memory')
    const before = puts.length
    await page.fill(field('memory.maxMemoriesInPrompt'), '500')
    expect(await page.textContent(errorOf('memory.maxMemoriesInPrompt'))).to.equal('不能大于 100')
    expect(await page.getAttribute(field('memory.maxMemoriesInPrompt'), 'aria-invalid')).to.equal('true')
    await page.click('[data-testid="section-save-memory"]')
    expect(await page.textContent('[data-testid="section-invalid-memory"]')).to.include('1')
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'schema-forms-invalid-zh-1440.png'), fullPage: true })
    await setLang('en')
    expect(await page.textContent(errorOf('memory.maxMemoriesInPrompt'))).to.equal('Must be at most 100')
    expect(await page.textContent('[data-testid="section-memory"] h2')).to.equal('Memory')
    await page.fill(field('memory.maxMemoriesInPrompt'), '2.5')
    expect(await page.textContent(errorOf('memory.maxMemoriesInPrompt'))).to.equal('Enter a whole number')
    await page.fill(field('memory.maxMemoriesInPrompt'), '')
    expect(await page.textContent(errorOf('memory.maxMemoriesInPrompt'))).to.equal('Required')
    await page.click('[data-testid="section-save-memory"]')
    await page.screenshot({ path: join(SHOTS, 'schema-forms-invalid-en-1440.png'), fullPage: true })
    await setLang('zh')
    expect(await page.textContent(errorOf('memory.maxMemoriesInPrompt'))).to.equal('必填')
    expect(puts.length, 'nothing was sent').to.equal(before)
    expect(s.lx.rt.config.get().memory.maxMemoriesInPrompt).to.equal(7)
    // a text rule of the schema (pattern) in the web section
    await page.click('[data-testid="section-reset-memory"]')
    await openSection('commandPrefix')
    await page.fill(field('commandPrefix'), '')
    expect(await page.textContent(errorOf('commandPrefix'))).to.equal('必填')
    await page.fill(field('commandPrefix'), '/lx')
    expect(await page.textContent(errorOf('commandPrefix'))).to.equal('格式不正确')
    await page.click('[data-testid="section-reset-commandPrefix"]')
  })

  it('a section\'s unsaved changes are kept while another section is open, and marked in the list', async () => {
    await openSection('knowledge')
    await page.fill(field('knowledge.maxResultsInPrompt'), '9')
    expect(await page.textContent('[data-testid="section-dirty-knowledge"]')).to.include('未保存')
    await openSection('skills')
    await openSection('knowledge')
    expect(await page.inputValue(field('knowledge.maxResultsInPrompt'))).to.equal('9')
    expect(await save('knowledge')).to.equal(200)
    expect(s.lx.rt.config.get().knowledge.maxResultsInPrompt).to.equal(9)
    expect(await page.$('[data-testid="section-dirty-knowledge"]')).to.equal(null)
  })

  it('a value only the server can judge comes back with the server\'s error at the field, and editing clears it', async () => {
    await openSection('reminders')
    await page.fill(field('reminders.timezone'), 'Mars/Olympus_Mons')
    expect(await page.$(errorOf('reminders.timezone'))).to.equal(null)
    expect(await save('reminders')).to.equal(400)
    const msg = await page.textContent(errorOf('reminders.timezone'))
    expect(msg).to.be.a('string').and.not.equal('')
    // in the Chinese page, the rule's sentence in Chinese (lib/config/schema.ts words it in English)
    expect(msg).to.include('时区').and.not.match(/Intl|not a timezone/)
    await page.fill(field('reminders.timezone'), 'Asia/Shanghai')
    expect(await page.$(errorOf('reminders.timezone'))).to.equal(null)
    expect(await save('reminders')).to.equal(200)
    expect(s.lx.rt.config.get().reminders.timezone).to.equal('Asia/Shanghai')
  })

  it('a list of objects: an item added through its fieldset saves; the server\'s duplicate check lands on the item\'s field', async () => {
    await openSection('pricing')
    await page.click(field('pricing.models-add'))
    expect(await page.textContent(errorOf('pricing.models.0.model'))).to.equal('必填')
    await page.fill(field('pricing.models.0.model'), 'deepseek-*')
    await page.fill(field('pricing.models.0.input'), '2')
    await page.fill(field('pricing.models.0.output'), '8')
    expect(await save('pricing')).to.equal(200)
    expect(s.lx.rt.config.get().pricing.models).to.deep.equal([{ model: 'deepseek-*', input: 2, output: 8 }])
    await page.click(field('pricing.models-add'))
    await page.fill(field('pricing.models.1.model'), 'deepseek-*')
    expect(await save('pricing')).to.equal(400)
    expect(await page.textContent(errorOf('pricing.models.1.model'))).to.be.a('string').and.not.equal('')
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.click(field('pricing.models-remove-1'))
    expect(await page.$(errorOf('pricing.models.1.model'))).to.equal(null)
    await page.screenshot({ path: join(SHOTS, 'schema-forms-pricing-1440.png'), fullPage: true })
  })

  it('a record: an entry added under a valid key saves; a bad or taken key is said at the key', async () => {
    await openSection('quotas')
    await page.fill(field('quotas.users-newkey'), 'bad key!')
    expect(await page.textContent(field('quotas.users-newkey-error'))).to.include('bad key!')
    expect(await page.isDisabled(field('quotas.users-add'))).to.equal(true)
    await page.fill(field('quotas.users-newkey'), '10086')
    await page.click(field('quotas.users-add'))
    await page.fill(field('quotas.users.10086.messagesPerDay'), '30')
    await page.fill(field('quotas.users-newkey'), '10086')
    expect(await page.textContent(field('quotas.users-newkey-error'))).to.equal('“10086”已经存在')
    await page.fill(field('quotas.users-newkey'), '')
    expect(await save('quotas')).to.equal(200)
    expect({ ...s.lx.rt.config.get().quotas.users['10086'] }).to.deep.equal({ messagesPerDay: 30 })
  })

  it('the server\'s rule that a preset must exist is said at the field in the page language', async () => {
    await openSection('presets')
    await page.fill(field('presets.defaultId'), 'no-such-preset')
    expect(await save('presets')).to.equal(400)
    expect(await page.textContent(errorOf('presets.defaultId'))).to.equal('预设“no-such-preset”不存在')
    await page.click('[data-testid="section-reset-presets"]')
    expect(await page.$(errorOf('presets.defaultId'))).to.equal(null)
  })

  it('secrets are masked as the API masks them; a masked key left alone stays the stored key', async () => {
    await openSection('mcp')
    expect(await page.getAttribute(field('mcp.server.apiKey'), 'type')).to.equal('password')
    const shown = await page.inputValue(field('mcp.server.apiKey'))
    expect(shown).to.include('****')
    expect(shown).to.not.equal(MCP_KEY)
    await page.fill(field('mcp.server.tools'), 'web_search\nfetch_url')
    expect(await save('mcp')).to.equal(200)
    expect(s.lx.rt.config.get().mcp.server).to.deep.equal({ apiKey: MCP_KEY, tools: ['web_search', 'fetch_url'], offeredTools: [], withheldTools: [] })
  })

  it('YAML import: an empty text and a YAML that changes nothing say so; a real change is imported', async () => {
    await openSection('language')
    await page.click('[data-testid="yaml-import"]')
    expect(await page.textContent('[data-testid="yaml-card"] .error')).to.equal('请先粘贴或导出 YAML')
    await page.fill('[data-testid="yaml-text"]', 'memory:\n  maxMemoriesInPrompt: 7\n')
    await page.click('[data-testid="yaml-import"]')
    await page.waitForSelector('.toast:has-text("没有导入任何内容")')
    await page.fill('[data-testid="yaml-text"]', 'language: en\n')
    await page.click('[data-testid="yaml-import"]')
    await page.waitForSelector('.toast:has-text("已导入（1 项更改）")')
    expect(s.lx.rt.config.get().language).to.equal('en')
    await page.waitForFunction(() => (document.querySelector('[data-testid="cfg-language"]') as HTMLSelectElement | null)?.value === 'en')
  })

  it('works on a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await openSection('memory')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).to.be.at.most(0)
    await page.screenshot({ path: join(SHOTS, 'schema-forms-memory-390.png'), fullPage: true })
    // the sections with records, lists of objects and JSON fields pass axe too
    for (const name of ['quotas', 'webTools', 'mcp', 'tools']) {
      await openSection(name)
      expect(await seriousAxeViolations(page), name).to.deep.equal([])
    }
    expect(pageErrors).to.deep.equal([])
  })
})
