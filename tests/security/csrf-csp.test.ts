// In chromium (issue 14, parts 2 and 6): the dashboard loads, logs in and shows every page under its
// Content-Security-Policy with no violation; a page on another port of the same host that posts a
// form (or a no-cors fetch) to the API while the browser holds the master's session cookie is
// refused and nothing is created.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import type { Browser, Page } from 'playwright-core'
import { DASHBOARD_CSP } from '../../routes/_http/static.js'
import { launch, prepare } from '../dashboard/browser.js'
import { startTestServer, type TestServer } from '../support/server.js'

const PAGES = ['overview', 'channels', 'config', 'presets', 'tools', 'mcp', 'memory', 'conversations', 'knowledge', 'drawing', 'game', 'logs']

/** Records CSP violations (event and console) of a page. */
// Awaited before the page navigates: the listener must be in place for the first document, and a binding
// still being set up when the page closes made playwright throw outside the test.
async function watchCsp (page: Page): Promise<string[]> {
  const seen: string[] = []
  page.on('console', (m) => { if (/Refused to|Content Security Policy/i.test(m.text())) seen.push(`console: ${m.text()}`) })
  await page.exposeFunction('__cspViolation', (v: string) => { seen.push(`event: ${v}`) })
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`)
    })
  })
  return seen
}

async function loginInBrowser (s: TestServer, page: Page): Promise<void> {
  const { token } = s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
  await page.goto(`${s.base}/login#token=${token}`)
  await page.waitForURL('**/overview')
  await page.waitForSelector('[data-testid="status"]')
}

describe('dashboard in chromium: CSP and cross-site forms', function () {
  this.timeout(180_000)
  let s: TestServer
  let browser: Browser
  let attacker: Server
  let attackerUrl = ''
  let attackPage = ''

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    browser = await launch()
    attacker = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end(attackPage) })
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
  })
  after(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => attacker ? attacker.close(() => resolve()) : resolve())
    await s?.close()
  })

  it('serves the dashboard with the Content-Security-Policy header', async () => {
    const r = await fetch(`${s.base}/overview`)
    expect(r.headers.get('content-security-policy')).to.equal(DASHBOARD_CSP)
    expect(DASHBOARD_CSP).to.include("script-src 'self'").and.include("frame-ancestors 'none'").and.not.include('unsafe')
    const html = await r.text()
    expect(html).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/) // no inline script in the built page
  })

  it('logs in and shows every page with no CSP violation', async () => {
    const ctx = await browser.newContext()
    try {
      const page = await ctx.newPage()
      const violations = await watchCsp(page)
      await loginInBrowser(s, page)
      for (const name of PAGES) {
        await page.click(`nav a[data-page="${name}"]`)
        await page.waitForLoadState('networkidle')
      }
      await page.reload()
      await page.waitForSelector('nav')
      expect(violations, violations.join('\n')).to.deep.equal([])
      // the watcher does see a violation: an injected inline script is refused by the policy
      await page.evaluate(() => { const el = document.createElement('script'); el.textContent = 'window.__ran = 1'; document.body.appendChild(el) })
      await page.waitForTimeout(200)
      expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).to.equal(undefined)
      expect(violations.join('\n')).to.match(/script-src/)
      // the dashboard's own state-changing fetch with only the cookie (Origin is its own) still works
      const status = await page.evaluate(async () => (await fetch('./api/config/reload', { method: 'POST', credentials: 'same-origin' })).status)
      expect(status).to.equal(200)
    } finally { await ctx.close() }
  })

  it('the fallback page (no build) passes the policy too: no inline script left, and its script runs', async () => {
    const { cpSync, mkdtempSync, readFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { default: Koa } = await import('koa')
    const { staticMiddleware } = await import('../../routes/_http/static.js')
    const { PLUGIN_DIR } = await import('../dashboard/browser.js')
    for (const f of ['resources/public/index.html', 'resources/index.html', 'resources/dist/index.html']) {
      const html = readFileSync(join(PLUGIN_DIR, f), 'utf8')
      expect(html, f).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/)
      expect(html, f).to.not.match(/<style|\sstyle=|\son[a-z]+=/i)
    }
    // a plugin folder with only resources/public: what a fresh install serves until the build is done
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-fallback-'))
    cpSync(join(PLUGIN_DIR, 'resources', 'public'), join(dir, 'resources', 'public'), { recursive: true })
    const app = new Koa().use(staticMiddleware(dir))
    const server = createServer(app.callback())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const ctx = await browser.newContext()
    try {
      const page = await ctx.newPage()
      const violations = await watchCsp(page)
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/login`)
      await page.waitForFunction(() => document.getElementById('state')?.textContent !== '…')
      expect(violations, violations.join('\n')).to.deep.equal([])
    } finally {
      await ctx.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a form posted from another port of the same host with the session cookie is refused, nothing created', async () => {
    const ctx = await browser.newContext()
    try {
      const page = await ctx.newPage()
      await loginInBrowser(s, page)
      const cookies = await ctx.cookies(s.base)
      expect(cookies.map((c) => c.name)).to.include('lingxi_session')
      const target = `${s.base}/api/tools/js`
      const attempts: Array<{ name: string; html: string }> = [
        { name: 'urlencoded form', html: `<form id="f" method="POST" action="${target}"><input name="name" value="pwn_form"><input name="source" value="export default {}"></form><script>document.getElementById('f').submit()</script>` },
        { name: 'text/plain form shaped as JSON', html: `<form id="f" method="POST" enctype="text/plain" action="${target}"><input name='{"name":"pwn_text","source":"export default {}","x":"' value='"}'></form><script>document.getElementById('f').submit()</script>` },
        { name: 'multipart form', html: `<form id="f" method="POST" enctype="multipart/form-data" action="${target}"><input name="name" value="pwn_multi"></form><script>document.getElementById('f').submit()</script>` }
      ]
      for (const a of attempts) {
        attackPage = a.html
        const evil = await ctx.newPage()
        const answer = evil.waitForResponse((r) => r.url() === target)
        await evil.goto(attackerUrl)
        const res = await answer
        expect(res.status(), a.name).to.equal(403)
        expect(await res.text(), a.name).to.match(/Cross-site request refused/)
        await evil.close()
      }
      // a no-cors fetch with the cookie, as a script on the other port would send it
      attackPage = '<p>evil</p>'
      const evil = await ctx.newPage()
      await evil.goto(attackerUrl)
      await evil.evaluate(async (url) => {
        await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ name: 'pwn_fetch', source: 'export default {}' }) })
      }, target)
      const names = ((await s.api('/api/tools/js')).body.data as Array<{ name: string }>).map((f) => f.name)
      for (const n of ['pwn_form', 'pwn_text', 'pwn_multi', 'pwn_fetch']) expect(names).to.not.include(n)
    } finally { await ctx.close() }
  })
})
