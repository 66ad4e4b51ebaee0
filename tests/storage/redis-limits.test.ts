// The Redis-counted limiters keep the in-process semantics (lib/core/rate-limit.ts): the same sequence
// of hits on a fake clock gives the same answers with and without a shared window.
import { expect } from 'chai'
import type { Clock } from '../../lib/core/clock.js'
import { FailureLimiter, RateLimiter } from '../../lib/core/rate-limit.js'
import { connectRedis, type RedisLink } from '../../lib/storage/redis/client.js'
import { redisWindow } from '../../lib/storage/redis/limits.js'
import { startRedis, type TestRedis } from '../support/redis.js'

describe('Redis: shared rate limits keep the sliding window', function () {
  let redis: TestRedis | undefined
  let link: RedisLink | undefined
  let t = 5_000_000
  const clock: Clock = { now: () => t, setTimeout, clearTimeout, setInterval, clearInterval }

  before(async function () { redis = await startRedis(this); link = await connectRedis(redis.url) })
  after(async () => { await link?.close(); await redis?.stop() })

  it('RateLimiter.admit: max hits per window, a refused hit not counted, the same retry time', async () => {
    if (!link) throw new Error('no link')
    const local = new RateLimiter(() => 2, 1000, clock)
    const shared = new RateLimiter(() => 2, 1000, clock, redisWindow(link, 'test-rate'))
    const step = async (): Promise<void> => {
      const [l, s] = [await local.admit('u'), await shared.admit('u')]
      expect(s).to.deep.equal(l)
    }
    t = 5_000_000
    await step() // ok
    t += 400; await step() // ok
    t += 100; await step() // refused, retry in 500
    expect(await shared.admit('u')).to.deep.equal({ ok: false, retryAfterMs: 500 })
    expect(await local.admit('u')).to.deep.equal({ ok: false, retryAfterMs: 500 })
    t += 500; await step() // the first left the window: ok
    t += 1; await step() // refused again
  })

  it('FailureLimiter.check/failed: blocked after max failures until the oldest leaves', async () => {
    if (!link) throw new Error('no link')
    const local = new FailureLimiter(() => 3, 60_000, clock)
    const shared = new FailureLimiter(() => 3, 60_000, clock, redisWindow(link, 'test-fail'))
    t = 9_000_000
    for (let i = 0; i < 3; i++) {
      expect(await shared.check('a')).to.deep.equal(await local.check('a'))
      expect(await shared.failed('a')).to.deep.equal(await local.failed('a'))
      t += 1000
    }
    expect(await shared.check('a')).to.deep.equal({ blocked: true, retryAfterSeconds: 57 })
    expect(await local.check('a')).to.deep.equal({ blocked: true, retryAfterSeconds: 57 })
    expect((await shared.check('b')).blocked).to.equal(false)
    t += 57_000
    expect((await shared.check('a')).blocked).to.equal(false)
  })
})
