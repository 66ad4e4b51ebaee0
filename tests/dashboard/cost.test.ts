// End-to-end in Debian's chromium: the cost page (issue 20 point 3). A real chat turn against the fake
// model records 1,000,000 tokens; the page shows them unpriced, the price table is edited on the page
// (currency, timezone, a price), and the figures become the right cost per day, model, channel, group
// and user; a bad price is refused (in the page and by the server); the channel page shows this month's
// spending against the channel's budget and edits the budget; the share of input served from cache (per
// model and channel) and the money it saved in the period. Read back through the HTTP API.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'


describe('dashboard: cost (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI()
    s = await startTestServer()
    await s.lx.rt.config.update({
      memory: { ...s.lx.rt.config.get().memory, enabled: false },
      channels: [{ name: 'main', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', monthlyBudget: 5 }]
    })
    // 150,000 of the 600,000 input tokens served from the provider's cache: 25 %
    fake.enqueue({ content: 'priced', usage: { prompt_tokens: 600_000, completion_tokens: 400_000, prompt_tokens_details: { cached_tokens: 150_000 } } })
    const r = await s.api('/api/chat', { method: 'POST', json: { message: 'hello', userId: 'u-e2e', groupId: 'g-e2e' } })
    expect(r.status, r.text).to.equal(200)
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { viewport: { width: 1280, height: 900 } }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const textOf = async (sel: string): Promise<string> => (await page.textContent(sel)) ?? ''
  const save = async (button: string, url: RegExp): Promise<number> => {
    const [res] = await Promise.all([page.waitForResponse((r) => url.test(r.url()) && r.request().method() === 'PUT'), page.click(button)])
    return res.status()
  }

  it('opens from the menu in zh-CN: without prices the recorded tokens show as unpriced, not 0', async () => {
    await goTo(page, 'cost')
    expect(await textOf('nav a[data-page="cost"]')).to.equal('费用')
    await page.waitForSelector('[data-testid="co-noprices"]')
    await page.waitForSelector('[data-testid="co-total"] [data-cost="none"]')
    expect(await textOf('[data-testid="co-total"]')).to.equal('未定价')
    expect(await textOf('[data-testid="co-unpriced"]')).to.equal((1_000_000).toLocaleString('en-US'))
    await page.waitForSelector('[data-testid="co-models"] td')
    expect(await textOf('[data-testid="co-models"]')).to.include('gpt-test').and.include('未定价')
    // the share of input from cache is known without prices; what it saved is not
    expect(await page.getAttribute('[data-testid="co-cache"]', 'data-saved')).to.equal('none')
    expect(await textOf('[data-testid="co-cache"]')).to.equal('缓存命中 25%，节省 未定价')
    expect(await textOf('[data-testid="co-models"] td [data-share]')).to.equal('25%')
    expect(await textOf('main')).to.not.match(/\bco\.\w/)
  })

  it('edits the price table; the figures become the cost per day, model, channel, group and user', async () => {
    await page.fill('#co-currency', 'CNY')
    await page.fill('#co-timezone', 'Asia/Shanghai')
    await page.click('[data-testid="co-add"]')
    const row = '[data-testid="co-price-0"]'
    await page.fill(`${row} input[name="model-0"]`, 'gpt-test')
    await page.fill(`${row} input[name="input-0"]`, '2.5')
    await page.fill(`${row} input[name="output-0"]`, '10')
    expect(await save('[data-testid="co-save"]', /\/api\/config\/pricing$/)).to.equal(200)
    expect(s.lx.rt.config.get().pricing).to.deep.equal({ currency: 'CNY', timezone: 'Asia/Shanghai', models: [{ model: 'gpt-test', input: 2.5, output: 10 }] })
    // 600,000 × 2.5 + 400,000 × 10 per million = 5.5 (no cachedInput price: cached input costs the input price)
    await page.waitForSelector('[data-testid="co-total"] [data-cost="5.5"]')
    await page.waitForSelector('[data-testid="co-cache"][data-saved="0"]')
    expect(await textOf('[data-testid="co-cache"]')).to.equal('缓存命中 25%，节省 0 CNY')
    expect(await textOf('[data-testid="co-total"]')).to.equal('5.5 CNY')
    expect(await textOf('[data-testid="co-daily"] table')).to.include('5.5 CNY')
    await page.waitForSelector('[data-testid="co-models"] td [data-cost="5.5"]')
    await page.waitForSelector('[data-testid="co-groups"] td [data-cost="5.5"]')
    await page.waitForSelector('[data-testid="co-users"] td [data-cost="5.5"]')
    expect(await textOf('[data-testid="co-users"]')).to.include('u-e2e')
    // the channel spent 5.5 of its budget of 5 this month: not used until the month ends
    await page.waitForSelector('[data-testid="co-channels"] [data-exhausted="true"]')
    expect(await textOf('[data-testid="co-channels"]')).to.include('预算已用完')
    const api = (await s.api('/api/stats/models')).body.data.models[0]
    expect(api).to.include({ model: 'gpt-test', cost: 5.5 })
    await page.screenshot({ path: join(SHOTS, 'cost.png'), fullPage: true })
  })

  it('with a cached-input price: the share of input from cache per model and channel, and the money it saved', async () => {
    const row = '[data-testid="co-price-0"]'
    await page.fill(`${row} input[name="cached-0"]`, '1.25')
    expect(await save('[data-testid="co-save"]', /\/api\/config\/pricing$/)).to.equal(200)
    // 150,000 cached tokens × (2.5 − 1.25) per million = 0.1875 saved; the cost is 5.5 − 0.1875
    await page.waitForSelector('[data-testid="co-cache"][data-saved="0.1875"]')
    expect(await textOf('[data-testid="co-cache"]')).to.equal('缓存命中 25%，节省 0.1875 CNY')
    await page.waitForSelector('[data-testid="co-total"] [data-cost="5.3125"]')
    await page.waitForSelector('[data-testid="co-models"] td [data-share="0.25"]')
    expect(await textOf('[data-testid="co-models"] td [data-share]')).to.equal('25%')
    await page.waitForSelector('[data-testid="co-channels"] td [data-share="0.25"]')
    const day = (await s.api('/api/stats?period=month')).body.data
    expect(day).to.include({ cachedShare: 0.25, cacheSaved: 0.1875, cost: 5.3125 })
    expect((await s.api('/api/stats/channels')).body.data.channels[0]).to.include({ id: 'main', cachedShare: 0.25, cacheSaved: 0.1875 })
    // back to the price without cachedInput: the tests below expect 5.5
    await page.fill(`${row} input[name="cached-0"]`, '')
    expect(await save('[data-testid="co-save"]', /\/api\/config\/pricing$/)).to.equal(200)
    await page.waitForSelector('[data-testid="co-total"] [data-cost="5.5"]')
  })

  it('refuses a price that is not a number in the page, and shows the server\'s error for a bad timezone', async () => {
    const row = '[data-testid="co-price-0"]'
    await page.fill(`${row} input[name="input-0"]`, 'abc')
    await page.click('[data-testid="co-save"]')
    await page.waitForSelector('[data-testid="co-prices"] .error')
    expect(s.lx.rt.config.get().pricing.models[0]!.input).to.equal(2.5)
    await page.fill(`${row} input[name="input-0"]`, '2.5')
    await page.fill('#co-timezone', 'Mars/Olympus')
    expect(await save('[data-testid="co-save"]', /\/api\/config\/pricing$/)).to.equal(400)
    await page.waitForFunction(() => document.querySelector('[data-testid="co-prices"] .error')?.textContent?.includes('timezone'))
    expect(s.lx.rt.config.get().pricing.timezone).to.equal('Asia/Shanghai')
    await page.fill('#co-timezone', 'Asia/Shanghai')
  })

  it('the channel page shows the month\'s spending against the budget and edits the budget', async () => {
    await goTo(page, 'channels')
    await page.waitForSelector('[data-testid="channel-spent"]')
    expect(await page.getAttribute('[data-testid="channel-spent"]', 'data-exhausted')).to.equal('true')
    expect(await textOf('[data-testid="channel-spent"]')).to.include('5.5 CNY / 5 CNY')
    await page.click('[data-testid="edit-main"]')
    const form = '[data-testid="channel-form"]'
    expect(await page.inputValue(`${form} input[name=monthlyBudget]`)).to.equal('5')
    await page.fill(`${form} input[name=monthlyBudget]`, '10')
    expect(await save('[data-testid="channel-save"]', /\/api\/config\/channels\/main$/)).to.equal(200)
    expect(s.lx.rt.config.get().channels[0]!.monthlyBudget).to.equal(10)
    await page.waitForSelector('[data-testid="channel-spent"][data-exhausted="false"]')
    expect((await s.api('/api/config/channels/main')).body.data.spending).to.include({ spent: 5.5, budget: 10, exhausted: false })
  })

  it('reads in English without raw keys', async () => {
    await page.click('[data-testid="lang"]')
    await goTo(page, 'cost')
    await page.waitForSelector('[data-testid="co-total"] [data-cost="5.5"]')
    const text = await textOf('main')
    expect(text).to.include('Price table').and.include('Cost per day').and.include('By channel')
    expect(await textOf('[data-testid="co-cache"]')).to.equal('25% of input from cache, saved 0 CNY')
    expect(text).to.not.match(/\bco\.\w/)
    await page.screenshot({ path: join(SHOTS, 'cost-en.png'), fullPage: true })
    await page.click('[data-testid="lang"]')
    expect(pageErrors).to.deep.equal([])
  })
})
