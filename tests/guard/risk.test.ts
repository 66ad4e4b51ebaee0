// The guard's pure parts (lib/guard/risk.ts, text.ts): what is read of a message, the signals of a
// chat's recent sends at a time, and the figure they make against the settings.
import { expect } from 'chai'
import { configSchema, type GuardSettings } from '../../lib/config/schema.js'
import { keepMs, mainSignals, riskOf, signalsOf, type SendRecord } from '../../lib/guard/risk.js'
import { featuresOf } from '../../lib/guard/text.js'

const S: GuardSettings = configSchema.shape.guard.parse(undefined) // the defaults
const MIN = 60_000
const rec = (at: number, over: Partial<SendRecord> = {}): SendRecord => ({ at, chars: 10, links: 0, hash: at + 1, ok: true, ...over })

describe('account-risk guard: signals and figure', () => {
  it('reads a message: its own text only (a forward node is not counted), links, and one fingerprint for nearly the same texts', () => {
    const a = featuresOf('好的，明天见！ 1')
    const b = featuresOf([{ type: 'text', text: '好的 明天见 2' }])
    expect(a.hash).to.equal(b.hash).and.to.not.equal(0)
    expect(featuresOf('好的，后天见').hash).to.not.equal(a.hash)
    expect(featuresOf('OK see you').hash).to.equal(featuresOf('ok, SEE you!').hash)
    expect(featuresOf('看 https://a.example/x 和 http://b.example').links).to.equal(2)
    expect(featuresOf([{ type: 'node', data: { content: '长'.repeat(900) } }])).to.deep.equal({ chars: 0, links: 0, hash: 0 })
    expect(featuresOf([{ type: 'image', file: 'x.png' }]).hash, 'nothing to repeat').to.equal(0)
    expect(featuresOf([{ type: 'text', data: { text: '长'.repeat(600) } }, { type: 'image', file: 'x' }]).chars).to.equal(600)
  })

  it('counts each signal in its window at the given time', () => {
    const now = 10 * 3_600_000
    const records = [
      rec(now - 2 * 3_600_000), // older than an hour: nothing
      rec(now - 30 * MIN, { chars: 800, links: 1 }),
      rec(now - 20 * MIN, { hash: 7 }), // outside the 10-minute repeat window
      rec(now - 9 * MIN, { hash: 7 }), // the first of its text within the window
      rec(now - 5 * MIN, { hash: 7, ok: false }), // a repeat, and a failed send
      rec(now - 30_000, { hash: 7 }), // a repeat, within the minute
      rec(now + 1000) // in the future: not yet
    ]
    expect(signalsOf(records, S, now)).to.deep.equal({ perMinute: 1, perHour: 5, long: 1, repeats: 2, links: 1, failures: 1 })
    expect(keepMs(S)).to.equal(3_600_000)
    expect(keepMs({ repeatWindowMinutes: 90 })).to.equal(90 * MIN)
  })

  it('the strongest signal in full plus a quarter of the others, at most 100; the main signals strongest first', () => {
    const zero = { perMinute: 0, perHour: 0, long: 0, repeats: 0, links: 0, failures: 0 }
    expect(riskOf(zero, S)).to.equal(0)
    expect(riskOf({ ...zero, perMinute: 10 }, S)).to.equal(50) // 10/20
    expect(riskOf({ ...zero, perMinute: 10, perHour: 60 }, S)).to.equal(55) // 50 + 20/4
    expect(riskOf({ ...zero, long: 10, links: 10 }, S)).to.equal(63) // 50 + 50/4
    expect(riskOf({ ...zero, failures: 5 }, S)).to.equal(100)
    expect(riskOf({ ...zero, perMinute: 60, repeats: 20 }, S)).to.equal(100)
    expect(mainSignals({ ...zero, perMinute: 6, repeats: 4, links: 1 }, S)).to.deep.equal(['repeats', 'perMinute'])
  })
})
