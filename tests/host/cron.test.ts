import { expect } from 'chai'
import sinon from 'sinon'
import { nextRun, parseCron, schedule } from '../../standalone/cron.js'

describe('standalone host: cron', () => {
  const at = (s: string): Date => new Date(s)

  it('reads 6 fields with seconds first, 5 fields from minutes, and cuts a 7th', () => {
    expect(nextRun(parseCron('*/10 * * * * *'), at('2026-03-01T10:00:05'))?.toString()).to.equal(at('2026-03-01T10:00:10').toString())
    expect(nextRun(parseCron('30 4 * * *'), at('2026-03-01T10:00:00'))?.toString()).to.equal(at('2026-03-02T04:30:00').toString())
    expect(nextRun(parseCron('0 0 12 * * * 2026'), at('2026-03-01T10:00:00'))?.toString()).to.equal(at('2026-03-01T12:00:00').toString())
  })

  it('handles lists, ranges, day of week (7 = Sunday) and rejects bad input', () => {
    expect(nextRun(parseCron('0 0 9 * * 7'), at('2026-03-02T00:00:00'))?.getDay()).to.equal(0)
    expect(nextRun(parseCron('0 15,45 8-9 * * *'), at('2026-03-01T08:20:00'))?.toString()).to.equal(at('2026-03-01T08:45:00').toString())
    expect(() => parseCron('61 * * * * *')).to.throw()
    expect(() => parseCron('* * *')).to.throw()
  })

  it('schedules and cancels with timers', () => {
    const clock = sinon.useFakeTimers({ now: at('2026-03-01T10:00:00'), toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      let runs = 0
      const cancel = schedule('*/5 * * * * *', () => { runs++ })
      clock.tick(15_000)
      expect(runs).to.equal(3)
      cancel()
      clock.tick(15_000)
      expect(runs).to.equal(3)
    } finally {
      clock.restore()
    }
  })
})
