// End-to-end in Debian's chromium: the overview's version card (GET /api/system/version, POST
// /api/system/version/check). It shows the running checkout's version and commit; with the `update`
// service pointed at a temp git checkout that follows a bare "remote", "check for updates" says it is up
// to date, then, after a commit is pushed to the remote, "1 new commit" with its subject; a failed fetch
// is said in the owner's words, and so is a refusal, chosen by its `details.reason` (never the English message); a checkout changed by hand carries the badge; packages the loader found
// missing show a warning at the top of the card with the features off and the command (copyable), in
// zh-CN and English. Screenshots: screenshots/version-card*.png.
import { expect } from 'chai'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { REPORT_KEY } from '../../boot/deps.mjs'
import { UpdateService } from '../../lib/update/service.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { gitFixture, gitIn, type GitFixture } from '../update/git-fixture.js'
import { seriousAxeViolations } from './axe.js'
import { launch, openDashboard, PLUGIN_DIR, prepare, SHOTS } from './browser.js'


const CARD = '[data-testid="version-card"]'

describe('dashboard: version card on the overview (chromium e2e)', function () {
  this.timeout(120_000)
  let s: TestServer
  let browser: Browser
  let page: Page
  let pageErrors: string[] = []
  let original: UpdateService | undefined
  let repo: GitFixture | undefined
  let remote = ''
  let checkout = ''

  const cardText = async (): Promise<string> => await page.textContent(CARD) ?? ''
  /** The overview again, the card's answer in (a service swapped or a report set shows after a load). */
  const reload = async (): Promise<void> => {
    await page.reload()
    await page.waitForSelector('[data-testid="vc-version"]')
  }
  const publish = (subject: string): string => repo!.publish(subject, { 'CHANGELOG.md': `${subject}\n` }).slice(0, 7)
  const checkNow = async (): Promise<void> => {
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/system/version/check') && r.request().method() === 'POST'),
      page.click('[data-testid="vc-check"]')
    ])
    await page.waitForSelector('[data-testid="vc-check"]:not([disabled])')
  }

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    original = s.lx.rt.need('update')
    // a bare remote, a clone that publishes to it, and the checkout the service reads (follows origin/main)
    repo = gitFixture({ version: '3.1.4' })
    remote = repo.remote
    checkout = repo.checkout
    browser = await launch()
    ;({ page, pageErrors } = await openDashboard(browser, s))
  })

  after(async () => {
    delete (globalThis as Record<symbol, unknown>)[REPORT_KEY]
    if (original && s) { s.lx.rt.withdraw('update'); s.lx.rt.provide('update', original) }
    await browser?.close()
    await s?.close()
    repo?.remove()
  })

  it('shows the version and the commit of the running checkout', async () => {
    await page.waitForSelector('[data-testid="vc-version"]')
    const version = (JSON.parse(readFileSync(join(PLUGIN_DIR, 'package.json'), 'utf8')) as { version: string }).version
    expect(await page.textContent('[data-testid="vc-version"]')).to.equal(version)
    const v = (await s.api('/api/system/version')).body.data as { git: boolean, shortCommit?: string }
    if (v.git) {
      expect(await page.textContent('[data-testid="vc-commit"]')).to.equal(gitIn(PLUGIN_DIR, 'rev-parse', '--short=7', 'HEAD'))
      expect(await page.textContent('[data-testid="vc-date"]')).to.match(/\d{4}/)
    } else {
      expect(await page.textContent('[data-testid="vc-nogit"]')).to.include('git')
    }
    const text = await cardText()
    expect(text).to.include('版本').and.include('#lx更新')
    expect(text).to.not.match(/\bvc\.\w/) // no raw dictionary key
    expect(await page.locator('[data-testid="vc-deps"]').count()).to.equal(0) // nothing missing: no warning
  })

  it('checks a temp checkout: up to date, then "1 new commit" with its subject after a push', async () => {
    s.lx.rt.withdraw('update')
    s.lx.rt.provide('update', new UpdateService(s.lx.rt, checkout))
    await reload()
    expect(await page.textContent('[data-testid="vc-version"]')).to.equal('3.1.4')
    expect(await page.textContent('[data-testid="vc-commit"]')).to.equal(gitIn(checkout, 'rev-parse', '--short=7', 'HEAD'))
    expect(await page.textContent('[data-testid="vc-branch"]')).to.equal('main')
    expect(await cardText()).to.include('origin/main')
    expect(await page.locator('[data-testid="vc-dirty"]').count()).to.equal(0)

    await checkNow()
    expect(await page.textContent('[data-testid="vc-behind"]')).to.equal('已是最新')

    const hash = publish('Add the lighthouse keeper')
    await checkNow()
    await page.waitForSelector('[data-testid="vc-behind"][data-behind="1"]')
    expect(await page.textContent('[data-testid="vc-behind"]')).to.equal('1 个新提交')
    expect(await page.$$eval('[data-testid="vc-commit-subject"]', (els) => els.map((e) => e.textContent))).to.deep.equal(['Add the lighthouse keeper'])
    expect(await page.textContent('[data-testid="vc-commit-hash"]')).to.equal(hash)
    await page.locator(CARD).screenshot({ path: join(SHOTS, 'version-card.png') })

    // the last check stays after a reload (the server keeps it until the next one)
    await reload()
    expect(await page.textContent('[data-testid="vc-behind"]')).to.equal('1 个新提交')
  })

  it('a checkout changed by hand carries the "locally changed" badge', async () => {
    writeFileSync(join(checkout, 'package.json'), `${JSON.stringify({ name: 'fixture-plugin', version: '3.1.4-local' })}\n`)
    await reload()
    expect(await page.textContent('[data-testid="vc-dirty"]')).to.equal('本地有改动')
    gitIn(checkout, 'checkout', '--', 'package.json')
    await reload()
    expect(await page.locator('[data-testid="vc-dirty"]').count()).to.equal(0)
  })

  it('a failed fetch is said in the owner\'s words, with git\'s line', async () => {
    rmSync(remote, { recursive: true, force: true })
    await checkNow()
    await page.waitForSelector('[data-testid="vc-error"]')
    const error = await page.textContent('[data-testid="vc-error"]') ?? ''
    expect(error).to.include('连接不上远程仓库').and.include('详情')
    expect(await page.locator('[data-testid="vc-result"]').count()).to.equal(0)
  })

  it('a refusal is told by its reason (details.reason), not by matching its English message', async () => {
    // a real refusal: the checkout follows no remote branch
    gitIn(checkout, 'branch', '--unset-upstream')
    try {
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/system/version/check') && r.request().method() === 'POST'),
        page.click('[data-testid="vc-check"]')
      ])
      expect(res.status()).to.equal(409)
      expect((await res.json() as { details?: unknown }).details).to.deep.equal({ reason: 'noUpstream' })
      await page.waitForSelector('[data-testid="vc-error"] >> text=当前分支没有跟踪远程分支')
    } finally {
      gitIn(checkout, 'branch', '--set-upstream-to', 'origin/main')
    }
    // the card reads the reason only: a message in another language, or one naming another refusal, changes nothing
    const refusals = [
      { reason: 'noGit', message: 'Der Plugin-Ordner ist kein eigener Git-Klon', text: '插件目录不是独立的 git 克隆' },
      { reason: 'busy', message: 'The plugin folder is not a git checkout of its own', text: '正在更新中' }
    ]
    try {
      for (const r of refusals) {
        await page.route('**/api/system/version/check', (route) => route.fulfill({
          status: 409, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'CONFLICT', message: r.message, details: { reason: r.reason } })
        }))
        await checkNow()
        expect(await page.textContent('[data-testid="vc-error"]'), r.reason).to.include(r.text).and.not.include(r.message)
        await page.unroute('**/api/system/version/check')
      }
    } finally {
      await page.unroute('**/api/system/version/check')
    }
  })

  it('packages missing at start: a warning at the top of the card with the package, the features off and the command, copyable', async () => {
    (globalThis as Record<symbol, unknown>)[REPORT_KEY] = { missing: [{ name: 'chrono-node', range: '^2.10.3' }], command: 'cd "/x" && pnpm install' }
    try {
      await reload()
      const warn = page.locator('[data-testid="vc-deps"]')
      expect(await warn.isVisible()).to.equal(true)
      // the first thing in the card
      expect(await page.$eval(`${CARD} > div > div`, (el) => el.getAttribute('data-testid'))).to.equal('vc-deps')
      expect(await page.textContent('[data-testid="vc-deps-missing"]')).to.include('chrono-node')
      expect(await page.textContent('[data-testid="vc-deps-off"]')).to.include('提醒与定时任务（时间解析）')
      expect(await page.textContent('[data-testid="vc-deps-command"]')).to.equal('cd "/x" && pnpm install')
      expect(await warn.textContent()).to.include('缺少依赖包').and.include('#lx更新')
      expect(await page.locator('[data-testid="vc-deps-install"]').count()).to.equal(0) // no install was attempted

      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(s.base).origin })
      await page.click('[data-testid="vc-deps-copy"]')
      await page.waitForSelector('.toast >> text=已复制')
      expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal('cd "/x" && pnpm install')
      await page.locator(CARD).screenshot({ path: join(SHOTS, 'version-card-missing.png') })

      // an install that was attempted and failed says its error; in English too
      ;(globalThis as Record<symbol, unknown>)[REPORT_KEY] = {
        missing: [{ name: 'chrono-node', range: '^2.10.3' }],
        command: 'cd "/x" && pnpm install',
        install: { attempted: true, ok: false, error: 'pnpm exited with code 1', output: [], seconds: 3 }
      }
      // the features' text is the server's, in the bot's language (config `language`)
      await s.lx.rt.config.update({ language: 'en' })
      await page.evaluate(() => { localStorage.setItem('lingxi.lang', 'en') })
      await reload()
      expect(await page.textContent('[data-testid="vc-deps-install"]')).to.include('pnpm exited with code 1')
      expect(await page.textContent('[data-testid="vc-deps-off"]')).to.include('reminders (reading times)')
      const text = await cardText()
      expect(text).to.include('Packages are missing').and.include('Check for updates').and.include('1 new commit')
      expect(text).to.not.match(/\bvc\.\w/)
    } finally {
      delete (globalThis as Record<symbol, unknown>)[REPORT_KEY]
      await s.lx.rt.config.update({ language: 'zh-CN' })
      await page.evaluate(() => { localStorage.setItem('lingxi.lang', 'zh') })
    }
    await reload()
    expect(await page.locator('[data-testid="vc-deps"]').count()).to.equal(0)
    expect(pageErrors).to.deep.equal([])
  })

  it('fits a 390x844 phone screen; the warning, the result and the error pass axe in light and dark', async () => {
    (globalThis as Record<symbol, unknown>)[REPORT_KEY] = { missing: [{ name: 'chrono-node', range: '^2.10.3' }], command: 'cd "/x" && pnpm install' }
    try {
      const phone = await openDashboard(browser, s, { phone: true, bypassCSP: true }) // axe is injected inline
      await phone.page.waitForSelector('[data-testid="vc-deps"]')
      await phone.page.waitForSelector('[data-testid="vc-result"]') // the last successful check
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390)
      await phone.page.locator(CARD).screenshot({ path: join(SHOTS, 'version-card-phone.png') })
      await phone.page.click('[data-testid="vc-check"]') // the remote is gone: the error
      await phone.page.waitForSelector('[data-testid="vc-error"]')
      for (const colorScheme of ['light', 'dark'] as const) {
        await phone.page.emulateMedia({ colorScheme })
        expect(await seriousAxeViolations(phone.page), colorScheme).to.deep.equal([])
      }
      expect(phone.pageErrors).to.deep.equal([])
      await phone.page.close()
    } finally {
      delete (globalThis as Record<symbol, unknown>)[REPORT_KEY]
    }
  })
})
