// Rate limits on guessable credentials through real HTTP against the started plugin (README, "Security
// model"): failed logins and wrong MCP API keys are counted per client address; a valid credential is
// checked first; proxy headers give separate buckets only with web.trustProxy. Time moves with sinon's
// fake Date (rt.clock reads Date.now), never with sleeps.
import { expect } from 'chai'
import sinon from 'sinon'
import type { Clock } from '../../lib/core/clock.js'
import { addressKey, clientAddress, FailureLimiter } from '../../lib/core/rate-limit.js'
import { startTestServer, type TestServer } from '../support/server.js'

const KEY = 'limits-test-key-0123456789'
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }

describe('security: rate limits', function () {
  this.timeout(60_000)
  let s: TestServer
  let clock: sinon.SinonFakeTimers | undefined
  let max: number

  before(async () => {
    s = await startTestServer()
    max = s.lx.rt.config.get().web.loginRateLimit
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
  })
  after(async () => { clock?.restore(); await s.close() })
  beforeEach(async () => {
    await s.lx.rt.config.update({ web: { trustProxy: false }, mcp: { server: { apiKey: KEY } } })
  })

  async function mcp (key: string, headers: Record<string, string> = {}): Promise<Response> {
    const r = await fetch(`${s.base}/mcp/`, { method: 'POST', headers: { ...MCP_HEADERS, Authorization: `Bearer ${key}`, ...headers }, body: JSON.stringify(INIT) })
    return r
  }
  async function login (token: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const r = await fetch(`${s.base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ token }) })
    return { status: r.status, body: await r.json(), headers: r.headers }
  }
  const validToken = (): string => s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true }).token
  /** Moves the whole window on, so every bucket starts empty. */
  const nextWindow = (): void => { clock?.tick(61_000) }

  describe('own MCP endpoint /mcp', () => {
    it('answers 401 up to the limit, then 429 with Retry-After and a JSON-RPC error body', async () => {
      nextWindow()
      for (let i = 0; i < max; i++) {
        const r = await mcp(`wrong-${i}`)
        expect(r.status, `attempt ${i + 1}`).to.equal(401)
        await r.text()
      }
      const limited = await mcp('wrong-again')
      expect(limited.status).to.equal(429)
      const retry = Number(limited.headers.get('retry-after'))
      expect(retry).to.be.within(1, 60)
      expect(limited.headers.get('content-type')).to.match(/application\/json/)
      const body = await limited.json() as { jsonrpc: string; id: unknown; error: { code: number; message: string } }
      expect(body).to.include({ jsonrpc: '2.0', id: null })
      expect(body.error.code).to.be.a('number')
      expect(body.error.message).to.match(/wrong MCP API key/)
      // Guessing at full speed stays refused.
      const burst = await Promise.all(Array.from({ length: 50 }, async (_, i) => { const r = await mcp(`burst-${i}`); await r.text(); return r.status }))
      expect(new Set(burst)).to.deep.equal(new Set([429]))
      // Once the window has passed, the address may try again.
      clock?.tick(retry * 1000)
      const later = await mcp('wrong-later')
      expect(later.status).to.equal(401)
      await later.text()
    })

    it('a correct (long) key still passes from an address that is limited for wrong keys', async () => {
      nextWindow()
      for (let i = 0; i <= max; i++) await (await mcp(`wrong-${i}`)).text()
      expect((await mcp('wrong-x')).status).to.equal(429)
      const ok = await mcp(KEY)
      expect(ok.status).to.equal(200)
      expect(ok.headers.get('mcp-session-id')).to.be.a('string')
      await ok.text()
    })

    it('a short key is refused too while the address is limited (no 429/200 oracle), other addresses pass', async () => {
      nextWindow()
      await s.lx.rt.config.update({ web: { trustProxy: true }, mcp: { server: { apiKey: 'short-key' } } })
      const attacker = { 'X-Forwarded-For': '203.0.113.66' }
      for (let i = 0; i < max; i++) expect((await mcp(`wrong-${i}`, attacker)).status).to.equal(401)
      expect((await mcp('short-key', attacker)).status).to.equal(429)
      const other = await mcp('short-key', { 'X-Forwarded-For': '198.51.100.7' })
      expect(other.status).to.equal(200)
      await other.text()
    })

    it('without web.trustProxy forged X-Forwarded-For values do not give fresh buckets', async () => {
      nextWindow()
      for (let i = 0; i < max; i++) await (await mcp(`wrong-${i}`, { 'X-Forwarded-For': `10.0.0.${i}` })).text()
      const r = await mcp('wrong', { 'X-Forwarded-For': '10.9.9.9', 'X-Real-IP': '10.8.8.8' })
      expect(r.status).to.equal(429)
    })
  })

  describe('dashboard login', () => {
    it('counts failures only: many valid logins in a row are never limited', async () => {
      nextWindow()
      for (let i = 0; i < max * 2; i++) expect((await login(validToken())).status, `login ${i + 1}`).to.equal(200)
      expect((await login('wrong')).status).to.equal(401)
    })

    it('refuses wrong tokens with 429 past the limit but never a valid token', async () => {
      nextWindow()
      for (let i = 0; i < max; i++) {
        const r = await login(`wrong-${i}`)
        expect(r.status, `attempt ${i + 1}`).to.equal(401)
        expect(r.body).to.include({ code: 'INVALID_TOKEN' })
      }
      const limited = await login('wrong-again')
      expect(limited.status).to.equal(429)
      expect(limited.body).to.include({ success: false, code: 'RATE_LIMITED' })
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60)
      // The attacker keeps hammering; the master's fresh link still logs in.
      const hammer = Promise.all(Array.from({ length: 30 }, async (_, i) => (await login(`hammer-${i}`)).status))
      const valid = await login(validToken())
      expect(valid.status).to.equal(200)
      expect(valid.body.data.token).to.be.a('string')
      expect(new Set(await hammer)).to.deep.equal(new Set([429]))
      // Bad bodies count as failures too and stay limited.
      const bad = await fetch(`${s.base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
      expect(bad.status).to.equal(429)
      clock?.tick(61_000)
      expect((await login('wrong-later')).status).to.equal(401)
    })

    it('without web.trustProxy every proxied client shares the socket address (headers ignored)', async () => {
      nextWindow()
      for (let i = 0; i < max; i++) expect((await login(`w-${i}`, { 'X-Forwarded-For': '198.51.100.1' })).status).to.equal(401)
      expect((await login('w', { 'X-Forwarded-For': '198.51.100.2' })).status).to.equal(429)
      expect((await login('w', { 'X-Real-IP': '198.51.100.3' })).status).to.equal(429)
    })

    it('with web.trustProxy each client behind the proxy gets its own bucket (last X-Forwarded-For entry, else X-Real-IP)', async () => {
      nextWindow()
      await s.lx.rt.config.update({ web: { trustProxy: true } })
      // The client forges a first entry; the proxy appended the real address last.
      for (let i = 0; i < max; i++) {
        expect((await login(`w-${i}`, { 'X-Forwarded-For': `10.0.0.${i}, 198.51.100.1` })).status).to.equal(401)
      }
      expect((await login('w', { 'X-Forwarded-For': '10.1.1.1, 198.51.100.1' })).status).to.equal(429)
      expect((await login('w', { 'X-Forwarded-For': '198.51.100.2' })).status).to.equal(401)
      for (let i = 0; i < max; i++) await login(`r-${i}`, { 'X-Real-IP': '198.51.100.3' })
      expect((await login('w', { 'X-Real-IP': '198.51.100.3' })).status).to.equal(429)
      expect((await login('w', { 'X-Real-IP': '198.51.100.4' })).status).to.equal(401)
      // The setting is live: switched off, the headers no longer count.
      expect(s.lx.web.app.proxy).to.equal(true)
      await s.lx.rt.config.update({ web: { trustProxy: false } })
      expect(s.lx.web.app.proxy).to.equal(false)
    })
  })

  describe('FailureLimiter', () => {
    const fakeClock = (): { now: () => number; t: number } & Record<string, unknown> => {
      const c = { t: 1_000_000, now: () => c.t }
      return c
    }
    it('blocks a key after max failures until the oldest leaves the window; other keys are unaffected', () => {
      const c = fakeClock()
      const l = new FailureLimiter(() => 3, 60_000, c as unknown as Clock)
      for (let i = 0; i < 3; i++) { expect(l.blocked('a')).to.equal(false); l.fail('a'); c.t += 1000 }
      expect(l.blocked('a')).to.equal(true)
      expect(l.blocked('b')).to.equal(false)
      expect(l.retryAfterSeconds('a')).to.equal(57)
      c.t += 57_000
      expect(l.blocked('a')).to.equal(false)
    })
    it('keeps its memory bounded under a flood of distinct addresses', () => {
      const c = fakeClock()
      const l = new FailureLimiter(() => 1, 60_000, c as unknown as Clock)
      for (let i = 0; i < 120_000; i++) l.fail(`k${i}`)
      expect(l.blocked('k119999')).to.equal(true)
      expect(l.blocked('k0')).to.equal(false) // dropped first when the cap was reached
      c.t += 61_000
      l.fail('late')
      expect(l.blocked('k119999')).to.equal(false)
    })
  })

  describe('client address', () => {
    it('normalises mapped IPv4, ports and groups IPv6 by /64', () => {
      expect(addressKey('::ffff:127.0.0.1')).to.equal('127.0.0.1')
      expect(addressKey('198.51.100.1:4431')).to.equal('198.51.100.1')
      expect(addressKey('2001:db8:0:1:aaaa::1')).to.equal(addressKey('2001:db8::1:bbbb:cccc:dddd:eeee'))
      expect(addressKey('2001:db8:0:1::1')).to.not.equal(addressKey('2001:db8:0:2::1'))
      expect(addressKey('[2001:db8::1]:443')).to.equal('2001:db8:0:0::/64')
    })

    it('reads proxy headers only when trusted', () => {
      const req = { headers: { 'x-forwarded-for': '1.1.1.1, 2.2.2.2', 'x-real-ip': '3.3.3.3' }, socket: { remoteAddress: '::ffff:127.0.0.1' } }
      expect(clientAddress(req, false)).to.equal('127.0.0.1')
      expect(clientAddress(req, true)).to.equal('2.2.2.2')
      expect(clientAddress({ ...req, headers: { 'x-real-ip': '3.3.3.3' } }, true)).to.equal('3.3.3.3')
    })
  })
})
