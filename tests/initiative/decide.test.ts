// The pure rules of openers after silence (lib/initiative/decide.ts): the allowed hours in a timezone
// (windows past midnight too), the local day of the cap, and the answer window of an opener.
import { expect } from 'chai'
import { hoursWindow } from '../../lib/core/hours.js'
import { decideOpener, localDay, settleOpener, type GroupState } from '../../lib/initiative/decide.js'
import { withinHours } from '../../lib/reminders/zoned.js'
import type { InitiativeSettings } from '../../lib/config/schema.js'

const TZ = 'Asia/Shanghai'
const at = (day: number, hour: number, minute = 0): number => Date.UTC(2027, 0, day, hour - 8, minute)
const S: InitiativeSettings = { enabled: true, quietHours: 3, hours: '09:00-22:00', dailyCap: 1, cooldownHours: 0, answerWindowMinutes: 60 }
const state = (o: Partial<GroupState> = {}): GroupState => ({ id: 'g', unanswered: 0, dayCount: 0, ...o })

describe('initiative: the decision', () => {
  it('reads windows, the end excluded; a window ending before it starts runs past midnight', () => {
    expect(hoursWindow('09:00-22:00')).to.deep.equal({ start: 540, end: 1320 })
    expect(hoursWindow('9-22')).to.equal(undefined)
    expect(withinHours('09:00-22:00', TZ, at(3, 8, 59))).to.equal(false)
    expect(withinHours('09:00-22:00', TZ, at(3, 9))).to.equal(true)
    expect(withinHours('09:00-22:00', TZ, at(3, 22))).to.equal(false)
    expect(withinHours('22:00-02:00', TZ, at(3, 23))).to.equal(true)
    expect(withinHours('22:00-02:00', TZ, at(3, 1, 59))).to.equal(true)
    expect(withinHours('22:00-02:00', TZ, at(3, 12))).to.equal(false)
    expect(withinHours('00:00-24:00', TZ, at(3, 3))).to.equal(true)
  })

  it('the local day is the timezone\'s, not UTC\'s', () => {
    expect(localDay(TZ, at(3, 7))).to.equal('2027-01-03') // 23:00 UTC of the 2nd
  })

  it('each reason in turn', () => {
    const base = { settings: S, state: undefined, lastMessageAt: at(3, 9), now: at(3, 12, 1), tz: TZ }
    expect(decideOpener(base)).to.deep.equal({ open: true })
    expect(decideOpener({ ...base, settings: { ...S, enabled: false } })).to.include({ reason: 'disabled' })
    expect(decideOpener({ ...base, state: state({ unanswered: 2 }) })).to.include({ reason: 'stopped' })
    expect(decideOpener({ ...base, state: state({ pendingAt: at(3, 11) }) })).to.include({ reason: 'awaiting' })
    expect(decideOpener({ ...base, lastMessageAt: undefined })).to.include({ reason: 'noLog' })
    expect(decideOpener({ ...base, now: at(3, 11, 59) })).to.include({ reason: 'notQuiet' })
    expect(decideOpener({ ...base, lastMessageAt: at(3, 20), now: at(3, 23, 30) })).to.include({ reason: 'outsideHours' })
    expect(decideOpener({ ...base, settings: { ...S, cooldownHours: 5 }, state: state({ lastTriedAt: at(3, 8) }) })).to.include({ reason: 'cooldown' })
    expect(decideOpener({ ...base, state: state({ day: '2027-01-03', dayCount: 1 }) })).to.include({ reason: 'dailyCap' })
    expect(decideOpener({ ...base, state: state({ day: '2027-01-02', dayCount: 1 }) })).to.deep.equal({ open: true })
  })

  it('an opener is answered by a member within the window, not by the bot or later', () => {
    const s = state({ pendingAt: at(3, 10) })
    const bot = { at: at(3, 10, 5), userId: 'bot', text: 'x', fromBot: true }
    const member = (minute: number) => ({ at: at(3, 10, minute), userId: '2', text: 'y' })
    expect(settleOpener(s, [bot], 60, at(3, 10, 30)), 'window still open').to.equal(undefined)
    expect(settleOpener(s, [bot, member(20)], 60, at(3, 10, 30))).to.include({ unanswered: 0 })
    expect(settleOpener(s, [bot], 60, at(3, 11))).to.include({ unanswered: 1 })
    expect(settleOpener(state({ pendingAt: at(3, 9), unanswered: 1 }), [{ at: at(3, 10, 30), userId: '2', text: 'late' }], 60, at(3, 11))).to.include({ unanswered: 2 })
    expect(settleOpener(s, [], 60, at(3, 11))).to.not.have.property('pendingAt')
  })
})
