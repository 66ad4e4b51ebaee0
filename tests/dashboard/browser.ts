// Debian's chromium for the dashboard tests (flags that let it run headless in a container). launch() gives each run a
// new empty profile that playwright removes on close. openDashboard() and goTo() are the set-up every page test
// shares: a page logged in through a login link, its script errors collected, and a page opened through the menu.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { ensureDashboardBuilt } from '../../routes/_http/dashboard-build.js'
import type { TestServer } from '../support/server.js'

export const CHROMIUM = '/usr/bin/chromium'
export const PLUGIN_DIR = join(import.meta.dirname, '..', '..')
/** Where the tests put their screenshots; prepare() creates it. */
export const SHOTS = join(PLUGIN_DIR, 'screenshots')

/** Skips the suite (with the reason) when chromium is absent; builds the dashboard when dist is stale. */
export async function prepare (ctx: Mocha.Context): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.warn(`    dashboard e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`)
    ctx.skip()
  }
  await ensureDashboardBuilt(PLUGIN_DIR)
  if (!existsSync(join(PLUGIN_DIR, 'resources', 'dist', 'index.html'))) throw new Error('dashboard build missing after ensureDashboardBuilt')
  mkdirSync(SHOTS, { recursive: true })
}

export function launch (): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync']
  })
}

/** Logs `page` in through a fresh login link (`/login#token=...`) of a master and waits for the overview. */
export async function logIn (page: Page, s: TestServer, userId = '10001'): Promise<void> {
  const { token } = s.lx.rt.loginTokens.issue({ userId, isMaster: true })
  await page.goto(`${s.base}/login#token=${token}`)
  await page.waitForURL('**/overview')
}

interface DashboardPageOptions {
  /** 1440x900 by default, 390x844 with `phone`. */
  viewport?: { width: number, height: number }
  /** A phone: touch, a device scale of 2, the mobile viewport. */
  phone?: boolean
  /** Lets axe-core be injected inline despite the dashboard's CSP. */
  bypassCSP?: boolean
}

interface DashboardOptions extends DashboardPageOptions {
  /** The master who logs in; 10001 by default. */
  userId?: string
}

interface DashboardPage { page: Page, pageErrors: string[] }

/** A new page of `browser` (not logged in) whose uncaught script errors are collected in `pageErrors`. */
export async function newDashboardPage (browser: Browser, opts: DashboardPageOptions = {}): Promise<DashboardPage> {
  const page = await browser.newPage({
    viewport: opts.viewport ?? (opts.phone ? { width: 390, height: 844 } : { width: 1440, height: 900 }),
    ...(opts.phone ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}),
    ...(opts.bypassCSP ? { bypassCSP: true } : {})
  })
  const pageErrors: string[] = []
  page.on('pageerror', (e) => pageErrors.push(e.message))
  return { page, pageErrors }
}

/** A new page logged in through a login link, on the overview, its script errors collected in `pageErrors`. */
export async function openDashboard (browser: Browser, s: TestServer, opts: DashboardOptions = {}): Promise<DashboardPage> {
  const opened = await newDashboardPage(browser, opts)
  await logIn(opened.page, s, opts.userId)
  return opened
}

/**
 * Opens the page `name` through the menu (on a phone, through the menu button first when the menu is closed)
 * and waits until the address is the link's and the menu marks the page as current.
 */
export async function goTo (page: Page, name: string): Promise<void> {
  const menu = page.locator('[data-testid="menu-button"]')
  if (await menu.isVisible() && await menu.getAttribute('aria-expanded') !== 'true') await menu.click()
  const link = page.locator(`nav a[data-page="${name}"]`)
  const target = new URL(await link.getAttribute('href') ?? '', page.url()).pathname
  await link.click()
  await page.waitForURL((url) => url.pathname === target)
  await page.waitForFunction((n) => document.querySelector('nav a[aria-current="page"]')?.getAttribute('data-page') === n, name)
}
