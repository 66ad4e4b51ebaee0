// Behind a reverse proxy that serves the dashboard under a path prefix (https://example.com/bot/ ->
// the plugin's port), the page finds its base from where its bundle was loaded: login through the
// proxied link, API calls, the live event stream and navigation all stay under the prefix.
import { expect } from 'chai'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { startTestServer, type TestServer } from '../support/server.js'
import { launch, prepare } from './browser.js'

const PREFIX = '/bot'

/** A minimal reverse proxy: /bot/... -> the plugin's server, streaming both ways (SSE included). */
function prefixProxy (target: string, seen: string[]): Server {
  const t = new URL(target)
  return createServer((req, res) => {
    const url = req.url ?? '/'
    if (!url.startsWith(`${PREFIX}/`) && url !== PREFIX) { res.writeHead(404).end('not under the prefix'); return }
    seen.push(url)
    const upstream = request({ host: t.hostname, port: t.port, method: req.method, path: url.slice(PREFIX.length) || '/', headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    upstream.on('error', () => { if (!res.headersSent) res.writeHead(502); res.end() })
    req.pipe(upstream)
    res.on('close', () => upstream.destroy())
  })
}

describe('dashboard behind a reverse proxy under a path prefix (chromium)', function () {
  this.timeout(120_000)
  let s: TestServer
  let proxy: Server
  let browser: Browser
  let origin = ''
  const seen: string[] = []

  before(async function () {
    await prepare(this)
    s = await startTestServer()
    proxy = prefixProxy(s.base, seen)
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    browser = await launch()
  })
  after(async () => {
    await browser?.close()
    proxy?.closeAllConnections()
    await new Promise<void>((resolve) => proxy ? proxy.close(() => resolve()) : resolve())
    await s?.close()
  })

  it('logs in through the proxied link and keeps every request under the prefix', async () => {
    const { token } = s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
    const page = await browser.newPage()
    const outside: string[] = []
    page.on('request', (r) => { const u = new URL(r.url()); if (u.origin === origin && !u.pathname.startsWith(`${PREFIX}/`)) outside.push(u.pathname) })
    await page.goto(`${origin}${PREFIX}/login#token=${token}`)
    await page.waitForURL(`**${PREFIX}/overview`)
    await page.waitForSelector('[data-testid="status"]')
    await page.waitForSelector('[data-testid="sse-state"].ok') // the event stream through the proxy
    // the page's list request, not only its button (the button shows while the list still loads)
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(`${PREFIX}/api/config/channels`)),
      page.click('nav a[data-page="channels"]')
    ])
    await page.waitForURL(`**${PREFIX}/channels`)
    await page.waitForSelector('[data-testid="channel-add"]')
    expect(seen).to.include(`${PREFIX}/api/auth/login`)
    expect(seen.some((u) => u.startsWith(`${PREFIX}/api/config/channels`))).to.equal(true)
    expect(seen.some((u) => u.startsWith(`${PREFIX}/api/system/events`))).to.equal(true)
    expect(outside, 'requests that left the prefix').to.deep.equal([])
    await page.reload() // a deep link under the prefix loads the dashboard again
    await page.waitForSelector('[data-testid="channel-add"]')
    await page.close()
  })
})
