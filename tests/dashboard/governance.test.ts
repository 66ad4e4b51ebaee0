// End-to-end in Debian's chromium: the governance page (issue 20: access, quotas, moderation). Opens
// from the menu, saves access lists and a quota through the settings form, refuses a regex that could
// hang the bot with the reason and saves a good one, sets a group's strictness, keeps the moderation
// API key masked, and lists the hit log with a filter. Each change is read back from the running
// plugin's configuration. Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const KEY = 'sk-moderation-dashboard-0123456789'

describe('dashboard: governance (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.lx.rt.config.update({ moderation: { endpoint: { baseUrl: '', apiKey: KEY, model: 'omni-moderation-latest', timeoutMs: 5000 } } })
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { viewport: { width: 1280, height: 900 } }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  const saveAndWait = async (button: string): Promise<number> => {
    const [res] = await Promise.all([page.waitForResponse((r) => /\/api\/config$/.test(r.url()) && r.request().method() === 'PUT'), page.click(button)])
    return res.status()
  }
  const cfg = () => s.lx.rt.config.get()

  it('opens from the menu with its cards, in zh-CN, no raw keys; the endpoint key is shown masked', async () => {
    await goTo(page, 'governance')
    await page.waitForSelector('[data-testid="gv-card-access"]')
    // the settings forms render once the configuration schema has come
    for (const f of ['gv-access"] input[name="access.userBlacklist', 'gv-quotas"] input[name="quotas.user.messagesPerDay', 'gv-moderation"] select[name="moderation.strictness']) {
      await page.waitForSelector(`[data-testid="${f}"]`)
    }
    expect(await page.textContent('nav a[data-page="governance"]')).to.equal('访问与内容')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('用户黑名单').and.include('每人每日消息数').and.include('审核严格度').and.include('审核命中记录')
    expect(text).to.not.match(/\b(gv|bs|bv)\.\w/)
    const shown = await page.inputValue('[data-testid="gv-moderation"] input[name="moderation.endpoint.apiKey"]')
    expect(shown).to.include('****').and.not.equal(KEY)
  })

  it('saves access lists and a quota; the masked key is kept when the moderation card is saved', async () => {
    await page.fill('[data-testid="gv-access"] input[name="access.userBlacklist"]', '30001, 30002')
    await page.selectOption('[data-testid="gv-access"] select[name="access.refusal"]', 'reply')
    expect(await saveAndWait('[data-testid="gv-access-save"]')).to.equal(200)
    expect(cfg().access.userBlacklist).to.deep.equal(['30001', '30002'])
    expect(cfg().access.refusal).to.equal('reply')
    await page.fill('[data-testid="gv-quotas"] input[name="quotas.user.messagesPerDay"]', '40')
    expect(await saveAndWait('[data-testid="gv-quotas-save"]')).to.equal(200)
    expect(cfg().quotas.user.messagesPerDay).to.equal(40)
    await page.selectOption('[data-testid="gv-moderation"] select[name="moderation.strictness"]', 'refuse')
    expect(await saveAndWait('[data-testid="gv-moderation-save"]')).to.equal(200)
    expect(cfg().moderation.strictness).to.equal('refuse')
    expect(cfg().moderation.endpoint.apiKey).to.equal(KEY)
  })

  it('refuses a regex that could hang the bot, naming it, and saves good ones', async () => {
    await page.fill('[data-testid="gv-regex-text"]', '/买.{0,3}枪/\n(a+)+$')
    expect(await saveAndWait('[data-testid="gv-regex-save"]')).to.equal(400)
    const error = await page.textContent('[data-testid="gv-regexes"] .error') ?? ''
    expect(error).to.include('(a+)+$').and.include('repeated group')
    expect(cfg().moderation.regexes).to.deep.equal([])
    await page.fill('[data-testid="gv-regex-text"]', '/买.{0,3}枪/\n加微信')
    expect(await saveAndWait('[data-testid="gv-regex-save"]')).to.equal(200)
    expect(cfg().moderation.regexes).to.deep.equal(['/买.{0,3}枪/', '加微信'])
  })

  it('sets a group\'s strictness and feature list; unsetting puts the global value back', async () => {
    await page.fill('[data-testid="gv-group-id"]', '555')
    await page.click('[data-testid="gv-group-open"]')
    await page.waitForSelector('[data-testid="gv-group-form"]')
    await page.selectOption('[data-testid="gv-group-form"] select[name="moderation.strictness"]', 'mask')
    await page.check('[data-testid="gv-group-form"] input[name="access.features.drawing:set"]')
    await page.fill('[data-testid="gv-group-form"] input[name="access.features.drawing"]', '30005, admin')
    expect(await saveAndWait('[data-testid="gv-group-form-save"]')).to.equal(200)
    expect(cfg().groups['555']?.moderation?.strictness).to.equal('mask')
    expect(cfg().groups['555']?.access?.features?.drawing).to.deep.equal(['30005', 'admin'])
    await page.waitForSelector('[data-testid="gv-group-form"] .field.set')
    await page.selectOption('[data-testid="gv-group-form"] select[name="moderation.strictness"]', '')
    expect(await saveAndWait('[data-testid="gv-group-form-save"]')).to.equal(200)
    expect(cfg().groups['555']?.moderation?.strictness).to.equal(undefined)
  })

  it('gives one user their own daily limit', async () => {
    await page.fill('[data-testid="gv-user-id"]', '30020')
    await page.click('[data-testid="gv-user-open"]')
    await page.waitForSelector('[data-testid="gv-user-form"]')
    expect(await page.getAttribute('[data-testid="gv-user-form"] input[name="quotas.users.30020.messagesPerDay"]', 'placeholder')).to.include('40')
    await page.fill('[data-testid="gv-user-form"] input[name="quotas.users.30020.messagesPerDay"]', '3')
    expect(await saveAndWait('[data-testid="gv-user-form-save"]')).to.equal(200)
    expect(cfg().quotas.users['30020']).to.deep.equal({ messagesPerDay: 3 })
  })

  it('lists the hits, newest first, and filters them by direction', async () => {
    const gov = s.lx.rt.need('governance')
    await gov.moderate({ userId: '30010', groupId: '556' }, '卖冰毒', 'input')
    await gov.moderate({ userId: '30011' }, '这是海洛因', 'output')
    await page.click('[data-testid="gv-hits-refresh"]')
    await page.waitForSelector('[data-testid="gv-hits"] td:has-text("30011")')
    const rows = await page.$$eval('[data-testid="gv-hits"] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''))
    expect(rows).to.have.length(2)
    expect(rows[0]).to.include('30011').and.include('海洛因').and.include('模型回答').and.include('拦截')
    expect(rows[1]).to.include('30010').and.include('冰毒').and.include('556').and.include('用户消息')
    await page.selectOption('[data-testid="gv-hits-direction"]', 'input')
    await page.click('[data-testid="gv-hits-filter"]')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="gv-hits"] tbody tr').length === 1)
    expect(await page.textContent('[data-testid="gv-hits"] tbody')).to.include('30010')
    await page.screenshot({ path: join(SHOTS, 'governance.png'), fullPage: true })
    expect(pageErrors).to.deep.equal([])
  })
})
