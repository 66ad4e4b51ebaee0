// End-to-end in Debian's chromium: the overview's storage card (GET /api/system/instances; README "Several
// bots"). Alone: the data folder's files, no Redis, this instance. Two instances sharing a real Redis: the
// card of one lists both by their instanceName, itself marked, and the Redis address without a password.
// Skipped, saying why, where redis-server is missing (tests/support/redis.ts).
import { expect } from 'chai'
import type { Browser, Page } from 'playwright-core'
import { startRedis, type TestRedis } from '../support/redis.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { launch, openDashboard, prepare } from './browser.js'

describe('dashboard: storage and instances on the overview (chromium e2e)', function () {
  this.timeout(120_000)
  let browser: Browser
  const servers: TestServer[] = []
  let redis: TestRedis | undefined

  before(async function () { await prepare(this); browser = await launch() })
  after(async () => {
    await browser?.close()
    for (const s of servers) await s.close()
    await redis?.stop()
  })

  const card = async (page: Page): Promise<string> => {
    await page.waitForSelector('[data-testid="instances-card"] [data-testid="instance-count"]')
    return await page.textContent('[data-testid="instances-card"]') ?? ''
  }

  it('alone: the data folder, no Redis, this instance', async () => {
    const s = await startTestServer()
    servers.push(s)
    await s.lx.rt.config.update({ storage: { instanceName: 'solo-bot' } })
    const { page, pageErrors } = await openDashboard(browser, s, { viewport: { width: 1280, height: 900 } })
    const text = await card(page)
    expect(await page.textContent('[data-testid="storage-database"]')).to.equal('本机数据文件夹')
    expect(await page.textContent('[data-testid="storage-redis"]')).to.equal('未使用')
    expect(await page.textContent('[data-testid="instance-count"]')).to.equal('1')
    expect(text).to.include('solo-bot').and.include('本实例')
    expect(pageErrors).to.deep.equal([])
    await page.close()
  })

  it('two instances sharing Redis: both listed on either, the password never shown', async function () {
    redis = await startRedis(this)
    // a password in the address: the card shows the address without it (the test Redis ignores it)
    const url = redis.url.replace('redis://', 'redis://:s3cret-pw@')
    process.env.LINGXI_REDIS_URL = url
    let a: TestServer, b: TestServer
    try {
      a = await startTestServer()
      b = await startTestServer()
    } finally {
      delete process.env.LINGXI_REDIS_URL
    }
    servers.push(a, b)
    await a.lx.rt.config.update({ storage: { instanceName: 'bot-a' } })
    await b.lx.rt.config.update({ storage: { instanceName: 'bot-b' } })
    // B's heartbeat with its new name (the route beats for its own instance before it answers)
    expect((await b.api('/api/system/instances')).status).to.equal(200)
    const { page, pageErrors } = await openDashboard(browser, a, { viewport: { width: 390, height: 844 } })
    const text = await card(page)
    expect(await page.textContent('[data-testid="instance-count"]')).to.equal('2')
    const names = await page.locator('[data-testid="instance-name"]').allTextContents()
    expect(names.map((n) => n.trim()).sort()).to.deep.equal(['bot-a (本实例)', 'bot-b'])
    expect(text).to.include(redis.url.replace('redis://', '')).and.not.include('s3cret-pw')
    expect(pageErrors).to.deep.equal([])
    await page.close()
  })
})
