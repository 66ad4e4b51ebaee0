// Under TRSS with web.sharePort the API and dashboard are also served on the host's own server at /lingxi.
import { expect } from 'chai'
import type { Host } from '../../lib/host/standalone/host.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'

describe('TRSS shared port', function () {
  this.timeout(60_000)
  let host: Host
  let ph: PluginHost
  before(async () => {
    ph = await startPluginHost('trss', 'lingxi-trss-')
    host = ph.host
    await host.sendPrivate(MASTER, '#lx面板')
  })
  after(async () => { await ph?.stop() })

  it('answers the API, logs in and serves the dashboard under /lingxi on the host port', async () => {
    const base = `${host.url}/lingxi`
    const health = await fetch(`${base}/api/system/health`)
    expect(health.status).to.equal(200)
    expect(((await health.json()) as { success: boolean }).success).to.equal(true)
    const text = host.transcript.at(-1)?.text ?? ''
    const token = /\/lingxi\/login#token=([\w-]+)/.exec(text)?.[1]
    expect(token, text).to.be.a('string')
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(login.status).to.equal(200)
    const session = ((await login.json()) as { data: { token: string } }).data.token
    const status = await fetch(`${base}/api/system/status`, { headers: { Authorization: `Bearer ${session}` } })
    expect(status.status).to.equal(200)
    const page = await fetch(`${base}/`)
    expect(page.status).to.equal(200)
    expect(page.headers.get('content-type')).to.match(/html/)
    expect((await fetch(`${base}/api/nowhere`, { headers: { Authorization: `Bearer ${session}` } })).status).to.equal(404)
  })
})
