// End-to-end in Debian's chromium: the overview's account-risk card (lib/guard, GET /api/guard). With
// nothing sent it says every chat is normal; after a burst in one group (its limit: 5 a minute) it
// lists that group as guarded with figure 100 and its main signal, and not the calm group; in English
// too. The sends go through the plugin's one watched send path. Screenshot: screenshots/.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { watchedSend } from '../../lib/host/port.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { launch, openDashboard, prepare, SHOTS } from './browser.js'


describe('dashboard: account-risk card on the overview (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    await s.lx.rt.config.update({ guard: { enabled: true }, groups: { 900: { guard: { maxPerMinute: 5 } } } as never })
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { viewport: { width: 1280, height: 900 } }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  it('says every chat is normal while nothing is at risk', async () => {
    await watchedSend({ groupId: '901' }, '你好', async () => ({ message_id: 'm0' }))
    await page.click('[data-testid="guard-card"] header button')
    await page.waitForSelector('[data-testid="guard-clear"]')
    expect(await page.textContent('[data-testid="guard-clear"]')).to.include('所有会话正常').and.include('1 个')
  })

  it('lists a group past its threshold as guarded with its figure and main signal, not the calm one', async () => {
    for (const word of ['一', '二', '三', '四', '五']) await watchedSend({ groupId: '900' }, `第${word}句话`, async () => ({ message_id: word }))
    await page.click('[data-testid="guard-card"] header button')
    await page.waitForSelector('[data-testid="guard-chat"]')
    const chats = await page.$$eval('[data-testid="guard-chat"]', (els) => els.map((e) => e.textContent))
    expect(chats).to.deep.equal(['群 900'])
    expect(await page.textContent('[data-testid="guard-state"]')).to.equal('风控中')
    expect(await page.textContent('[data-testid="guard-risk"]')).to.equal('100')
    const card = await page.textContent('[data-testid="guard-card"]') ?? ''
    expect(card).to.include('每分钟 5 条').and.include('账号风控')
    await page.locator('[data-testid="guard-card"]').screenshot({ path: join(SHOTS, 'overview-guard.png') })

    await page.evaluate(() => { localStorage.setItem('lingxi.lang', 'en') })
    await page.reload()
    await page.waitForSelector('[data-testid="guard-chat"]')
    expect(await page.textContent('[data-testid="guard-chat"]')).to.equal('group 900')
    expect(await page.textContent('[data-testid="guard-state"]')).to.equal('guarded')
    expect(await page.textContent('[data-testid="guard-card"]')).to.include('Account risk').and.include('5 a minute')
    expect(pageErrors).to.deep.equal([])
  })
})
