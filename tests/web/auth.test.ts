// docs/api.md, Authentication, and README, "Security model": login tokens, sessions, revocation, cookie, rate limit.
import { expect } from 'chai'
import jwt from 'jsonwebtoken'
import sinon from 'sinon'
import { startTestServer, type TestServer } from '../support/server.js'

function cookieOf (res: { headers: Headers }): string {
  return res.headers.get('set-cookie') ?? ''
}

describe('auth routes', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  const issue = (): string => s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true }).token
  const login = (token: unknown) => s.api('/api/auth/login', { method: 'POST', json: { token }, headers: { Authorization: '' } })

  it('exchanges a login token for a session with an HttpOnly SameSite=Strict cookie', async () => {
    const r = await login(issue())
    expect(r.status).to.equal(200)
    expect(r.body.success).to.equal(true)
    expect(r.body.data.token).to.be.a('string')
    expect(r.body.data.expiresAt).to.be.greaterThan(Date.now() + 23 * 3600_000)
    const cookie = cookieOf(r)
    expect(cookie).to.match(/lingxi_session=/)
    expect(cookie.toLowerCase()).to.include('httponly').and.include('samesite=strict')
    const claims = jwt.decode(r.body.data.token) as { sub: string; jti: string }
    expect(claims.sub).to.equal('10001')
    expect(claims.jti).to.be.a('string').with.length.greaterThan(8)
  })

  it('refuses a login token used twice', async () => {
    const token = issue()
    expect((await login(token)).status).to.equal(200)
    const again = await login(token)
    expect(again.status).to.equal(401)
    expect(again.body).to.include({ success: false, code: 'INVALID_TOKEN' })
  })

  it('refuses an expired login token (5 minutes)', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    try {
      const token = issue()
      clock.tick(5 * 60_000 + 1)
      const r = await login(token)
      expect(r.status).to.equal(401)
      expect(r.body.code).to.equal('INVALID_TOKEN')
    } finally { clock.restore() }
  })

  it('refuses unknown, missing and wrongly typed tokens with clear errors', async () => {
    expect((await login('x'.repeat(43))).body.code).to.equal('INVALID_TOKEN')
    const missing = await s.api('/api/auth/login', { method: 'POST', json: {} })
    expect(missing.status).to.equal(400)
    expect(missing.body).to.include({ success: false, code: 'INVALID_ARGS' })
    expect(missing.body.message).to.match(/token/)
    const wrong = await login(123)
    expect(wrong.status).to.equal(400)
    expect(wrong.body.errors[0].path).to.equal('token')
  })

  it('verifies by Bearer header and by the cookie, never by query string', async () => {
    const r = await login(issue())
    const token = r.body.data.token as string
    const byHeader = await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: `Bearer ${token}` } })
    expect(byHeader.status).to.equal(200)
    const body = await byHeader.json() as { data: { valid: boolean; userId: string; isMaster: boolean } }
    expect(body.data).to.include({ valid: true, userId: '10001', isMaster: true })
    const byCookie = await fetch(`${s.base}/api/auth/verify`, { headers: { Cookie: `lingxi_session=${token}` } })
    expect(byCookie.status).to.equal(200)
    const byQuery = await fetch(`${s.base}/api/auth/verify?token=${token}`)
    expect(byQuery.status).to.equal(401)
  })

  it('names UNAUTHORIZED, INVALID_TOKEN and TOKEN_EXPIRED', async () => {
    const none = await fetch(`${s.base}/api/auth/verify`)
    expect(none.status).to.equal(401)
    expect(await none.json()).to.include({ code: 'UNAUTHORIZED' })
    const garbage = await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: 'Bearer not.a.jwt' } })
    expect(garbage.status).to.equal(401)
    expect(await garbage.json()).to.include({ code: 'INVALID_TOKEN' })
    const now = Math.floor(Date.now() / 1000)
    const forged = jwt.sign({ sub: '10001', isMaster: true, jti: 'f1', iat: now, exp: now + 600 }, 'some other secret that is long enough', { algorithm: 'HS256' })
    const bad = await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: `Bearer ${forged}` } })
    expect(await bad.json()).to.include({ code: 'INVALID_TOKEN' })
    const expired = jwt.sign({ sub: '10001', isMaster: true, jti: 'e1', iat: now - 7200, exp: now - 3600 }, s.lx.rt.sessions.secret, { algorithm: 'HS256' })
    const old = await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: `Bearer ${expired}` } })
    expect(old.status).to.equal(401)
    expect(await old.json()).to.include({ code: 'TOKEN_EXPIRED' })
    const none2 = jwt.sign({ sub: '10001', isMaster: true, jti: 'n1', iat: now, exp: now + 600 }, '', { algorithm: 'none' })
    expect((await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: `Bearer ${none2}` } })).status).to.equal(401)
  })

  it('a session sent again and again (the gate remembers the last header) is refused once it expires, and once revoked', async () => {
    const token = (await login(issue())).body.data.token as string
    const ttl = (jwt.decode(token) as { exp: number }).exp * 1000 - Date.now()
    const status = (t: string): Promise<number> => fetch(`${s.base}/api/system/status`, { headers: { Authorization: `Bearer ${t}` } }).then((r) => r.status)
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    try {
      expect([await status(token), await status(token)]).to.deep.equal([200, 200])
      clock.tick(ttl + 1000)
      expect(await status(token)).to.equal(401)
    } finally { clock.restore() }
    const other = (await login(issue())).body.data.token as string
    expect([await status(other), await status(other)]).to.deep.equal([200, 200])
    await s.lx.rt.sessions.revoke(jwt.decode(other) as { jti: string; exp: number })
    expect(await status(other)).to.equal(401)
    expect(await status(s.token)).to.equal(200)
  })

  it('refresh issues a new token and revokes the old jti', async () => {
    const old = (await login(issue())).body.data.token as string
    const r = await fetch(`${s.base}/api/auth/refresh`, { method: 'POST', headers: { Authorization: `Bearer ${old}` } })
    expect(r.status).to.equal(200)
    const fresh = ((await r.json()) as { data: { token: string } }).data.token
    expect(fresh).to.not.equal(old)
    expect((await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: `Bearer ${fresh}` } })).status).to.equal(200)
    const revoked = await fetch(`${s.base}/api/auth/verify`, { headers: { Authorization: `Bearer ${old}` } })
    expect(revoked.status).to.equal(401)
    expect(await revoked.json()).to.include({ code: 'INVALID_TOKEN' })
  })

  it('logout revokes the session and clears the cookie; the revocation survives a restart', async () => {
    const token = (await login(issue())).body.data.token as string
    const out = await fetch(`${s.base}/api/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
    expect(out.status).to.equal(200)
    expect(out.headers.get('set-cookie')).to.match(/lingxi_session=;/)
    expect((await fetch(`${s.base}/api/system/status`, { headers: { Authorization: `Bearer ${token}` } })).status).to.equal(401)
    const again = await startTestServer({ dataDir: s.dataDir, keepData: true }).catch((e: unknown) => { throw e })
    try {
      expect(again.lx.rt.sessions.secret).to.equal(s.lx.rt.sessions.secret)
      expect((await fetch(`${again.base}/api/system/status`, { headers: { Authorization: `Bearer ${token}` } })).status).to.equal(401)
      expect((await fetch(`${again.base}/api/system/status`, { headers: { Authorization: `Bearer ${s.token}` } })).status).to.equal(200)
    } finally { await again.close() }
  })

})

describe('login rate limit', () => {
  it('answers 429 with Retry-After once the per-minute limit is used up', async () => {
    const s = await startTestServer()
    try {
      const max = s.lx.rt.config.get().web.loginRateLimit
      const statuses: number[] = []
      let limited: Awaited<ReturnType<TestServer['api']>> | undefined
      for (let i = 0; i < max + 2 && !limited; i++) {
        const r = await s.api('/api/auth/login', { method: 'POST', json: { token: 'wrong-token-' + i } })
        statuses.push(r.status)
        if (r.status === 429) limited = r
      }
      expect(statuses.filter((x) => x === 401).length).to.be.at.least(max - 1)
      expect(limited, 'no 429 after the limit').to.not.equal(undefined)
      expect(limited?.body).to.include({ success: false, code: 'RATE_LIMITED' })
      expect(Number(limited?.headers.get('retry-after'))).to.be.within(1, 60)
    } finally { await s.close() }
  })
})
