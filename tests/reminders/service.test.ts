// The reminder service on the runtime clock (sinon fake timers) and a real data folder: a reminder set
// for two minutes ahead fires after a restart exactly once, one missed while stopped is delivered once
// marked late, recurring ones fire again and again, a crash between the send and the store write sends
// nothing twice, a failed send is retried, long delays are reached in steps; limits and who may cancel.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { JournalStore } from '../../lib/core/journal-store.js'
import { NotSentError } from '../../lib/storage/due.js'
import { ReminderRefused, ReminderService, type ReminderActor } from '../../lib/reminders/service.js'
import type { Reminder } from '../../lib/reminders/types.js'
import type { Config } from '../../lib/config/schema.js'
import { quietLogger } from '../skills/helpers.js'

type Settings = Config['reminders']
const NOW = Date.parse('2026-11-26T11:40:00+08:00')
const MIN = 60_000
const ALICE: ReminderActor = { userId: '20001', groupId: '555', isMaster: false, isGroupAdmin: false }
const BOB: ReminderActor = { userId: '20002', groupId: '555', isMaster: false, isGroupAdmin: false }

describe('reminders: the service across restarts (fake clock, real files)', function () {
  this.timeout(20_000)
  let dir: string
  let clock: sinon.SinonFakeTimers
  let sent: Array<{ id: string; message: string; late: boolean; at: number }>
  let fail = 0
  let settings: Settings
  const open: ReminderService[] = []

  async function start (): Promise<ReminderService> {
    const svc = await ReminderService.open(dir, {
      settings: () => settings,
      clock: systemClock,
      log: quietLogger(new EventBus()),
      deliver: async (r, o) => {
        if (fail > 0) { fail--; throw new NotSentError('host not connected') }
        sent.push({ id: r.id, message: r.message, late: o.late, at: Date.now() })
      }
    })
    open.push(svc)
    await svc.start()
    await svc.idle()
    return svc
  }
  async function stop (svc: ReminderService): Promise<void> {
    await svc.close()
    open.splice(open.indexOf(svc), 1)
  }
  /** Advances the fake clock, then lets the delivery round (real file writes) finish. */
  async function advance (svc: ReminderService, ms: number): Promise<void> {
    await clock.tickAsync(ms)
    await svc.idle()
    await clock.tickAsync(0)
    await svc.idle()
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-reminders-'))
    clock = sinon.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    sent = []
    fail = 0
    settings = { enabled: true, timezone: 'Asia/Shanghai', maxPerUser: 20, maxPerGroup: 50, minIntervalMinutes: 1, maxMessageChars: 500, groupRecurringNeedsAdmin: true, lateAfterSeconds: 60 }
  })
  afterEach(async () => {
    for (const svc of [...open]) await stop(svc)
    clock.restore()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a reminder set for two minutes ahead fires after a restart, on time and exactly once', async () => {
    let svc = await start()
    const r = await svc.create(ALICE, { when: '2分钟后', message: '喝水' })
    expect(r.nextAt).to.equal(NOW + 2 * MIN)
    await stop(svc)
    await clock.tickAsync(1 * MIN) // stopped: nothing runs
    expect(sent).to.deep.equal([])
    svc = await start()
    expect(sent).to.deep.equal([]) // not due yet
    await advance(svc, 1 * MIN)
    expect(sent).to.deep.equal([{ id: r.id, message: '喝水', late: false, at: NOW + 2 * MIN }])
    await advance(svc, 60 * MIN)
    await stop(svc)
    svc = await start()
    await advance(svc, 60 * MIN)
    expect(sent).to.have.length(1)
    expect(svc.list()).to.deep.equal([])
  })

  it('a reminder that fell due while stopped is delivered once at start, marked late', async () => {
    let svc = await start()
    const r = await svc.create(BOB, { when: 'in 2 minutes', message: 'stretch' })
    await stop(svc)
    await clock.tickAsync(30 * MIN)
    svc = await start()
    expect(sent).to.deep.equal([{ id: r.id, message: 'stretch', late: true, at: NOW + 30 * MIN }])
    await stop(svc)
    svc = await start()
    await advance(svc, 10 * MIN)
    expect(sent).to.have.length(1)
  })

  it('recurring reminders fire again and again; a missed stretch is sent once and goes on', async () => {
    const svc = await start()
    const every = await svc.create({ ...ALICE, groupId: undefined }, { when: '每隔5分钟', message: '站起来' })
    for (let i = 1; i <= 3; i++) await advance(svc, 5 * MIN)
    expect(sent.map((s) => [s.id, s.late, s.at])).to.deep.equal([[every.id, false, NOW + 5 * MIN], [every.id, false, NOW + 10 * MIN], [every.id, false, NOW + 15 * MIN]])
    expect(svc.get(every.id)?.fired).to.equal(3)
    await svc.cancel(every.id, { userId: ALICE.userId, isMaster: false })

    sent = []
    const daily = await svc.create({ ...ALICE, groupId: undefined }, { when: '每天早上8点', message: '吃药' })
    // three mornings (the clock stops at each: a delivery round writes real files, which fake time does not wait for)
    await advance(svc, Date.parse('2026-11-27T08:00:00+08:00') - Date.now())
    await advance(svc, 24 * 60 * MIN)
    await advance(svc, 24 * 60 * MIN)
    expect(sent.map((s) => new Date(s.at).toISOString())).to.deep.equal(['2026-11-27T00:00:00.000Z', '2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'])
    expect(svc.get(daily.id)?.nextAt).to.equal(Date.parse('2026-11-30T08:00:00+08:00'))
  })

  it('a recurring reminder missed for days while stopped is sent once, late, then keeps its time', async () => {
    let svc = await start()
    const daily = await svc.create({ ...ALICE, groupId: undefined }, { when: 'every day at 8am', message: 'pills' })
    await stop(svc)
    await clock.tickAsync(3 * 24 * 60 * MIN)
    svc = await start()
    expect(sent.map((s) => [s.message, s.late])).to.deep.equal([['pills', true]])
    expect(svc.get(daily.id)?.nextAt).to.equal(Date.parse('2026-11-30T08:00:00+08:00'))
  })

  it('a crash between the send and the store write sends nothing twice (the sending mark)', async () => {
    // what a stop right after the send leaves on disk: the reminder with its sending mark
    const store = await JournalStore.open<Reminder, string>(join(dir, 'reminders.json'), { key: (r) => r.id })
    const base = { userId: '20001', message: 'x', createdAt: NOW - 10 * MIN, status: 'active' as const, fired: 0 }
    await store.put({ ...base, id: 'rone00', nextAt: NOW - MIN, sending: NOW - MIN })
    await store.put({ ...base, id: 'rrec00', nextAt: NOW - MIN, sending: NOW - MIN, recurrence: { kind: 'interval', minutes: 10 } })
    await store.put({ ...base, id: 'rdue00', nextAt: NOW - MIN }) // due, never started: sent (late)
    await store.close()
    const svc = await start()
    expect(sent.map((s) => s.id)).to.deep.equal(['rdue00'])
    expect(svc.get('rone00')).to.equal(undefined)
    expect(svc.get('rrec00')?.nextAt).to.equal(NOW + 9 * MIN)
    expect(svc.get('rrec00')?.sending).to.equal(undefined)
    await advance(svc, 9 * MIN)
    expect(sent.map((s) => s.id)).to.deep.equal(['rdue00', 'rrec00'])
  })

  it('a send that fails before anything went out is retried (the host not connected yet)', async () => {
    const svc = await start()
    fail = 2
    await svc.create(ALICE, { when: '1分钟后', message: '开会' })
    await advance(svc, 1 * MIN)
    expect(sent).to.deep.equal([])
    await advance(svc, 15_000) // first retry fails too
    expect(sent).to.deep.equal([])
    await advance(svc, 30_000)
    expect(sent.map((s) => s.message)).to.deep.equal(['开会'])
    await advance(svc, 60 * MIN)
    expect(sent).to.have.length(1)
  })

  it('a reminder 40 days ahead fires on its day (timers re-armed in steps under setTimeout\'s limit)', async () => {
    const svc = await start()
    const r = await svc.create(ALICE, { when: '40天后', message: 'far' })
    await advance(svc, 40 * 24 * 60 * MIN - MIN)
    expect(sent).to.deep.equal([])
    await advance(svc, MIN)
    expect(sent.map((s) => [s.id, s.late])).to.deep.equal([[r.id, false]])
  })

  it('limits: per user, per group, message length, interval; recurring in a group needs an admin', async () => {
    const svc = await start()
    const refusal = async (p: Promise<unknown>): Promise<string> => {
      try { await p } catch (err) { expect(err).to.be.instanceOf(ReminderRefused); return (err as ReminderRefused).reason }
      throw new Error('expected a refusal')
    }
    expect(await refusal(svc.create(ALICE, { when: '每天8点', message: '周报' }))).to.equal('needsAdmin')
    expect((await svc.create({ ...ALICE, isGroupAdmin: true }, { when: '每天8点', message: '周报' })).recurrence?.kind).to.equal('daily')
    expect((await svc.create({ ...ALICE, groupId: undefined }, { when: '每天9点', message: '私聊的可以' })).recurrence?.kind).to.equal('daily')
    settings.minIntervalMinutes = 10
    expect(await refusal(svc.create({ ...ALICE, groupId: undefined }, { when: '每隔5分钟', message: 'x' }))).to.equal('tooOften')
    expect(await refusal(svc.create(ALICE, { when: '5分钟后', message: 'x'.repeat(501) }))).to.equal('tooLong')
    expect(await refusal(svc.create(ALICE, { when: '提醒我', message: 'x' }))).to.equal('noTime')
    settings.maxPerUser = 3
    await svc.create(ALICE, { when: '5分钟后', message: 'third' })
    expect(await refusal(svc.create(ALICE, { when: '5分钟后', message: 'fourth' }))).to.equal('userLimit')
    settings.maxPerGroup = 2
    expect(await refusal(svc.create(BOB, { when: '5分钟后', message: 'bob' }))).to.equal('groupLimit')
    settings.enabled = false
    expect(await refusal(svc.create(BOB, { when: '5分钟后', message: 'bob' }))).to.equal('disabled')
  })

  it('only the owner cancels a reminder; a master any; a cancelled one never fires', async () => {
    const svc = await start()
    const r = await svc.create(ALICE, { when: '5分钟后', message: '喝水' })
    let reason = ''
    try { await svc.cancel(r.id, { userId: BOB.userId, isMaster: false }) } catch (err) { reason = (err as ReminderRefused).reason }
    expect(reason).to.equal('notYours')
    expect(svc.get(r.id)).to.not.equal(undefined)
    expect((await svc.cancel(r.id, { userId: '10001', isMaster: true })).status).to.equal('cancelled')
    await advance(svc, 10 * MIN)
    expect(sent).to.deep.equal([])
    try { await svc.cancel(r.id, { userId: ALICE.userId, isMaster: false }) } catch (err) { reason = (err as ReminderRefused).reason }
    expect(reason).to.equal('notFound')
  })
})
