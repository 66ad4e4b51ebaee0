// The parsing table of lib/reminders/parse.ts: zh and en, relative, absolute and recurring times in the
// owner's timezone (Asia/Shanghai here, whatever the machine's), and the clear errors.
import { expect } from 'chai'
import { parseWhen, WhenError, type WhenErrorReason } from '../../lib/reminders/parse.js'
import { nextOccurrence, followingOccurrence } from '../../lib/reminders/recurrence.js'
import { fromWall, formatWall } from '../../lib/reminders/zoned.js'

const TZ = 'Asia/Shanghai'
// Thursday 2026-11-26 11:40 in Shanghai
const NOW = Date.parse('2026-11-26T11:40:00+08:00')
const at = (local: string): string => new Date(Date.parse(`${local}+08:00`)).toISOString()
const parse = (text: string, timeZone = TZ) => parseWhen(text, { now: NOW, timeZone })

describe('reminders: understanding when', () => {
  const table: Array<[string, string, unknown, string]> = [
    // text, due (Shanghai wall time), recurrence, rest
    ['5分钟后提醒我喝水', '2026-11-26T11:45:00', undefined, '喝水'],
    ['半小时后', '2026-11-26T12:10:00', undefined, ''],
    ['一个半小时后叫我', '2026-11-26T13:10:00', undefined, ''],
    ['十分钟后提醒我收衣服', '2026-11-26T11:50:00', undefined, '收衣服'],
    ['3小时后', '2026-11-26T14:40:00', undefined, ''],
    ['明天早上8点提醒我开会', '2026-11-27T08:00:00', undefined, '开会'],
    ['下午3点半开会', '2026-11-26T15:30:00', undefined, '开会'],
    ['今晚八点看球', '2026-11-26T20:00:00', undefined, '看球'],
    ['明天', '2026-11-27T09:00:00', undefined, ''],
    ['10月1日上午9点', '2027-10-01T09:00:00', undefined, ''],
    ['每周一9点在群里发周报提醒', '2026-11-30T09:00:00', { kind: 'weekly', weekday: 1, hour: 9, minute: 0 }, '在群里发周报提醒'],
    ['每天晚上10点睡觉', '2026-11-26T22:00:00', { kind: 'daily', hour: 22, minute: 0 }, '睡觉'],
    ['每天早上8点', '2026-11-27T08:00:00', { kind: 'daily', hour: 8, minute: 0 }, ''],
    ['每月15号上午10点交房租', '2026-12-15T10:00:00', { kind: 'monthly', day: 15, hour: 10, minute: 0 }, '交房租'],
    ['每隔2小时喝水', '2026-11-26T13:40:00', { kind: 'interval', minutes: 120 }, '喝水'],
    ['remind me in 10 minutes to stretch', '2026-11-26T11:50:00', undefined, 'stretch'],
    ['in an hour call mom', '2026-11-26T12:40:00', undefined, 'call mom'],
    ['tomorrow at 8am meeting', '2026-11-27T08:00:00', undefined, 'meeting'],
    ['at 5pm', '2026-11-26T17:00:00', undefined, ''],
    ['every day at 7pm take pills', '2026-11-26T19:00:00', { kind: 'daily', hour: 19, minute: 0 }, 'take pills'],
    ['every monday at 9:00 weekly report', '2026-11-30T09:00:00', { kind: 'weekly', weekday: 1, hour: 9, minute: 0 }, 'weekly report'],
    ['every 30 minutes drink water', '2026-11-26T12:10:00', { kind: 'interval', minutes: 30 }, 'drink water']
  ]
  for (const [text, due, recurrence, rest] of table) {
    it(`${text} -> ${due}`, async () => {
      const r = await parse(text)
      expect(new Date(r.at).toISOString()).to.equal(at(due))
      expect(r.recurrence).to.deep.equal(recurrence)
      expect(r.rest).to.equal(rest)
    })
  }

  const errors: Array<[string, WhenErrorReason]> = [
    ['', 'empty'],
    ['提醒我喝水', 'noTime'],
    ['remind me to drink', 'noTime'],
    ['每天喝水', 'noTime'],
    ['every day', 'noTime'],
    ['昨天下午3点', 'past'],
    ['每月32号9点', 'badRecurrence'],
    ['1000天后', 'tooFar']
  ]
  for (const [text, reason] of errors) {
    it(`"${text}" is refused: ${reason}`, async () => {
      let err: unknown
      try { await parse(text) } catch (e) { err = e }
      expect(err).to.be.instanceOf(WhenError)
      expect((err as WhenError).reason).to.equal(reason)
      expect((err as WhenError).message).to.be.a('string').and.not.equal('')
    })
  }

  it('reads times in the configured timezone, not the machine\'s', async () => {
    // NOW is 2026-11-25 22:40 in New York: tomorrow there is the 26th (the 26th in UTC too)
    const ny = await parse('明天早上8点', 'America/New_York')
    expect(formatWall('America/New_York', ny.at)).to.equal('2026-11-26 08:00')
    const utc = await parse('tomorrow at 8am', 'UTC')
    expect(new Date(utc.at).toISOString()).to.equal('2026-11-27T08:00:00.000Z')
    // a relative time is the same instant everywhere
    expect((await parse('5分钟后', 'America/New_York')).at).to.equal(NOW + 5 * 60_000)
  })

  it('recurrences: next and following occurrences (monthly on the 31st takes the last day of short months)', () => {
    const r = { kind: 'monthly' as const, day: 31, hour: 9, minute: 0 }
    const nov = nextOccurrence(r, TZ, NOW)
    expect(formatWall(TZ, nov)).to.equal('2026-11-30 09:00')
    expect(formatWall(TZ, nextOccurrence(r, TZ, nov))).to.equal('2026-12-31 09:00')
    // a daily reminder missed for three days goes on from the next future time, not three times
    const daily = { kind: 'daily' as const, hour: 8, minute: 0 }
    const due = fromWall(TZ, 2026, 11, 23, 8, 0)
    expect(formatWall(TZ, followingOccurrence(daily, TZ, due, NOW))).to.equal('2026-11-27 08:00')
    const every = { kind: 'interval' as const, minutes: 10 }
    expect(followingOccurrence(every, TZ, NOW - 25 * 60_000, NOW)).to.equal(NOW + 5 * 60_000)
  })
})

