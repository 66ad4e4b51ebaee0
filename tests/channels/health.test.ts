// Channel health over time (lib/channels/health.ts, service.ts): a failed channel waits for Retry-After
// or a back-off, then gets one trial request at a time in its priority place, and is back on success.
// A preferred cheap channel (priority 100) and a backup (priority 1) on the fake model server; time is
// sinon's fake Date (rt.clock reads it), so no test waits.
import { expect } from 'chai'
import sinon from 'sinon'
import type { ModelRequest } from '../../lib/chat/contracts.js'
import { BACKOFF_MAX_MS, backoffMs, CLAIM_MARGIN_MS, RETRY_AFTER_MAX_MS } from '../../lib/channels/health.js'
import { addChannel, removeAllChannels, startEnv, type Env } from './helpers.js'

const hello = (extra: Partial<ModelRequest> = {}): ModelRequest => ({ messages: [{ role: 'user', content: 'hello' }], source: 'chat', ...extra })

describe('channels: health over time (retry after a failure, half-open trial)', () => {
  let env: Env
  let clock: sinon.SinonFakeTimers
  before(async () => { env = await startEnv() })
  after(async () => { await env.close() })
  beforeEach(async () => {
    env.fake.reset(); env.fake.validKeys = []
    await removeAllChannels(env.s)
    await addChannel(env.s, { name: 'cheap', baseUrl: env.fake.url, model: 'gpt-4o', priority: 100, timeoutMs: 20000 })
    await addChannel(env.s, { name: 'backup', baseUrl: env.fake.url, model: 'gpt-4o', priority: 1 })
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
  })
  afterEach(() => { sinon.restore() })

  const svc = () => env.s.lx.rt.need('channels').service
  const gw = () => env.s.lx.rt.need('channels').gateway
  const cheap = () => svc().get('cheap')
  const answeredBy = async (): Promise<string> => (await gw().call(hello())).channel
  const firstChoice = (): string | undefined => svc().candidates()[0]?.name
  const iso = (ms: number): string => new Date(ms).toISOString()

  /** One 429 on the preferred channel: the backup answers, the preferred one waits the first back-off. */
  async function fail429 (): Promise<number> {
    env.fake.enqueue({ status: 429 })
    expect(await answeredBy()).to.equal('backup')
    expect(svc().status(cheap())).to.equal('error')
    return Date.now()
  }

  it('after one 429 the backup answers until retryAt; then one trial on the preferred channel brings it back', async () => {
    const failedAt = await fail429()
    expect(svc().view(cheap()).retryAt).to.equal(iso(failedAt + 5000))
    clock.tick(4999)
    expect(await answeredBy(), 'before retryAt').to.equal('backup')
    expect(svc().status(cheap())).to.equal('error')
    clock.tick(1)
    expect(await answeredBy(), 'the trial').to.equal('cheap')
    expect(svc().status(cheap())).to.equal('active')
    expect(svc().view(cheap()).retryAt).to.equal(null)
    for (let i = 0; i < 3; i++) expect(await answeredBy()).to.equal('cheap')
    expect(env.fake.chatRequests().map((r) => r.body.model)).to.have.length(7) // 429 + backup, backup, 4 on cheap
  })

  it('reads the provider\'s Retry-After header through the gateway: a 429 with Retry-After: 30 keeps the preferred channel out for 30 s', async () => {
    env.fake.enqueue({ status: 429, headers: { 'Retry-After': '30' } })
    expect(await answeredBy()).to.equal('backup')
    const failedAt = Date.now()
    expect(svc().view(cheap()).retryAt).to.equal(iso(failedAt + 30_000))
    clock.tick(29_999)
    expect(await answeredBy()).to.equal('backup')
    clock.tick(1)
    expect(await answeredBy()).to.equal('cheap')
  })

  it('a failed trial waits twice as long, and the back-off grows up to its cap', async () => {
    const failedAt = await fail429()
    clock.tick(5000)
    env.fake.enqueue({ status: 429 })
    expect(await answeredBy(), 'the trial fails over to the backup').to.equal('backup')
    expect(svc().view(cheap()).retryAt).to.equal(iso(failedAt + 5000 + 10000))
    clock.tick(9999)
    expect(await answeredBy()).to.equal('backup')
    clock.tick(1)
    env.fake.enqueue({ status: 503 })
    expect(await answeredBy()).to.equal('backup')
    expect(svc().view(cheap()).retryAt).to.equal(iso(Date.now() + 20000))
    clock.tick(20000)
    expect(await answeredBy()).to.equal('cheap')
    expect(svc().status(cheap())).to.equal('active')
    // the failure count started over: the next failure waits the first back-off again
    await fail429()
    expect(svc().view(cheap()).retryAt).to.equal(iso(Date.now() + 5000))
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(backoffMs)).to.deep.equal([5000, 10000, 20000, 40000, 80000, 160000, BACKOFF_MAX_MS, BACKOFF_MAX_MS])
  })

  it('sends one trial at a time: concurrent requests meanwhile go to the backup', async () => {
    await fail429()
    clock.tick(5000)
    const answers = await Promise.all([gw().call(hello()), gw().call(hello()), gw().call(hello())])
    expect(answers.map((a) => a.channel)).to.deep.equal(['cheap', 'backup', 'backup'])
    expect(svc().status(cheap())).to.equal('active')
    expect(await answeredBy()).to.equal('cheap')
  })

  it('frees the trial of a request that never reports after the channel timeout plus a margin', async () => {
    await fail429()
    clock.tick(5000)
    expect(svc().preview()[0]?.name, 'looking takes no trial').to.equal('cheap')
    expect(svc().preview()[0]?.name).to.equal('cheap')
    expect(firstChoice(), 'a trial taken, never reported (caller abort)').to.equal('cheap')
    expect(firstChoice()).to.equal('backup')
    expect(svc().candidates('cheap').map((c) => c.name), 'a named request still reaches it').to.deep.equal(['cheap'])
    clock.tick(20000 + CLAIM_MARGIN_MS - 1)
    expect(await answeredBy()).to.equal('backup')
    clock.tick(1)
    expect(await answeredBy(), 'the claim expired: a new trial').to.equal('cheap')
    expect(svc().status(cheap())).to.equal('active')
  })

  it('follows the provider\'s Retry-After (markError retryAfterMs), within 1 s and 10 min', async () => {
    const now = Date.now()
    svc().markError(cheap(), '429 Too Many Requests', { retryAfterMs: 30000 })
    expect(svc().view(cheap()).retryAt).to.equal(iso(now + 30000))
    expect(firstChoice()).to.equal('backup')
    // more failures of the same round (requests under way) do not lengthen the wait, a longer Retry-After does
    svc().markError(cheap(), 'again')
    expect(svc().view(cheap()).retryAt).to.equal(iso(now + 30000))
    svc().markError(cheap(), 'again', { retryAfterMs: 40000 })
    expect(svc().view(cheap()).retryAt).to.equal(iso(now + 40000))
    clock.tick(39999)
    expect(firstChoice()).to.equal('backup')
    clock.tick(1)
    expect(await answeredBy()).to.equal('cheap')

    svc().markError(cheap(), 'a day', { retryAfterMs: 86_400_000 })
    expect(svc().view(cheap()).retryAt).to.equal(iso(Date.now() + RETRY_AFTER_MAX_MS))
    svc().markOk(cheap())
    svc().markError(cheap(), 'now', { retryAfterMs: 0 })
    expect(svc().view(cheap()).retryAt).to.equal(iso(Date.now() + 1000))
  })

  it('shows status and retryAt in the channel list, the channel stats and the system stream', async () => {
    const events: Array<Record<string, unknown>> = []
    const off = env.s.lx.rt.bus.on('system', (name, data) => { if (name === 'channel') events.push(data as Record<string, unknown>) })
    try {
      const failedAt = await fail429()
      const retryAt = iso(failedAt + 5000)
      const list = (await env.s.api('/api/config/channels')).body.data as Array<{ name: string; status: string; retryAt: string | null }>
      expect(list.find((c) => c.name === 'cheap')).to.include({ status: 'error', retryAt })
      expect(list.find((c) => c.name === 'backup')).to.include({ status: 'active', retryAt: null })
      expect((await env.s.api('/api/config/channels/cheap')).body.data.retryAt).to.equal(retryAt)
      const stats = (await env.s.api('/api/stats/channels')).body.data.channels as Array<{ name: string; status: string; retryAt: string | null }>
      expect(stats.find((c) => c.name === 'cheap')).to.include({ status: 'error', retryAt })
      expect(stats.find((c) => c.name === 'backup')).to.include({ status: 'active', retryAt: null })
      expect(events.find((e) => e.name === 'cheap')).to.include({ status: 'error', retryAt })
      // a PUT sending the view back does not write retryAt into the configuration
      const put = await env.s.api('/api/config/channels/cheap', { method: 'PUT', json: { ...list.find((c) => c.name === 'cheap'), priority: 90 } })
      expect(put.status, put.text).to.equal(200)
      expect(svc().get('cheap')).to.not.have.property('retryAt')
      clock.tick(5000)
      expect(await answeredBy()).to.equal('cheap')
      expect(events.at(-1)).to.include({ name: 'cheap', status: 'active', retryAt: null })
      expect((await env.s.api('/api/stats/channels')).body.data.channels.find((c: { name: string }) => c.name === 'cheap')).to.include({ status: 'active', retryAt: null })
    } finally { off() }
  })

  it('documents retryAt in the OpenAPI answers of the channel list and the channel stats', async () => {
    const doc = (await env.s.api('/api/openapi.json')).body
    const dataOf = (path: string): any => doc.paths[path].get.responses[200].content['application/json'].schema.allOf[1].properties.data
    expect(dataOf('/api/config/channels').items.properties).to.have.property('retryAt')
    expect(dataOf('/api/stats/channels').properties.channels.items.properties).to.have.property('retryAt')
  })
})
