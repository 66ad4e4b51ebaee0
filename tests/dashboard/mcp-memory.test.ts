// End-to-end in Debian's chromium (issue 21): the MCP page against the real server-everything from npm
// (edit a server, its tools with their schema, the resources and prompts browsers), the memory page
// (statistics, group memories, a deletion confirmed by name) and the contexts page (an active context
// cleared after a confirmation, the quick test against the fake model). Screenshots: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { EVERYTHING } from '../mcp/helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { seriousAxeViolations } from './axe.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'


describe('dashboard: MCP, memory, contexts and quick test (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let fake: FakeOpenAI
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    fake = await startFakeOpenAI({ models: ['mm-model'] })
    s = await startTestServer()
    await s.login()
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { bypassCSP: true })) // axe is injected inline
  })

  after(async () => {
    await browser?.close()
    await s?.close()
    await fake?.close()
  })

  const status = async (name: string): Promise<string | undefined> =>
    (await s.api('/api/mcp/servers')).body.data.find((x: { name: string }) => x.name === name)?.status
  const connected = async (name: string): Promise<void> => {
    for (let i = 0; i < 300 && await status(name) !== 'connected'; i++) await new Promise((r) => setTimeout(r, 100))
    expect(await status(name), name).to.equal('connected')
  }
  /** Confirms the open dialog after checking that it names `what`. */
  const confirmNaming = async (what: string): Promise<void> => {
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include(what)
    await page.click('[data-testid="confirm-ok"]')
  }

  it('MCP: edits a server (env added, reconnected), shows its tools with their schema', async function () {
    this.timeout(90_000)
    const add = await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'everything', config: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } })
    expect(add.status, add.text).to.be.oneOf([200, 201])
    await connected('everything')
    await goTo(page, 'mcp')
    await page.click('[data-testid="mcp-edit-everything"]')
    const form = '[data-testid="mcp-edit-form"]'
    await page.waitForSelector(form)
    expect(await page.inputValue(`${form} input[name=command]`)).to.equal(process.execPath)
    expect(await page.inputValue(`${form} input[name=args]`)).to.equal(`${EVERYTHING} stdio`)
    expect(await page.isDisabled(`${form} input[name=name]`)).to.equal(true)
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.fill(`${form} input[name=env]`, '{"LX_E2E_TOKEN": "edited-env-value-123"}')
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/mcp/servers/everything') && r.request().method() === 'PUT'),
      page.click('[data-testid="mcp-edit-save"]')
    ])
    expect(res.status()).to.equal(200)
    await page.waitForSelector('[data-testid="mcp-edit-card"]', { state: 'detached' })
    const stored = s.lx.rt.config.get().mcp.servers.everything as { env?: Record<string, string>, args?: string[] }
    expect(stored.env).to.deep.equal({ LX_E2E_TOKEN: 'edited-env-value-123' })
    expect(stored.args).to.deep.equal([EVERYTHING, 'stdio'])
    expect(await page.content()).to.not.include('edited-env-value-123')
    await connected('everything')
    // editing again and saving unchanged keeps the masked env value
    await page.click('[data-testid="mcp-refresh"]')
    await page.click('[data-testid="mcp-edit-everything"]')
    expect(await page.inputValue(`${form} input[name=env]`)).to.not.include('edited-env-value-123')
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/mcp/servers/everything') && r.request().method() === 'PUT'),
      page.click('[data-testid="mcp-edit-save"]')
    ])
    expect((s.lx.rt.config.get().mcp.servers.everything as { env?: Record<string, string> }).env).to.deep.equal({ LX_E2E_TOKEN: 'edited-env-value-123' })
    await connected('everything')
    await page.click('[data-testid="mcp-refresh"]')
    await page.waitForSelector('[data-testid="mcp-status-everything"][data-status="connected"]')
    await page.click('[data-testid="mcp-tools-everything"]')
    await page.click('[data-testid="mcp-tool-echo"] summary')
    expect(await page.textContent('[data-testid="mcp-tool-echo"] pre')).to.include('"message"')
  })

  it('MCP: browses the resources (read one) and the prompts (get one with an argument)', async () => {
    await page.waitForSelector('[data-testid="mcp-resources"] table tbody tr')
    const uri = (await s.api('/api/mcp/resources')).body.data[0].uri as string
    await page.click(`[data-testid="mcp-read-${uri}"]`)
    await page.waitForSelector('[data-testid="mcp-resource-content"] pre')
    const direct = (await s.api('/api/mcp/resources/read', { method: 'POST', json: { serverName: 'everything', uri } })).body.data.contents[0]
    const shown = await page.textContent('[data-testid="mcp-resource-content"]') ?? ''
    expect(shown).to.include(String(direct.text ?? '').slice(0, 40) || 'base64')

    await page.click('[data-testid="mcp-prompt-args-prompt"]')
    await page.fill('[data-testid="mcp-prompt-arg-city"]', 'Hangzhou')
    await page.click('[data-testid="mcp-prompt-get"]')
    await page.waitForSelector('[data-testid="mcp-prompt-result"]')
    expect(await page.textContent('[data-testid="mcp-prompt-result"]')).to.include('Hangzhou')
    expect(await seriousAxeViolations(page)).to.deep.equal([]) // a resource read, a prompt's form and result
    await page.screenshot({ path: join(SHOTS, 'mcp-browsers.png'), fullPage: true })
  })

  it('MCP: deleting a server asks first, naming it; cancel keeps it', async () => {
    await page.click('[data-testid="mcp-delete-everything"]')
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include('everything')
    await page.click('[data-testid="confirm-cancel"]')
    expect(await status('everything')).to.equal('connected')
    await page.click('[data-testid="mcp-delete-everything"]')
    await confirmNaming('everything')
    await page.waitForSelector('[data-testid="mcp-status-everything"]', { state: 'detached' })
    expect(await status('everything')).to.equal(undefined)
  })

  it('memory: statistics, a group\'s memories, and a deletion confirmed by naming the memory', async () => {
    const mem = s.lx.rt.need('memory')
    await mem.add({ userId: '50001', groupId: '60001', content: '群里大家都喜欢猫', category: 'topic' })
    const gone = await mem.add({ userId: '50002', groupId: '60001', content: '周五晚上一起打羽毛球', category: 'event' })
    await mem.add({ userId: '50001', content: 'private note about tea', category: 'preference' })
    const stats = (await s.api('/api/memory/stats')).body.data
    await goTo(page, 'memory')
    await page.waitForSelector('[data-testid="memory-stats-total"]')
    expect(await page.textContent('[data-testid="memory-stats-total"]')).to.equal(String(stats.total))
    expect(await page.textContent('[data-testid="memory-stats-users"]')).to.equal(String(stats.users))
    expect(await page.textContent('[data-testid="memory-stats-categories"]')).to.include('兴趣话题').and.include('事件')
    await page.fill('[data-testid="memory-group-id"]', '60001')
    await page.click('[data-testid="memory-group-show"]')
    await page.waitForSelector(`[data-testid="memory-group-row-${gone.id}"]`)
    const group = await page.textContent('[data-testid="memory-group"]') ?? ''
    expect(group).to.include('群里大家都喜欢猫').and.include('50002').and.not.include('private note about tea')
    await page.click(`[data-testid="memory-group-delete-${gone.id}"]`)
    await confirmNaming('周五晚上一起打羽毛球')
    await page.waitForSelector(`[data-testid="memory-group-row-${gone.id}"]`, { state: 'detached' })
    expect(mem.get(gone.id)).to.equal(undefined)
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'memory-group.png'), fullPage: true })
  })

  it('contexts: an active context is listed and cleared after a confirmation naming it; the quick test answers', async () => {
    expect((await s.api('/api/config/channels', { method: 'POST', json: { name: 'mm', baseUrl: fake.url, apiKey: 'sk-mm-0001', model: 'mm-model' } })).status).to.equal(200)
    expect((await s.api('/api/chat', { method: 'POST', json: { message: 'hello there', userId: '70001' } })).status).to.equal(200)
    await goTo(page, 'contexts')
    await page.waitForSelector('[data-testid="ct-row-private:70001"]')
    await page.click('[data-testid="ct-clear-private:70001"]')
    await confirmNaming('private:70001')
    await page.waitForSelector('[data-testid="ct-row-private:70001"]', { state: 'detached' })
    const list = (await s.api('/api/context/list')).body.data as Array<{ conversationId: string }>
    expect(list.map((c) => c.conversationId)).to.not.include('private:70001')

    const before = fake.chatRequests().length
    await page.fill('[data-testid="ct-message"]', 'quick ping from the dashboard')
    await page.click('[data-testid="ct-send"]')
    await page.waitForSelector('[data-testid="ct-result"][data-success="true"]')
    expect(await page.textContent('[data-testid="ct-answer"]')).to.equal('echo: quick ping from the dashboard')
    expect(fake.chatRequests().length).to.equal(before + 1)
    expect(fake.chatRequests().at(-1)?.body.model).to.equal('mm-model')
    expect(await seriousAxeViolations(page)).to.deep.equal([])
    await page.screenshot({ path: join(SHOTS, 'contexts.png'), fullPage: true })
    // a model the provider refuses shows the failure
    await page.fill('[data-testid="ct-model"]', 'fail-500')
    await page.click('[data-testid="ct-send"]')
    await page.waitForSelector('[data-testid="ct-result"][data-success="false"]')
    expect(pageErrors).to.deep.equal([])
  })
})
