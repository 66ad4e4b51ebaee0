// Feedback that is true (issue 21), in Debian's chromium against a fresh plugin and a fake model: the
// first-run guide from "no channel" to "the bot answered", empty states with their button, the confirm
// dialog that names the item (Esc cancels, focus kept inside and given back), server errors in the page
// language and listed once, error toasts left behind on navigation, busy buttons, a broken script that
// says it did not load, an emptied number that is not saved as 0, the live table when its stream drops,
// a login link pasted into a tab already on /login, and the page's lang. Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const CJK = /[\u3400-\u9fff]/

describe('dashboard: feedback (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['gpt-4o', 'gpt-4o-mini'] })
    s = await startTestServer()
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { viewport: { width: 1280, height: 900 } }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })

  it('empty states say what to do, with a button that does it', async () => {
    await goTo(page, 'conversations')
    await page.waitForSelector('[data-testid="empty-state"]')
    expect(await page.textContent('[data-testid="empty-state"]')).to.include('还没有会话')
    await goTo(page, 'knowledge')
    await page.waitForSelector('[data-testid="kb-empty-add"]')
    await page.click('[data-testid="kb-empty-add"]')
    await page.waitForSelector('[data-testid="kb-title"]')
    await shot('feedback-empty-knowledge')
  })

  it('a busy button is disabled with aria-busy while its request runs', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => { release = resolve })
    await page.route('**/api/knowledge', async (route) => { if (route.request().method() === 'POST') await gate; await route.continue() })
    await page.fill('[data-testid="kb-title"]', 'Lighthouse manual')
    await page.fill('[data-testid="kb-content"]', 'The lamp turns every ten seconds.')
    await page.click('[data-testid="kb-save"]')
    await page.waitForSelector('[data-testid="kb-save"][aria-busy="true"]')
    expect(await page.isDisabled('[data-testid="kb-save"]')).to.equal(true)
    release()
    await page.waitForSelector('[data-testid="kb-delete-Lighthouse manual"]')
    await page.unroute('**/api/knowledge')
    expect((await s.api('/api/knowledge')).text).to.include('Lighthouse manual')
  })

  it('deleting asks in a dialog that names the item: Esc cancels, focus stays inside and comes back', async () => {
    const del = '[data-testid="kb-delete-Lighthouse manual"]'
    await page.click(del)
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.equal('删除知识库文档“Lighthouse manual”？')
    expect(await page.getAttribute('[data-testid="confirm-dialog"]', 'role')).to.equal('dialog')
    expect(await page.getAttribute(del, 'aria-busy'), 'no spinner while only asking').to.equal(null)
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('confirm-cancel')
    // Tab cycles between the dialog's two buttons, never behind it
    const seen = new Set<string | null | undefined>()
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab')
      seen.add(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
    }
    expect([...seen].sort()).to.deep.equal(['confirm-cancel', 'confirm-ok'])
    await shot('feedback-confirm')
    await page.keyboard.press('Escape')
    await page.waitForSelector('[data-testid="confirm-dialog"]', { state: 'detached' })
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'kb-delete-Lighthouse manual', undefined, { timeout: 5000 })
    expect((await s.api('/api/knowledge')).text, 'Esc deletes nothing').to.include('Lighthouse manual')
    // confirmed: gone
    await page.click(del)
    await page.click('[data-testid="confirm-ok"]')
    await page.waitForSelector('[data-testid="kb-empty-add"]')
    expect((await s.api('/api/knowledge')).text).to.not.include('Lighthouse manual')
  })

  it('a server error is in the page language, its fields listed once; an error toast stays on its page', async () => {
    await goTo(page, 'game')
    await page.fill('[data-testid="game-name"]', 'Heroine')
    await page.click('[data-testid="game-add"]') // no system prompt
    await page.waitForSelector('.toast.err')
    const zh = await page.textContent('.toast.err') ?? ''
    expect(zh).to.include('请检查').and.include('必填')
    expect(zh.match(/systemPrompt/g)).to.have.length(1)
    expect(zh).to.not.match(/is required/)
    await goTo(page, 'drawing')
    expect(await page.locator('.toast.err').count(), 'the error toast is gone after navigating').to.equal(0)
    // the same in English
    await page.click('[data-testid="lang"]')
    await goTo(page, 'game')
    await page.fill('[data-testid="game-name"]', 'Heroine')
    await page.click('[data-testid="game-add"]')
    await page.waitForSelector('.toast.err')
    const en = await page.textContent('.toast.err') ?? ''
    expect(en).to.include('Please check').and.include('required')
    expect(en).to.not.match(CJK)
    await page.click('[data-testid="lang"]')
  })

  it('English shows no Chinese category names; Chinese shows no raw setting keys; <html lang> follows', async () => {
    expect(await page.getAttribute('html', 'lang')).to.equal('zh-CN')
    await page.waitForSelector('[data-testid="game-config"]')
    const form = await page.textContent('[data-testid="game-config"]') ?? ''
    expect(form).to.not.match(/probability|enableTools|temperature|maxTokens/)
    await page.click('[data-testid="lang"]')
    expect(await page.getAttribute('html', 'lang')).to.equal('en')
    expect(await page.getAttribute('[data-testid="menu-button"]', 'aria-label')).to.equal('Open the menu')
    await goTo(page, 'tools')
    await page.waitForSelector('[data-testid^="cat-"]')
    const cats = await page.$$eval('[data-testid^="cat-"]', (els) => els.map((e) => e.closest('label')?.textContent ?? ''))
    expect(cats.length).to.be.greaterThan(0)
    expect(cats.filter((c) => CJK.test(c))).to.deep.equal([])
    await page.click('[data-testid="lang"]')
    expect(await page.getAttribute('html', 'lang')).to.equal('zh-CN')
  })

  it('an emptied number field is refused, not saved as 0', async () => {
    await goTo(page, 'game')
    const before = (await s.api('/api/game/config')).body.data.maxTokens as number
    await page.fill('[data-testid="game-config"] input[name="maxTokens"]', '')
    await page.click('[data-testid="game-config-save"]')
    await page.waitForSelector('[data-testid="game-config"] .error')
    expect(await page.textContent('[data-testid="game-config"] .error')).to.include('不能留空')
    expect((await s.api('/api/game/config')).body.data.maxTokens).to.equal(before)
  })

  it('a script tool saved with a syntax error says it did not load, with the error', async () => {
    await goTo(page, 'tools')
    await page.click('[data-testid="tab-scripts"]')
    await page.click('[data-testid="script-new"]')
    await page.fill('[data-testid="script-name"]', 'broken_tool')
    await page.fill('[data-testid="script-source"]', 'export default { description: "x", async execute ( { return 1 }')
    const last = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll<HTMLElement>('.toast')].map((t) => Number(t.dataset.toast))))
    await page.click('[data-testid="script-save"]')
    await page.waitForSelector('[data-testid="script-load-error"]')
    expect(await page.textContent('[data-testid="script-load-error"]')).to.include('没有加载成功')
    const toasts = await page.$$eval('.toast', (ts, n) => ts.filter((t) => Number((t as HTMLElement).dataset.toast) > n).map((t) => t.textContent), last)
    expect(toasts).to.have.length(1)
    expect(toasts[0]).to.include('没有加载成功')
    expect((await s.api('/api/tools/js')).body.data.find((f: { name: string }) => f.name === 'broken_tool').loaded).to.equal(false)
    await shot('feedback-script-error')
    await page.click('[data-testid="script-delete"]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include('broken_tool')
    await page.click('[data-testid="confirm-ok"]')
    await page.waitForSelector('[data-testid="script-delete"]', { state: 'detached' })
  })

  it('the first-run guide goes from no channel to the bot\'s first answer, each step read from the API', async () => {
    await goTo(page, 'overview')
    await page.waitForSelector('[data-testid="first-run"]')
    expect(await page.getAttribute('[data-testid="fr-step-channel"]', 'data-done')).to.equal('false')
    await shot('feedback-first-run-start')
    await page.click('[data-testid="fr-add-channel"]')
    await page.waitForURL('**/channels')
    const add = await s.api('/api/config/channels', { method: 'POST', json: { name: 'main', baseUrl: fake.url, apiKey: 'sk-first-0001', model: 'gpt-4o', models: ['gpt-4o'] } })
    expect(add.status).to.equal(200)
    await goTo(page, 'overview')
    await page.waitForSelector('[data-testid="fr-step-channel"][data-done="true"]')
    expect(await page.textContent('[data-testid="fr-step-test"]')).to.include('main')
    await page.click('[data-testid="fr-test"]')
    await page.waitForSelector('[data-testid="fr-step-test"][data-done="true"]')
    expect(await page.getAttribute('[data-testid="fr-step-chat"]', 'data-done')).to.equal('false')
    await page.waitForSelector('[data-testid="fr-open-chat"]')
    // the bot answers a message (the chat page sends the same request)
    expect((await s.api('/api/chat', { method: 'POST', json: { message: 'hello', userId: '10001' } })).status).to.equal(200)
    await page.click('[data-testid="fr-recheck"]')
    await page.waitForSelector('[data-testid="fr-done"]')
    await shot('feedback-first-run-done')
    await page.click('[data-testid="fr-hide"]')
    await page.waitForSelector('[data-testid="first-run"]', { state: 'detached' })
  })

  it('a stopped batch test says "stopped" and leaves no bar part-way', async () => {
    const add = await s.api('/api/config/channels', { method: 'POST', json: { name: 'slow', baseUrl: fake.url, apiKey: 'sk-slow-0001', model: 'm1', models: ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'] } })
    expect(add.status).to.equal(200)
    const respond = fake.respond
    // slow enough that the stop comes before the sixth model's answer on a loaded machine too (300 ms each once lost the race)
    fake.respond = () => ({ content: 'ok', delayMs: 1500 })
    try {
      await goTo(page, 'channels')
      await page.click('[data-testid="batch-slow"]')
      await page.click('[data-testid="batch-start"]')
      await page.waitForSelector('[data-testid="batch-progress"] [role="progressbar"]')
      await page.click('[data-testid="batch-stop"]')
      await page.waitForSelector('[data-testid="batch-stopped"]')
      expect(await page.getAttribute('[data-testid="batch-progress"]', 'data-stopped')).to.equal('true')
      expect(await page.locator('[data-testid="batch-progress"] [role="progressbar"]').count()).to.equal(0)
      const pct = Number(await page.getAttribute('[data-testid="batch-progress"]', 'data-pct'))
      expect(pct, 'stopped before the end').to.be.lessThan(100)
      expect(await page.textContent('[data-testid="batch-progress"]')).to.include('已停止')
      await shot('feedback-batch-stopped')
    } finally {
      fake.respond = respond
      await s.api('/api/config/channels/slow', { method: 'DELETE' })
    }
  })

  it('today\'s chart is drawn by hour, with axis values and a tooltip', async () => {
    const xticks = (): Promise<string[]> => page.$$eval('[data-testid="chart-activity"] .cx-xtick', (ts) => ts.map((t) => t.textContent ?? ''))
    await goTo(page, 'overview')
    // The overview opens on the week (by day). The page keeps that chart on screen while the day's request
    // runs (useLoad keeps the last data), so a chart being there says nothing about which period it shows:
    // the week's chart first (or its "no data"), then the day's answer, then the chart redrawn from it.
    await page.waitForSelector('[data-testid="chart-activity"], [data-testid="chart-none"]')
    const week = await xticks()
    const [day] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/stats') && new URL(r.url()).searchParams.get('period') === 'day'),
      page.selectOption('[data-testid="period"]', 'day')
    ])
    expect(day.status()).to.equal(200)
    await page.waitForFunction((w) => {
      const xs = [...document.querySelectorAll('[data-testid="chart-activity"] .cx-xtick')].map((t) => t.textContent ?? '')
      return xs.length > 0 && JSON.stringify(xs) !== w
    }, JSON.stringify(week), { timeout: 10_000 })
    const ticks = await page.$$eval('[data-testid="chart-activity"] .cx-ytick text', (ts) => ts.map((t) => t.textContent))
    expect(ticks.length).to.be.greaterThan(1)
    expect(await xticks()).to.satisfy((xs: string[]) => xs.every((x) => /^\d\d:00$/.test(x)))
    await page.focus('[data-testid="chart-activity"] .cx-plot')
    await page.waitForSelector('[data-testid="chart-activity-tooltip"]')
    expect(await page.textContent('[data-testid="chart-activity-tooltip"]')).to.include('回复')
  })

  it('the live event table says "disconnected, reconnecting" when its stream drops, never an "error · undefined" row', async () => {
    await page.route('**/api/system/events', (route) => route.abort())
    await goTo(page, 'logs')
    await goTo(page, 'overview')
    await page.waitForSelector('[data-testid="sse-state"][data-state="reconnecting"]')
    expect(await page.textContent('[data-testid="sse-state"]')).to.include('已断开，正在重连')
    const rows = await page.$$eval('main table td', (tds) => tds.map((td) => td.textContent ?? ''))
    expect(rows.filter((r) => /undefined/.test(r))).to.deep.equal([])
    await page.unroute('**/api/system/events')
    await page.waitForSelector('[data-testid="sse-state"][data-state="live"]', { timeout: 20_000 })
  })

  it('a login link pasted into a tab already on /login logs in', async () => {
    const ctx = await browser.newContext()
    const p2 = await ctx.newPage()
    await p2.goto(`${s.base}/login`)
    await p2.waitForSelector('[data-testid="login-hint"]')
    const { token } = s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
    await p2.evaluate((t) => { location.hash = `#token=${t}` }, token)
    await p2.waitForURL('**/overview')
    expect(await p2.evaluate(() => localStorage.getItem('lingxi.token'))).to.be.a('string')
    await ctx.close()
  })

  it('no script error on any page', () => {
    expect(pageErrors).to.deep.equal([])
  })
})
