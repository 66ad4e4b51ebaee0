// Debian's chromium for the dashboard tests (flags that let it run headless in a container), launched once per test
// process; launch() gives each suite a handle of its own whose contexts each start from a new empty profile.
// openDashboard() and goTo() are the set-up every page test shares: a page logged in through a login link, its
// script errors collected, and a page opened through the menu.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
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

function launchChromium (): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync']
  })
}

/** The chromium of this process, launched by the first suite that asks (a launch costs about 2.5 CPU seconds). */
let shared: Promise<Browser> | undefined

// Closed once the run is done (a root `after`: once per mocha process, once per file in a parallel worker), so that
// chromium ends as the test process's child and its CPU counts in the run's figures; without mocha, at exit.
if (typeof after === 'function') {
  after(async () => {
    const b = shared ? await shared.catch(() => undefined) : undefined
    shared = undefined
    await b?.close()
  })
}

/**
 * A suite's chromium: one process per test process, shared by the files that run in it one after the other
 * (the browser group of tests/support/run.ts runs them in one process). Each suite gets its own handle: its
 * pages and contexts are its own (playwright gives each context a fresh profile: no cookie, storage or cache
 * of another suite), and its close() closes them, not the browser; chromium ends with the test process. A
 * browser that crashed or was closed is launched again.
 */
export async function launch (): Promise<Browser> {
  let real = shared ? await shared.catch(() => undefined) : undefined
  if (!real?.isConnected()) {
    shared = launchChromium()
    real = await shared
  }
  const browser = real
  const mine = new Set<BrowserContext>()
  let closed = false
  const own = (ctx: BrowserContext): BrowserContext => { mine.add(ctx); ctx.once('close', () => mine.delete(ctx)); return ctx }
  return new Proxy(browser, {
    get (target, prop) {
      if (prop === 'newContext') return async (...args: Parameters<Browser['newContext']>) => own(await target.newContext(...args))
      if (prop === 'newPage') return async (...args: Parameters<Browser['newPage']>) => { const page = await target.newPage(...args); own(page.context()); return page }
      if (prop === 'contexts') return () => [...mine]
      if (prop === 'isConnected') return () => !closed && target.isConnected()
      if (prop === 'close') {
        return async () => {
          closed = true
          await Promise.all([...mine].map((c) => c.close().catch(() => undefined)))
        }
      }
      const value: unknown = Reflect.get(target, prop)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    }
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
