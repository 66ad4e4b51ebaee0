// End-to-end in Debian's chromium (issue 21): after a chat turn through POST /api/chat against the fake
// model (one tool call, then the answer), the statistics page shows it: today by hour with axis values
// and a tooltip (mouse and keyboard), the model, the channel, the user, the group, the tool and the
// error log, in both languages and at phone size. Screenshots: screenshots/stats-*.png.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'


describe('dashboard: statistics pages (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['stats-model'] })
    s = await startTestServer()
    await s.login()
    expect((await s.api('/api/config/channels', { method: 'POST', json: { name: 'stats-channel', baseUrl: fake.url, apiKey: 'sk-stats-0001', model: 'stats-model' } })).status).to.equal(200)
    // The checks below expect the turn in the current hour of the wall clock (the server and the browser
    // both read it): in the last minute of an hour, the turn waits for the next one.
    const d = new Date()
    const toNextHour = 3_600_000 - ((d.getMinutes() * 60 + d.getSeconds()) * 1000 + d.getMilliseconds())
    if (toNextHour < 60_000) await new Promise((resolve) => setTimeout(resolve, toNextHour + 500))
    // the recorded turn: the model calls a built-in tool, then answers
    fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: {} }] }, { content: 'It is time.', usage: { prompt_tokens: 120, completion_tokens: 30 } })
    const r = await s.api('/api/chat', { method: 'POST', json: { message: 'what time is it?', userId: '30001', groupId: '40001' } })
    expect(r.status, r.text).to.equal(200)
    s.lx.rt.log.error('stats-e2e: a recorded failure')
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true })) // axe is injected inline
    await goTo(page, 'stats')
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const tab = async (name: string, card: string): Promise<string> => {
    await page.click(`[data-testid="sx-tab-${name}"]`)
    await page.waitForSelector(`[data-testid="${card}"] table`)
    expect(await page.getAttribute(`[data-testid="sx-tab-${name}"]`, 'aria-selected')).to.equal('true')
    expect(await seriousAxeViolations(page), name).to.deep.equal([])
    return await page.textContent(`[data-testid="${card}"]`) ?? ''
  }

  it('today is drawn by hour: axis values, the recorded turn in the current hour, a tooltip on hover and on the keyboard', async () => {
    const chart = '[data-testid="sx-chart"]'
    await page.waitForSelector(`${chart} .cx-plot > svg`)
    expect(await page.textContent('h1')).to.equal('统计')
    // y axis: round values from 0 up, written out
    const ticks = await page.$$eval(`${chart} .cx-ytick`, (gs) => gs.map((g) => [Number(g.getAttribute('data-value')), g.textContent]))
    expect(ticks.length).to.be.at.least(2)
    expect(ticks[0]).to.deep.equal([0, '0'])
    expect(ticks.at(-1)![0]).to.be.at.least(1)
    // x axis: the hours of today, the current one last
    const hours = await page.$$eval(`${chart} .cx-xtick`, (ts) => ts.map((t) => t.textContent))
    const now = `${String(new Date().getHours()).padStart(2, '0')}:00`
    expect(hours.at(-1)).to.equal(now)
    // three series told apart: legend entries with their own marker shapes
    expect(await page.$$eval(`${chart} .cx-legend li`, (ls) => ls.map((l) => l.textContent))).to.deep.equal(['消息', '回复', '工具调用'])
    // hovering the right edge shows the current hour's figures
    const box = (await page.locator(`${chart} .cx-plot > svg`).boundingBox())!
    await page.mouse.move(box.x + box.width - 16, box.y + box.height / 2)
    const tip = `${chart} [data-testid="sx-chart-tooltip"]`
    await page.waitForSelector(tip)
    const text = await page.textContent(tip) ?? ''
    expect(text).to.include(now).and.include('消息').and.include('回复')
    expect(text).to.match(/消息\s*1/).and.match(/工具调用\s*1/).and.match(/回复\s*1/) // the tool round is no answer
    await page.mouse.move(box.x - 40, box.y - 40)
    await page.waitForSelector(tip, { state: 'detached' })
    // keyboard: focus shows the last point, arrow keys move
    await page.focus(`${chart} .cx-plot`)
    await page.waitForSelector(tip)
    expect(await page.textContent(tip)).to.include(now)
    expect(await seriousAxeViolations(page)).to.deep.equal([]) // with the tooltip open
    await page.keyboard.press('Home')
    expect(await page.textContent(`${tip} b`)).to.include(hours[0]!)
    const tokens = await page.textContent('[data-testid="sx-chart-tokens"] .cx-legend')
    expect(tokens).to.include('Tokens')
    await page.screenshot({ path: join(SHOTS, 'stats-usage.png'), fullPage: true })
  })

  it('shows the model, the channel, the user, the group and the tool of the turn, and the error log', async () => {
    expect(await tab('models', 'sx-models')).to.include('stats-model')
    await page.waitForSelector('[data-testid="sx-model-stats-model"]')
    expect(await tab('channels', 'sx-channels')).to.include('stats-channel')
    expect(await tab('users', 'sx-users')).to.include('30001')
    const groups = await tab('groups', 'sx-groups')
    expect(groups).to.include('40001')
    await page.click('[data-testid="sx-groups"] button[aria-label$="40001"]')
    await page.waitForSelector('[data-testid="sx-group-chart"] .cx-ytick')
    expect(await tab('tools', 'sx-tools')).to.include('get_current_time')
    expect(await tab('errors', 'sx-errors')).to.include('stats-e2e: a recorded failure')
    await page.screenshot({ path: join(SHOTS, 'stats-errors.png'), fullPage: true })
    // the tabs move with the arrow keys
    await page.focus('[data-testid="sx-tab-errors"]')
    await page.keyboard.press('ArrowRight')
    expect(await page.getAttribute('[data-testid="sx-tab-usage"]', 'aria-selected')).to.equal('true')
  })

  it('reads in English without raw keys, and fits a phone screen', async () => {
    await page.click('[data-testid="lang"]')
    await page.setViewportSize({ width: 390, height: 844 })
    await page.waitForSelector('[data-testid="sx-chart"] .cx-ytick')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('Today by hour').and.include('By model').and.include('Error log')
    expect(text).to.not.match(/\bsx\.\w/)
    // the chart is drawn at the phone's width, not squeezed: its svg is no wider than the page
    const width = await page.$eval('[data-testid="sx-chart"] .cx-plot > svg', (el) => el.getBoundingClientRect().width)
    expect(width).to.be.at.most(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
    await page.screenshot({ path: join(SHOTS, 'stats-phone-en.png'), fullPage: true })
    await page.click('[data-testid="lang"]')
    await page.setViewportSize({ width: 1440, height: 900 })
    expect(pageErrors).to.deep.equal([])
  })
})
