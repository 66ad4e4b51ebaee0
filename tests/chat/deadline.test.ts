// The turn's deadline pauses while a tool call waits for a person (lib/chat/deadline.ts): a master who
// approves at the 59th second of a 60 s limit still leaves the model its time.
import { expect } from 'chai'
import sinon from 'sinon'
import { systemClock } from '../../lib/core/clock.js'
import { TurnDeadline } from '../../lib/chat/deadline.js'

describe('chat: the turn deadline', () => {
  let clock: sinon.SinonFakeTimers
  beforeEach(() => { clock = sinon.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] }) })
  afterEach(() => { clock.restore() })
  const waiting = (id: string) => ({ type: 'tool_approval' as const, id, name: 't', state: 'waiting' as const })
  const settled = (id: string) => ({ type: 'tool_approval' as const, id, name: 't', state: 'approved' as const })

  it('aborts at the limit when nobody is waited for', () => {
    const d = new TurnDeadline(systemClock, 60_000)
    clock.tick(59_999)
    expect(d.signal.aborted).to.equal(false)
    clock.tick(1)
    expect(d.signal.aborted).to.equal(true)
  })

  it('the time a call waits for a person does not count; two calls waiting at once pause it until both are answered', () => {
    const d = new TurnDeadline(systemClock, 60_000)
    clock.tick(10_000)
    d.follow(waiting('a'))
    clock.tick(50_000)
    d.follow(waiting('b'))
    d.follow(settled('a'))
    clock.tick(120_000) // b still waits
    expect(d.signal.aborted).to.equal(false)
    d.follow(settled('b'))
    clock.tick(49_999)
    expect(d.signal.aborted).to.equal(false)
    clock.tick(1)
    expect(d.signal.aborted).to.equal(true)
  })

  it('an answer with no wait before it (a refusal) changes nothing, and clear() stops it', () => {
    const d = new TurnDeadline(systemClock, 1000)
    d.follow(settled('x'))
    d.follow({ type: 'tool_call', id: 'x', name: 't', arguments: '{}' })
    clock.tick(999)
    d.clear()
    clock.tick(10_000)
    expect(d.signal.aborted).to.equal(false)
  })
})
