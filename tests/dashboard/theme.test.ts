// The colour scheme switch in Debian's chromium: light, dark or the system's, kept in localStorage and
// applied before the first paint under the dashboard's Content-Security-Policy (no inline script: a
// blocking script file of its own, resources/src/theme-boot.js). "No light frame" is checked with the
// application's script held back: what the page draws before main.tsx runs must already be dark.
import { expect } from 'chai'
import { join } from 'node:path'
import type { Browser, Page, Route } from 'playwright-core'
import { DASHBOARD_CSP } from '../../routes/_http/static.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { launch, openDashboard, prepare, SHOTS } from './browser.js'

const LIGHT_BG = 'rgb(246, 247, 251)' // style.css --bg
const DARK_BG = 'rgb(18, 20, 25)'

const bodyBg = (page: Page): Promise<string> => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

describe('dashboard: colour scheme switch (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  const cspReports: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s))
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspReports.push(m.text()) })
    // the colour the page paints at DOMContentLoaded, recorded on every load
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { lxFirstBg: string }).lxFirstBg = getComputedStyle(document.body).backgroundColor
      })
    })
  })
  after(async () => {
    await browser?.close()
    await s?.close()
  })

  it('starts with the system\'s scheme and follows its emulation', async () => {
    expect(await page.locator('[data-testid="theme"]').inputValue()).to.equal('system')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await bodyBg(page)).to.equal(LIGHT_BG)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await bodyBg(page)).to.equal(DARK_BG)
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('switches to dark, and a reload is dark before the application\'s script runs', async () => {
    await page.selectOption('[data-testid="theme"]', 'dark')
    expect(await bodyBg(page)).to.equal(DARK_BG)
    expect(await page.evaluate(() => localStorage.getItem('lingxi.theme'))).to.equal('dark')
    // hold the application's module back: only the page, its stylesheet and the pre-paint script load
    let held: Route | undefined
    const heldBack = new Promise<void>((resolve) => {
      void page.route(/\/assets\/index-[\w-]+\.js$/, (route) => { held = route; resolve() })
    })
    try {
      await page.reload({ waitUntil: 'commit' })
      await heldBack
      await page.waitForFunction(() => document.body !== null && getComputedStyle(document.body).backgroundColor !== 'rgba(0, 0, 0, 0)')
      expect(await page.locator('#app').innerHTML(), 'the application has not run').to.equal('')
      expect(await bodyBg(page), 'drawn dark before the application ran').to.equal(DARK_BG)
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).to.equal('dark')
    } finally {
      await held?.continue()
      await page.unroute(/\/assets\/index-[\w-]+\.js$/)
    }
    await page.waitForSelector('[data-testid="theme"]')
    expect(await page.evaluate(() => (window as unknown as { lxFirstBg?: string }).lxFirstBg)).to.equal(DARK_BG)
    expect(await page.locator('[data-testid="theme"]').inputValue()).to.equal('dark')
    // a dark choice holds against a light system, a light one against a dark system
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await bodyBg(page)).to.equal(DARK_BG)
    await page.selectOption('[data-testid="theme"]', 'light')
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await bodyBg(page)).to.equal(LIGHT_BG)
    await page.reload()
    await page.waitForSelector('[data-testid="theme"]')
    expect(await page.evaluate(() => (window as unknown as { lxFirstBg?: string }).lxFirstBg)).to.equal(LIGHT_BG)
  })

  it('back to the system\'s: the stored choice is removed and the emulated scheme rules again', async () => {
    await page.selectOption('[data-testid="theme"]', 'system')
    expect(await page.evaluate(() => localStorage.getItem('lingxi.theme'))).to.equal(null)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await bodyBg(page)).to.equal(DARK_BG)
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await bodyBg(page)).to.equal(LIGHT_BG)
  })

  it('fits the header on a phone (390x844) in both languages', async () => {
    const phone = await openDashboard(browser, s, { phone: true })
    for (const lang of ['zh', 'en']) {
      await phone.page.evaluate((l) => { localStorage.setItem('lingxi.lang', l) }, lang)
      await phone.page.reload()
      await phone.page.waitForSelector('[data-testid="theme"]')
      expect(await phone.page.locator('[data-testid="theme"]').isVisible(), lang).to.equal(true)
      const fits = await phone.page.evaluate(() => { const top = document.querySelector('.top')!; return top.scrollWidth <= top.clientWidth })
      expect(fits, `${lang}: the header's items fit its width`).to.equal(true)
      expect(await phone.page.evaluate(() => document.querySelector('.top')!.getBoundingClientRect().right <= innerWidth), `${lang}: the header within the screen`).to.equal(true)
    }
    await phone.page.screenshot({ path: join(SHOTS, 'theme-phone.png') })
    expect(phone.pageErrors).to.deep.equal([])
  })

  it('is on the login page too, and nothing weakened the Content-Security-Policy', async () => {
    const res = await page.goto(`${s.base}/login`)
    expect(res?.headers()['content-security-policy']).to.equal(DASHBOARD_CSP)
    expect(DASHBOARD_CSP).to.match(/script-src 'self'(;|$)/)
    await page.selectOption('[data-testid="theme"]', 'dark')
    expect(await bodyBg(page)).to.equal(DARK_BG)
    expect(cspReports, 'no script or style refused by the CSP').to.deep.equal([])
    expect(pageErrors).to.deep.equal([])
  })
})