// chrono's zh parser reads "today" from the machine's local date and hour: near the machine's midnight
// (UTC on servers and in CI) the owner's day was taken for another one. `now` is pinned at those instants.
describe('reminders: the owner\'s day, near midnight (UTC and local)', () => {
  const table: Array<[string, string, string, string]> = [
    // timeZone, now (UTC), text, due (wall time there) or the refusal
    // Shanghai 07:55-08:00 is UTC 23:55-00:00 of the day before
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '明天早上8点提醒我开会', '2026-12-03 08:00'],
    ['Asia/Shanghai', '2026-12-01T23:57:00Z', '明天早上8点', '2026-12-03 08:00'],
    ['Asia/Shanghai', '2026-12-01T23:59:59.999Z', '明天早上8点', '2026-12-03 08:00'],
    ['Asia/Shanghai', '2026-12-02T00:00:00Z', '明天早上8点', '2026-12-03 08:00'],
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '明天', '2026-12-03 09:00'],
    ['Asia/Shanghai', '2026-12-02T00:30:00Z', '明天', '2026-12-03 09:00'],
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '后天早上8点', '2026-12-04 08:00'],
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', 'tomorrow at 8am', '2026-12-03 08:00'],
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '今天晚上9点', '2026-12-02 21:00'],
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '8点', '2026-12-02 08:00'],
    ['Asia/Shanghai', '2026-12-02T00:00:00Z', '8点', '2026-12-03 08:00'], // said at 08:00 sharp: tomorrow's
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '12月2日上午9点', '2026-12-02 09:00'],
    ['Asia/Shanghai', '2026-12-01T23:55:00Z', '每天7点', '2026-12-03 07:00'],
    ['Asia/Shanghai', '2026-12-31T23:55:00Z', '明天早上8点', '2027-01-02 08:00'],
    // Monday 07:55 in Shanghai is still Sunday in UTC
    ['Asia/Shanghai', '2026-12-06T23:55:00Z', '周一9点', '2026-12-07 09:00'],
    ['Asia/Shanghai', '2026-12-06T23:55:00Z', 'monday at 9am', '2026-12-07 09:00'],
    ['Asia/Shanghai', '2026-12-06T23:55:00Z', '周日9点', '2026-12-13 09:00'],
    ['Asia/Shanghai', '2026-12-06T23:55:00Z', '每周一9点', '2026-12-07 09:00'],
    // Shanghai's own midnight (UTC 16:00)
    ['Asia/Shanghai', '2026-12-02T15:59:00Z', '明天早上8点', '2026-12-03 08:00'],
    ['Asia/Shanghai', '2026-12-02T15:59:00Z', '今天晚上9点', 'past'],
    ['Asia/Shanghai', '2026-12-02T16:00:00Z', '明天早上8点', '2026-12-04 08:00'],
    ['Asia/Shanghai', '2026-12-02T16:00:00Z', 'tomorrow at 8am', '2026-12-04 08:00'],
    ['Asia/Shanghai', '2026-12-02T16:00:00Z', '今天晚上9点', '2026-12-03 21:00'],
    ['Asia/Shanghai', '2026-12-02T22:55:00Z', '明天', '2026-12-04 09:00'],
    // chrono's late-night rule, in the owner's hours: at 00:30 "明天" alone is the coming morning
    ['Asia/Shanghai', '2026-12-02T16:30:00Z', '明天', '2026-12-03 09:00'],
    ['Asia/Shanghai', '2026-12-02T16:30:00Z', '明天早上8点', '2026-12-04 08:00'],
    ['UTC', '2026-12-01T23:55:00Z', '明天早上8点', '2026-12-02 08:00'],
    ['UTC', '2026-12-01T23:55:00Z', '今天晚上9点', 'past'],
    ['UTC', '2026-12-02T00:00:00Z', '明天早上8点', '2026-12-03 08:00'],
    ['UTC', '2026-12-02T00:00:00Z', 'tomorrow at 8am', '2026-12-03 08:00'],
    // New York 19:05 is already the next day in UTC
    ['America/New_York', '2026-12-02T00:05:00Z', '明天早上8点', '2026-12-02 08:00'],
    ['America/New_York', '2026-12-02T00:05:00Z', '今天晚上9点', '2026-12-01 21:00'],
    ['America/New_York', '2026-12-02T00:05:00Z', 'tomorrow at 8am', '2026-12-02 08:00'],
    ['America/New_York', '2026-12-02T04:55:00Z', '明天早上8点', '2026-12-02 08:00'],
    ['America/New_York', '2026-12-02T05:05:00Z', '明天早上8点', '2026-12-03 08:00'],
    ['Europe/Berlin', '2026-12-01T23:30:00Z', '明天早上8点', '2026-12-03 08:00'],
    ['Europe/Berlin', '2026-12-01T23:30:00Z', '今天晚上9点', '2026-12-02 21:00'],
    ['Europe/Berlin', '2026-12-01T22:30:00Z', '明天早上8点', '2026-12-02 08:00'],
    // the day after a DST change: its own offset, not today's
    ['Europe/Berlin', '2026-03-28T12:00:00Z', '明天早上8点', '2026-03-29 08:00'],
    ['America/New_York', '2026-03-07T17:00:00Z', 'tomorrow at 8am', '2026-03-08 08:00']
  ]
  const due = async (timeZone: string, now: string, text: string): Promise<string> => {
    try {
      return formatWall(timeZone, (await parseWhen(text, { now: Date.parse(now), timeZone })).at)
    } catch (e) {
      if (e instanceof WhenError) return e.reason
      throw e
    }
  }
  for (const [tz, now, text, expected] of table) {
    it(`${tz} at ${now}: ${text} -> ${expected}`, async () => {
      expect(await due(tz, now, text)).to.equal(expected)
    })
  }

  it('a DST change: the instant of the wall time that day', async () => {
    const berlin = await parseWhen('明天早上8点', { now: Date.parse('2026-03-28T12:00:00Z'), timeZone: 'Europe/Berlin' })
    expect(new Date(berlin.at).toISOString()).to.equal('2026-03-29T06:00:00.000Z')
  })

  it('the same answers whatever the machine\'s timezone', async function () {
    const machine = process.env.TZ
    try {
      for (const zone of ['UTC', 'Asia/Shanghai', 'America/New_York', 'Europe/Berlin', 'Pacific/Kiritimati']) {
        process.env.TZ = zone
        const got: string[] = []
        for (const [tz, now, text] of table) got.push(await due(tz, now, text))
        expect(got, `machine in ${zone}`).to.deep.equal(table.map((row) => row[3]))
      }
    } finally {
      if (machine === undefined) delete process.env.TZ
      else process.env.TZ = machine
    }
  })
})
