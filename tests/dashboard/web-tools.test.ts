// End-to-end, on a 390x844 phone screen in Debian's chromium: the web tools page (issue 19) adds search
// providers (a fake SearXNG on 127.0.0.1 and a Tavily with a key), keeps a masked key when the list is
// saved again, shows a server validation error, edits the fetch limits, and the tools page lists
// web_search and fetch_url. Each change is read back through the HTTP API. Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { maskSecret } from '../../lib/config/secrets.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { startFakeProvider, type FakeProvider } from '../web-tools/fakes.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

const KEY = 'tvly-dashboard-key-0123456789'

describe('dashboard: web tools (chromium e2e, phone screen)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let searx: FakeProvider
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    searx = await startFakeProvider('searxng')
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { phone: true }))
  })

  after(async () => {
    await browser?.close()
    await searx?.close()
    await s?.close()
  })

  const saveAndWait = async (button: string, url: RegExp): Promise<number> => {
    const [res] = await Promise.all([page.waitForResponse((r) => url.test(r.url()) && r.request().method() === 'PUT'), page.click(button)])
    return res.status()
  }
  const stored = () => s.lx.rt.config.get().webTools

  it('opens from the menu in zh-CN with a label and help for every field, no raw keys, fitting the phone', async () => {
    await goTo(page, 'webTools')
    await page.waitForSelector('[data-testid="wt-none"]')
    // the settings forms render once the configuration schema has come
    await page.waitForSelector('[data-testid="wt-fetch"] input[name="webTools.fetch.allowPrivate"]')
    expect(await page.textContent('nav a[data-page="webTools"]')).to.equal('网络工具')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('搜索服务').and.include('允许读取内网地址').and.include('最多下载字节数')
    expect(text).to.not.match(/\b(wt|bs|bv)\.\w/)
    const helpless = await page.$$eval('main .field', (fs) => fs.filter((f) => !f.querySelector('small.help')?.textContent?.trim()).map((f) => f.textContent))
    expect(helpless).to.deep.equal([])
    expect(await page.isChecked('[data-testid="wt-fetch"] input[name="webTools.fetch.allowPrivate"]')).to.equal(false)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
  })

  it('adds a SearXNG provider and a Tavily provider with a key; the key is stored, shown masked, and kept when saved again', async () => {
    await page.click('[data-testid="wt-add"]')
    const p0 = '[data-testid="wt-provider-0"]'
    await page.fill(`${p0} input[name="name"]`, 'my-searx')
    await page.selectOption(`${p0} select[name="type"]`, 'searxng')
    await page.fill(`${p0} input[name="baseUrl"]`, searx.url)
    await page.click('[data-testid="wt-add"]')
    const p1 = '[data-testid="wt-provider-1"]'
    await page.fill(`${p1} input[name="name"]`, 'tavily')
    await page.selectOption(`${p1} select[name="type"]`, 'tavily')
    await page.fill(`${p1} input[name="order"]`, '2')
    await page.click('[data-testid="wt-addkey-1"]')
    await page.fill(`${p1} input[name="key0"]`, KEY)
    expect(await saveAndWait('[data-testid="wt-save"]', /\/api\/config\/webTools$/)).to.equal(200)
    expect(stored().search.providers.map((p) => [p.name, p.type, p.baseUrl, p.order, p.apiKeys.map((k) => k.key)])).to.deep.equal([
      ['my-searx', 'searxng', searx.url, 0, []], ['tavily', 'tavily', '', 2, [KEY]]
    ])
    // after the reload the key field holds the mask, never the key
    await page.waitForFunction((mask) => (document.querySelector('[data-testid="wt-provider-1"] input[name="key0"]') as HTMLInputElement | null)?.value === mask, maskSecret(KEY))
    expect(await page.content()).to.not.include(KEY)
    // another change saved with the masked key: the stored key stays
    await page.fill(`${p1} input[name="order"]`, '3')
    expect(await saveAndWait('[data-testid="wt-save"]', /\/api\/config\/webTools$/)).to.equal(200)
    expect(stored().search.providers[1]).to.deep.include({ order: 3 })
    expect(stored().search.providers[1]!.apiKeys[0]!.key).to.equal(KEY)
    // what the page set up answers: web_search through the fake SearXNG
    const r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'web_search', args: { query: 'from the dashboard' } } })
    expect(JSON.parse(r.body.data.result.content[0].text).provider).to.equal('my-searx')
    await page.screenshot({ path: join(SHOTS, 'web-tools-phone.png'), fullPage: true })
  })

  it('a SearXNG provider without an address is refused by the server and the error is shown', async () => {
    const p0 = '[data-testid="wt-provider-0"]'
    await page.fill(`${p0} input[name="baseUrl"]`, '')
    expect(await saveAndWait('[data-testid="wt-save"]', /\/api\/config\/webTools$/)).to.equal(400)
    await page.waitForFunction(() => document.querySelector('[data-testid="wt-providers"] .error')?.textContent?.includes('SearXNG'))
    expect(stored().search.providers[0]!.baseUrl).to.equal(searx.url)
    await page.fill(`${p0} input[name="baseUrl"]`, searx.url)
  })

  it('edits the fetch limits and the private-address switch, read back through the API', async () => {
    const f = '[data-testid="wt-fetch"]'
    await page.check(`${f} input[name="webTools.fetch.allowPrivate"]`)
    await page.fill(`${f} input[name="webTools.fetch.maxChars"]`, '3000')
    expect(await saveAndWait('[data-testid="wt-fetch-save"]', /\/api\/config$/)).to.equal(200)
    expect((await s.api('/api/config/webTools')).body.data.fetch).to.include({ allowPrivate: true, maxChars: 3000, maxBytes: 2000000 })
    await page.uncheck(`${f} input[name="webTools.fetch.allowPrivate"]`)
    expect(await saveAndWait('[data-testid="wt-fetch-save"]', /\/api\/config$/)).to.equal(200)
    expect(stored().fetch.allowPrivate).to.equal(false)
  })

  it('the tools page lists web_search and fetch_url; in English the page has no raw keys either', async () => {
    await goTo(page, 'tools')
    // the rows, not the page's note about /mcp (which names fetch_url while the list still loads)
    await page.waitForSelector('[data-testid="mcp-offer-fetch_url"]')
    expect(await page.textContent('main')).to.include('web_search')
    await page.click('[data-testid="lang"]')
    await goTo(page, 'webTools')
    await page.waitForSelector('[data-testid="wt-provider-0"]')
    await page.waitForSelector('[data-testid="wt-fetch"] input[name="webTools.fetch.allowPrivate"]')
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('Search providers').and.include('Allow private addresses')
    expect(text).to.not.match(/\b(wt|bs|bv)\.\w/)
    await page.screenshot({ path: join(SHOTS, 'web-tools-en-phone.png'), fullPage: true })
    await page.click('[data-testid="lang"]')
    expect(pageErrors).to.deep.equal([])
  })
})
