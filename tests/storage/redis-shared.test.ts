// Two instances of the plugin (each its own data folder and web server) sharing one real Redis
// (lib/storage/README.md, "Redis"): login links, sessions, revocations, the chat rate limit, the lock,
// heartbeats. Skipped, saying why, where redis-server is missing (tests/support/redis.ts).
import { expect } from 'chai'
import { startRedis, type TestRedis } from '../support/redis.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('Redis: two instances as one installation', function () {
  let redis: TestRedis | undefined
  let a: TestServer
  let b: TestServer

  before(async function () {
    redis = await startRedis(this)
    // startTestServer copies process.env when it starts: both get the address, later suites do not.
    process.env.LINGXI_REDIS_URL = redis.url
    try {
      a = await startTestServer()
      b = await startTestServer()
    } finally {
      delete process.env.LINGXI_REDIS_URL
    }
  })

  after(async () => {
    await a?.close()
    await b?.close()
    await redis?.stop()
  })

  const loginAt = async (s: TestServer, token: string): Promise<{ status: number; body: any }> =>
    await s.api('/api/auth/login', { method: 'POST', json: { token }, headers: { Authorization: '' } })

  it('shares the Redis of both', () => {
    expect(a.lx.rt.shared?.address).to.equal(redis?.url)
    expect(b.lx.rt.shared).to.not.equal(undefined)
    expect(a.lx.rt.instanceId).to.not.equal(b.lx.rt.instanceId)
  })

  it('accepts a login link issued by A at B, once', async () => {
    const { token } = a.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
    await a.lx.rt.loginTokens.settled()
    const first = await loginAt(b, token)
    expect(first.status).to.equal(200)
    expect(first.body.data.token).to.be.a('string')
    expect((await loginAt(b, token)).status).to.equal(401)
    expect((await loginAt(a, token)).status).to.equal(401)
  })

  it('takes a session from A at B', async () => {
    const r = await b.api('/api/auth/verify', { headers: { Authorization: `Bearer ${a.token}` } })
    expect(r.status).to.equal(200)
    expect(r.body.data.userId).to.equal('10001')
  })

  it('refuses at B a session logged out at A, once the notice arrives', async () => {
    const session = await a.login()
    expect((await b.api('/api/auth/verify', { headers: { Authorization: `Bearer ${session}` } })).status).to.equal(200)
    const heard = new Promise<string>((resolve) => { const off = b.lx.rt.sessions.onRevoke((jti) => { off(); resolve(jti) }) })
    expect((await a.api('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${session}` } })).status).to.equal(200)
    await heard
    expect((await b.api('/api/auth/verify', { headers: { Authorization: `Bearer ${session}` } })).status).to.equal(401)
    await a.login()
  })

  it('counts the chat rate limit across both', async () => {
    // No channel is configured: an admitted message ends in 503, a refused one in 429 before it.
    for (const s of [a, b]) await s.lx.rt.config.update({ chat: { userRateLimitPerMinute: 3 }, channels: [] })
    const chat = async (s: TestServer): Promise<number> => (await s.api('/api/chat', { method: 'POST', json: { message: 'hi', userId: 'u-shared' } })).status
    const seen = [await chat(a), await chat(b), await chat(a)]
    expect(seen).to.not.include(429)
    const refused = await b.api('/api/chat', { method: 'POST', json: { message: 'hi', userId: 'u-shared' } })
    expect(refused.status).to.equal(429)
    expect(refused.body).to.include({ code: 'RATE_LIMITED' })
    expect(await chat(a), 'A counts B\'s messages too').to.equal(429)
    expect((await b.api('/api/chat', { method: 'POST', json: { message: 'hi', userId: 'u-other' } })).status).to.not.equal(429)
  })

  it('gives the lock to one holder at a time, released only by it', async () => {
    const sa = a.lx.rt.shared
    const sb = b.lx.rt.shared
    if (!sa || !sb) throw new Error('no shared state')
    const held = await sa.lock('reminder:1', 10_000)
    expect(held).to.not.equal(undefined)
    expect(await sb.lock('reminder:1', 10_000)).to.equal(undefined)
    expect(await held?.release()).to.equal(true)
    const next = await sb.lock('reminder:1', 10_000)
    expect(next).to.not.equal(undefined)
    expect(await held?.release()).to.equal(false)
    await next?.release()
  })

  it('lists both instances in GET /api/system/instances, without secrets', async () => {
    const r = await a.api('/api/system/instances')
    expect(r.status).to.equal(200)
    const ids = (r.body.data.instances as Array<{ id: string; self: boolean }>).map((i) => i.id)
    expect(ids).to.include.members([a.lx.rt.instanceId, b.lx.rt.instanceId])
    expect(r.body.data.storage).to.deep.equal({ database: 'files', redis: { address: redis?.url, from: 'LINGXI_REDIS_URL' } })
  })
})
