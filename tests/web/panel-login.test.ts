// The whole login path as a user meets it: the master asks the bot (standalone host) for the panel,
// the link's token opens a session once; in a group the link goes privately.
import { expect } from 'chai'
import type { Host } from '../../standalone/host.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'

describe('login through the bot command', function () {
  this.timeout(60_000)
  let host: Host
  let ph: PluginHost
  before(async () => {
    ph = await startPluginHost('miao', 'lingxi-panel-')
    host = ph.host
  })
  after(async () => { await ph?.stop() })

  const linkIn = (text: string): URL => {
    const m = text.match(/http:\/\/127\.0\.0\.1:\d+\/login#token=[\w-]+/)
    expect(m, text).to.not.equal(null)
    return new URL((m as RegExpMatchArray)[0])
  }

  it('the link from #lx panel logs in once', async () => {
    await host.sendPrivate(MASTER, '#lx panel')
    const url = linkIn(host.transcript.at(-1)?.text ?? '')
    const token = url.hash.replace('#token=', '')
    expect(Buffer.from(token, 'base64url')).to.have.length(32)
    const login = await fetch(`${url.origin}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(login.status).to.equal(200)
    const session = ((await login.json()) as { data: { token: string } }).data.token
    const verify = await fetch(`${url.origin}/api/auth/verify`, { headers: { Authorization: `Bearer ${session}` } })
    expect(((await verify.json()) as { data: { userId: string } }).data.userId).to.equal(MASTER)
    const again = await fetch(`${url.origin}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(again.status).to.equal(401)
    const page = await fetch(`${url.origin}/login`)
    expect(page.status).to.equal(200)
  })

  it('in a group the link is sent privately and the group only hears that it was', async () => {
    const since = host.transcript.length
    await host.sendGroup('555', MASTER, '#lx面板')
    const sent = host.transcript.slice(since)
    const priv = sent.find((m) => m.target === 'private' && m.targetId === MASTER)
    const pub = sent.find((m) => m.target === 'group' && m.targetId === '555')
    expect(priv, 'private message with the link').to.not.equal(undefined)
    linkIn(priv?.text ?? '')
    expect(pub?.text ?? '').to.not.match(/token=/)
    expect(pub?.text ?? '').to.match(/私聊|private/i)
  })
})
