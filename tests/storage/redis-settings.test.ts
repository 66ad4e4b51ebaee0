// Which Redis an instance uses (lib/storage/redis/settings.ts, lib/host/port.ts hostRedisUrl) and what
// of its address may be shown. No Redis needed.
import { expect } from 'chai'
import { hostRedisUrl } from '../../lib/host/port.js'
import { maskedRedisUrl, redisPassword, redisSetting } from '../../lib/storage/redis/settings.js'

describe('Redis settings', () => {
  it('takes LINGXI_REDIS_URL over storage.redis.url; empty is none', () => {
    expect(redisSetting({}, '')).to.deep.equal({ kind: 'none' })
    expect(redisSetting({ LINGXI_REDIS_URL: ' ' }, 'redis://a:6379')).to.deep.equal({ kind: 'url', url: 'redis://a:6379', from: 'storage.redis.url' })
    expect(redisSetting({ LINGXI_REDIS_URL: 'redis://b:6380' }, 'redis://a:6379')).to.deep.equal({ kind: 'url', url: 'redis://b:6380', from: 'LINGXI_REDIS_URL' })
    expect(redisSetting({}, 'host')).to.deep.equal({ kind: 'host', from: 'storage.redis.url' })
  })

  it('shows an address without user or password, and gives the password to the redactor', () => {
    expect(maskedRedisUrl('redis://lx:pa%40ss@10.0.0.5:6379/2')).to.equal('redis://10.0.0.5:6379/2')
    expect(maskedRedisUrl('not a url')).to.not.include('not a url')
    expect(redisPassword('redis://:pa%40ss@h:1')).to.equal('pa@ss')
    expect(redisPassword('redis://h:1')).to.equal(undefined)
  })

  it('reads where the host\'s own Redis is from its client', () => {
    const saved = globalThis.redis
    try {
      globalThis.redis = undefined
      expect(hostRedisUrl()).to.equal(undefined)
      globalThis.redis = { options: { url: 'redis://:pw@127.0.0.1:6379/0' } }
      expect(hostRedisUrl()).to.equal('redis://:pw@127.0.0.1:6379/0')
      globalThis.redis = { options: { socket: { host: '10.0.0.9', port: 6390 }, password: 'p w', database: 3 } }
      expect(hostRedisUrl()).to.equal('redis://:p%20w@10.0.0.9:6390/3')
    } finally {
      globalThis.redis = saved
    }
  })
})
