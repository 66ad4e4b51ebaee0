// GET /api/system/status under load (issue 17): the resident memory costs three system calls to read,
// so it is sampled at most once per RSS_SAMPLE_MS (lib/system/status.ts) instead of on every request.
import { expect } from 'chai'
import sinon from 'sinon'
import { RSS_SAMPLE_MS } from '../../lib/system/status.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('system status: figures sampled, not read per request', () => {
  let s: TestServer
  let clock: sinon.SinonStub
  let now = 1_000_000_000_000
  before(async () => {
    s = await startTestServer()
    clock = sinon.stub(s.lx.rt.clock, 'now').callsFake(() => now)
  })
  after(async () => {
    clock.restore()
    await s.close()
  })

  it('reads the RSS once per sample period however many requests come, and again after it', async () => {
    const rss = sinon.stub(process.memoryUsage, 'rss').returns(123_456_789)
    try {
      now += RSS_SAMPLE_MS // a fresh period
      const first = await s.api('/api/system/status')
      expect(first.status).to.equal(200)
      expect(first.body.data.memory.used).to.equal(123_456_789)
      for (let i = 0; i < 20; i++) expect((await s.api('/api/system/status')).body.data.memory.used).to.equal(123_456_789)
      expect(rss.callCount, 'one reading for 21 requests').to.equal(1)
      rss.returns(987_654_321)
      now += RSS_SAMPLE_MS - 1
      expect((await s.api('/api/system/status')).body.data.memory.used, 'still the sample').to.equal(123_456_789)
      now += 1
      expect((await s.api('/api/system/status')).body.data.memory.used, 'a new sample').to.equal(987_654_321)
      expect(rss.callCount).to.equal(2)
    } finally {
      rss.restore()
    }
  })

  it('keeps uptime current to the second from the clock', async () => {
    now += 5000
    const a = (await s.api('/api/system/status')).body.data.uptime as number
    now += 3000
    const b = (await s.api('/api/system/status')).body.data.uptime as number
    expect(b - a).to.equal(3)
  })
})
