// End-to-end in Debian's chromium: the tools page's per-tool "offered on /mcp" switch (PUT /api/tools/:name/mcp,
// config mcp.server.offeredTools / withheldTools). fetch_url is off on our /mcp by default; the owner switches it
// on in its row, which the HTTP API (GET /api/tools/:name, GET /api/tools, the configuration) and an MCP client
// holding the endpoint's key (the SDK's real Client, tools/list) see, then off again. A refused switch is shown
// as the page shows its other errors (an alert toast) and the box shows the server's state again.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, newDashboardPage, logIn, prepare, SHOTS } from './browser.js'

const KEY = 'mcp-offer-dashboard-key-0123456789'
const TOOL = 'fetch_url'
const BOX = `[data-testid="mcp-offer-${TOOL}"]`

describe('dashboard: a tool offered on our /mcp (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.lx.rt.config.update({ mcp: { server: { apiKey: KEY } } })
    browser = await launch()
    ;({ page, pageErrors } = await newDashboardPage(browser, { bypassCSP: true }))
    await logIn(page, s)
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  /** The tools an MCP client holding the key is offered (tools/list on a session of its own). */
  const mcpTools = async (): Promise<string[]> => {
    const client = new Client({ name: 'dashboard-offer-test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp/`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }))
    try {
      return (await client.listTools()).tools.map((t) => t.name)
    } finally {
      await client.close().catch(() => undefined)
    }
  }
  const offeredByApi = async (): Promise<{ one: boolean, listed: boolean }> => {
    const one = await s.api(`/api/tools/${TOOL}`)
    expect(one.status, one.text).to.equal(200)
    const all = await s.api('/api/tools')
    expect(all.status, all.text).to.equal(200)
    const listed = (all.body.data.tools as Array<{ name: string, offeredOnMcp: boolean }>).find((t) => t.name === TOOL)
    expect(listed, `${TOOL} in GET /api/tools`).to.not.equal(undefined)
    return { one: one.body.data.offeredOnMcp, listed: listed!.offeredOnMcp }
  }
  /** Clicks the switch, waits for the server's answer and for the box to show `want` (the state read back). */
  const flip = async (want: boolean): Promise<number> => {
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/tools/${TOOL}/mcp`) && r.request().method() === 'PUT'),
      page.click(BOX)
    ])
    await page.waitForFunction(([sel, w]) => (document.querySelector(sel as string) as HTMLInputElement | null)?.checked === w, [BOX, want] as const)
    return res.status()
  }

  it('fetch_url starts off on /mcp: its box is unticked, the API and an MCP client agree', async () => {
    await goTo(page, 'tools')
    await page.waitForSelector(BOX)
    expect(await page.isChecked(BOX)).to.equal(false)
    expect(await page.isChecked('[data-testid="mcp-offer-get_current_time"]'), 'a default-on tool').to.equal(true)
    expect(await page.getAttribute(BOX, 'aria-label')).to.equal('通过 /mcp 提供工具 fetch_url')
    expect(await page.textContent('[data-testid="tl-mcp-hint"]')).to.include('/mcp').and.include('密钥')
    expect(await offeredByApi()).to.deep.equal({ one: false, listed: false })
    const listed = await mcpTools()
    expect(listed).to.include('get_current_time')
    expect(listed).to.not.include(TOOL)
  })

  it('ticked, fetch_url is offered: the configuration, GET /api/tools(/fetch_url) and the /mcp tools/list say so', async () => {
    expect(await flip(true)).to.equal(200)
    await page.waitForSelector('.toast:not(.err)')
    expect(s.lx.rt.config.get().mcp.server.offeredTools).to.deep.equal([TOOL])
    expect(await offeredByApi()).to.deep.equal({ one: true, listed: true })
    expect(await mcpTools()).to.include(TOOL)
    await page.screenshot({ path: join(SHOTS, 'tools-mcp-offer.png'), fullPage: false })
    expect(await seriousAxeViolations(page)).to.deep.equal([])
  })

  it('a refused switch shows the error as an alert and the box the server\'s state again', async () => {
    await page.route(`**/api/tools/${TOOL}/mcp`, (route) => route.fulfill({
      status: 404, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'TOOL_NOT_FOUND', message: `Tool ${TOOL} does not exist` })
    }))
    try {
      // the click unticks the box; the page reads the server's state (still offered) back
      expect(await flip(true)).to.equal(404)
      await page.waitForSelector('.toast.err[role="alert"]')
      expect(await page.textContent('.toast.err')).to.not.equal('')
    } finally {
      await page.unroute(`**/api/tools/${TOOL}/mcp`)
    }
    expect(s.lx.rt.config.get().mcp.server.offeredTools).to.deep.equal([TOOL])
  })

  it('unticked again, fetch_url leaves /mcp and its name the configuration; in English the column reads "Offered on /mcp"', async () => {
    expect(await flip(false)).to.equal(200)
    expect(s.lx.rt.config.get().mcp.server).to.deep.include({ offeredTools: [], withheldTools: [] })
    expect(await offeredByApi()).to.deep.equal({ one: false, listed: false })
    expect(await mcpTools()).to.not.include(TOOL)
    await page.click('[data-testid="lang"]')
    await page.waitForFunction(() => document.querySelector('main')?.textContent?.includes('Offered on /mcp'))
    expect(await page.getAttribute(BOX, 'aria-label')).to.equal('Offer the tool fetch_url on /mcp')
    expect(await page.textContent('[data-testid="tl-mcp-hint"]')).to.include('key').and.include('fetch_url')
    expect(pageErrors).to.deep.equal([])
  })
})
