// End-to-end, on a 390x844 phone screen in Debian's chromium: the reminders page lists the pending
// reminders users set in chat (soonest first, with where they go and how they repeat), filters them
// by user and group, and cancels one (confirmed), which the API then no longer lists. Screenshot:
// screenshots/reminders-phone.png.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import sinon from 'sinon'
import { formatWall } from '../../lib/reminders/zoned.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { goTo, launch, openDashboard, prepare, SHOTS } from './browser.js'

/**
 * When the reminders are set: a Wednesday 23:57 UTC (Thursday 07:57 in Shanghai), so their order does not
 * hang on the real time (near UTC midnight "明天早上8点" was once read as today; on a Monday morning
 * 每周一9点 comes before tomorrow). The first such instant after `real`: the service's timer and the
 * browser stay on the real clock, and the reminders must still be ahead of it.
 */
function setAtFor (real: number): number {
  const d = new Date(real)
  let at = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 57)
  while (new Date(at).getUTCDay() !== 3 || at <= real) at += 86_400_000
  return at
}

describe('dashboard: reminders (chromium e2e, phone screen)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  const ids: Record<string, string> = {}

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    await s.login()
    const svc = s.lx.rt.need('reminders')
    await s.lx.rt.config.update({ reminders: { ...s.lx.rt.config.get().reminders, timezone: 'Asia/Shanghai' } })
    // only Date is faked, and only while they are set: the server, its sessions and the browser keep real time
    const setAt = setAtFor(Date.now())
    const clock = sinon.useFakeTimers({ now: setAt, toFake: ['Date'] })
    try {
      ids.water = (await svc.create({ userId: '20001', nickname: '小明', groupId: '555', isMaster: false, isGroupAdmin: false }, { when: '5分钟后', message: '喝水' })).id
      ids.report = (await svc.create({ userId: '20002', groupId: '666', isMaster: false, isGroupAdmin: true }, { when: '每周一9点', message: '发周报' })).id
      ids.call = (await svc.create({ userId: '20001', isMaster: false, isGroupAdmin: false }, { when: '明天早上8点', message: '给妈妈打电话' })).id
    } finally {
      clock.restore()
    }
    const due = (id: string): string => formatWall('Asia/Shanghai', svc.get(id)?.nextAt ?? 0).slice(11)
    expect([due(ids.water), due(ids.call), due(ids.report)]).to.deep.equal(['08:02', '08:00', '09:00'])
    expect((svc.get(ids.call)?.nextAt ?? 0) - setAt, 'tomorrow 08:00 in Shanghai, not today').to.equal(24 * 3600_000 + 3 * 60_000)
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s, { phone: true }))
  })

  after(async () => {
    await browser?.close()
    await s?.close()
  })

  const shown = async (): Promise<string[]> => page.$$eval('[data-testid^="rm-msg-"]', (els) => els.map((e) => e.textContent ?? ''))

  it('opens from the menu and lists the pending reminders soonest first, with chat and recurrence, fitting the phone', async () => {
    await goTo(page, 'reminders')
    await page.waitForSelector(`[data-testid="rm-msg-${ids.water}"]`)
    expect(await page.textContent('nav a[data-page="reminders"]')).to.equal('提醒')
    expect(await shown()).to.deep.equal(['喝水', '给妈妈打电话', '发周报'])
    const text = await page.textContent('main') ?? ''
    expect(text).to.include('小明 (20001)').and.include('群 555').and.include('私聊').and.include('每周一 09:00')
    expect(text).to.not.match(/\brm\.\w/)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
    await page.screenshot({ path: join(SHOTS, 'reminders-phone.png'), fullPage: true })
  })

  it('filters by user and by group', async () => {
    await page.fill('[data-testid="rm-user"]', '20001')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/reminders?userId=20001')), page.click('[data-testid="rm-filter"]')])
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="rm-msg-"]').length === 2)
    expect(await shown()).to.deep.equal(['喝水', '给妈妈打电话'])
    await page.fill('[data-testid="rm-user"]', '')
    await page.fill('[data-testid="rm-group"]', '666')
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/reminders?groupId=666')), page.click('[data-testid="rm-filter"]')])
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="rm-msg-"]').length === 1)
    expect(await shown()).to.deep.equal(['发周报'])
    await page.fill('[data-testid="rm-group"]', '')
    await page.click('[data-testid="rm-filter"]')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="rm-msg-"]').length === 3)
  })

  it('cancels a reminder after a confirmation that names it: gone from the page and from the API', async () => {
    await page.click(`[data-testid="rm-cancel-${ids.call}"]`)
    await page.waitForSelector('[data-testid="confirm-dialog"][open]')
    expect(await page.textContent('[data-testid="confirm-text"]')).to.include('打电话')
    await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/reminders/${ids.call}`) && r.request().method() === 'DELETE' && r.status() === 200),
      page.click('[data-testid="confirm-ok"]')
    ])
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="rm-msg-"]').length === 2)
    expect(await shown()).to.deep.equal(['喝水', '发周报'])
    expect(s.lx.rt.need('reminders').get(ids.call)).to.equal(undefined)
    const api = await s.api('/api/reminders')
    expect(api.body.data.map((r: { id: string }) => r.id)).to.deep.equal([ids.water, ids.report])
    expect(pageErrors).to.deep.equal([])
  })
})
