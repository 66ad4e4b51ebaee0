// The login path as a master meets it: the standalone host's bot answers "#lx panel" with a link, the
// link opens the dashboard in chromium, the session works, and the same link cannot log in twice.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { createHost, type Host } from '../../standalone/host.js'
import { stopHost } from '../support/plugin-host.js'
import { launch, PLUGIN_DIR, prepare } from './browser.js'

const MASTER = '10001'

describe('dashboard login through the link the bot prints (standalone host + chromium)', function () {
  this.timeout(120_000)
  let host: Host
  let browser: Browser
  let dataDir: string

  before(async function () {
    await prepare(this)
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-dash-host-'))
    host = createHost({ profile: 'miao', pluginDir: PLUGIN_DIR, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    browser = await launch()
  })
  after(async () => {
    await browser?.close()
    await stopHost(host) // the plugin too: the host does not stop it
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('opens the dashboard from the link and rejects the link the second time with its message', async () => {
    await host.sendPrivate(MASTER, '#lx panel')
    const link = (host.transcript.at(-1)?.text ?? '').match(/http:\/\/127\.0\.0\.1:\d+\/login#token=[\w-]+/)?.[0]
    expect(link, 'login link in the bot reply').to.be.a('string')
    const page = await browser.newPage()
    await page.goto(link!)
    await page.waitForURL('**/overview')
    await page.waitForSelector('[data-testid="status"]')
    const session = await page.evaluate(() => localStorage.getItem('lingxi.token'))
    const origin = new URL(link!).origin
    const verify = await fetch(`${origin}/api/auth/verify`, { headers: { Authorization: `Bearer ${session}` } })
    expect(((await verify.json()) as { data: { userId: string } }).data.userId).to.equal(MASTER)

    const second = await browser.newPage()
    await second.goto(link!)
    await second.waitForSelector('.error')
    expect(await second.textContent('.error')).to.match(/\S/)
    expect(second.url()).to.match(/\/login$/)
  })
})
