import { expect } from 'chai'
import sinon from 'sinon'
import { MemoryKV } from '../../standalone/kv.js'
import { rejection } from './helpers.js'

describe('standalone host: in-memory redis', () => {
  let clock: sinon.SinonFakeTimers
  let kv: MemoryKV
  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    kv = new MemoryKV()
  })
  afterEach(() => { clock.restore() })

  it('gets, sets and deletes', async () => {
    expect(await kv.get('a')).to.equal(null)
    expect(await kv.set('a', '1')).to.equal('OK')
    expect(await kv.get('a')).to.equal('1')
    expect(await kv.del(['a', 'missing'])).to.equal(1)
    expect(await kv.get('a')).to.equal(null)
  })

  it('expires keys set with EX', async () => {
    await kv.set('t', 'v', { EX: 10 })
    expect(await kv.ttl('t')).to.equal(10)
    clock.tick(9_999)
    expect(await kv.get('t')).to.equal('v')
    clock.tick(1)
    expect(await kv.get('t')).to.equal(null)
    expect(await kv.ttl('t')).to.equal(-2)
  })

  it('honours NX', async () => {
    expect(await kv.set('lock', 'a', { NX: true, EX: 5 })).to.equal('OK')
    expect(await kv.set('lock', 'b', { NX: true })).to.equal(null)
    expect(await kv.get('lock')).to.equal('a')
    clock.tick(5_000)
    expect(await kv.set('lock', 'c', { NX: true })).to.equal('OK')
    expect(await kv.ttl('lock')).to.equal(-1)
  })

  it('increments and keeps the expiry; expire() sets one', async () => {
    expect(await kv.incr('n')).to.equal(1)
    expect(await kv.expire('n', 2)).to.equal(true)
    expect(await kv.incr('n')).to.equal(2)
    clock.tick(2_000)
    expect(await kv.get('n')).to.equal(null)
    expect(await kv.expire('n', 2)).to.equal(false)
    await kv.set('s', 'x')
    expect((await rejection(kv.incr('s'))).message).to.match(/not an integer/)
  })

  it('lists keys by glob pattern, skipping expired ones', async () => {
    await kv.set('lx:user:1', 'a')
    await kv.set('lx:user:2', 'b', { EX: 1 })
    await kv.set('lx:group:1', 'c')
    await kv.set('other', 'd')
    expect((await kv.keys('lx:user:*')).sort()).to.deep.equal(['lx:user:1', 'lx:user:2'])
    expect((await kv.keys('lx:*:1')).sort()).to.deep.equal(['lx:group:1', 'lx:user:1'])
    expect(await kv.keys('lx:user:[2-3]')).to.deep.equal(['lx:user:2'])
    expect(await kv.keys('lx:user:?')).to.have.length(2)
    clock.tick(1_000)
    expect(await kv.keys('lx:user:*')).to.deep.equal(['lx:user:1'])
    expect((await kv.keys('*')).length).to.equal(3)
  })
})
