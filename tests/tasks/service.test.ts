// The scheduled tasks' service on the runtime clock (sinon fake timers) and a real data folder: cron and
// worded schedules in a zone without DST and one with it, restarts before and after a due time (missed runs
// skipped or made up once, never in the night hours), at most once across a crash, retries while the chat
// cannot be reached, the pause after failures (the masters told once), the money caps, who may manage.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { JournalStore } from '../../lib/core/journal-store.js'
import type { Config } from '../../lib/config/schema.js'
import { NotSentError } from '../../lib/storage/due.js'
import type { RunOutcome } from '../../lib/tasks/run.js'
import { TaskRefused, TaskService, type TaskActor, type TaskInput } from '../../lib/tasks/service.js'
import type { Task } from '../../lib/tasks/types.js'
import { quietLogger } from '../skills/helpers.js'

type Settings = Config['tasks']
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const MASTER: TaskActor = { userId: '10001', isMaster: true, via: 'dashboard' }
const digest = (over: Partial<TaskInput> = {}): TaskInput => ({ name: '早报', prompt: '搜索新闻并用三行总结', schedule: '0 8 * * *', target: { groupId: '555' }, ...over })

describe('tasks: the service on a fake clock with real files', function () {
  this.timeout(20_000)
  let dir: string
  let clock: sinon.SinonFakeTimers
  let settings: Settings
  let tz: string
  let runs: Array<{ id: string; at: number }>
  /** what the next runs answer (default: ok, cost 0.01) */
  let script: Array<RunOutcome | Error>
  let told: string[]
  const open: TaskService[] = []

  const ok = (cost = 0.01): RunOutcome => ({ status: 'ok', delivered: true, answer: '三行新闻', tokens: { input: 100, output: 20, cached: 50 }, cost, tools: ['web_search'] })
  const failed = (error = 'MODEL_ERROR: 502'): RunOutcome => ({ status: 'failed', delivered: false, error, tokens: { input: 0, output: 0, cached: 0 }, cost: 0, tools: [] })

  async function start (): Promise<TaskService> {
    const svc = await TaskService.open({ paths: { dataDir: dir }, config: { get: () => ({ storage: { database: { url: '' } } }) }, env: {}, log: quietLogger(new EventBus()), clock: systemClock }, {
      settings: () => settings,
      timeZone: () => tz,
      currency: () => 'CNY',
      clock: systemClock,
      log: quietLogger(new EventBus()),
      run: async (task) => {
        const next = script.shift() ?? ok()
        if (next instanceof Error) throw next
        runs.push({ id: task.id, at: Date.now() })
        return next
      },
      tellMasters: async (task, text) => { told.push(`${text.key}:${task?.id ?? ''}`) }
    })
    open.push(svc)
    await svc.start()
    await svc.idle()
    return svc
  }
  async function stop (svc: TaskService): Promise<void> {
    await svc.close()
    open.splice(open.indexOf(svc), 1)
  }
  async function advance (svc: TaskService, ms: number): Promise<void> {
    await clock.tickAsync(ms)
    await svc.idle()
    await clock.tickAsync(0)
    await svc.idle()
  }
  const at = (iso: string): number => Date.parse(iso)
  /**
   * Moves the clock to `until`, stopping at each due time on the way: a run writes its files while the fake
   * clock stands, so a jump past a due time would find the run late (as a bot down at that time would).
   */
  async function runUntil (svc: TaskService, until: number): Promise<void> {
    for (;;) {
      const next = Math.min(...svc.list().map((t) => t.nextAt ?? Infinity))
      if (next > until) break
      await advance(svc, Math.max(0, next - Date.now()))
    }
    await advance(svc, Math.max(0, until - Date.now()))
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-tasks-'))
    clock = sinon.useFakeTimers({ now: at('2026-11-26T11:40:00+08:00'), toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    settings = { enabled: true, maxTasks: 200, minIntervalMinutes: 30, groupAdminsMay: false, monthlyBudget: 0, pauseAfterFailures: 3, missedAfterMinutes: 10, nightHours: '23:00-08:00', runsKept: 50 }
    tz = 'Asia/Shanghai'
    runs = []
    script = []
    told = []
  })
  afterEach(async () => {
    for (const svc of [...open]) await stop(svc)
    clock.restore()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a cron task runs at 08:00 Shanghai time each day, once each, and its runs are recorded', async () => {
    const svc = await start()
    const t = await svc.create(MASTER, digest())
    expect(t.nextAt).to.equal(at('2026-11-27T08:00:00+08:00'))
    await advance(svc, at('2026-11-27T07:59:59+08:00') - Date.now())
    expect(runs).to.have.length(0)
    await advance(svc, 1000)
    expect(runs.map((r) => r.at)).to.deep.equal([at('2026-11-27T08:00:00+08:00')])
    expect(svc.get(t.id)?.nextAt).to.equal(at('2026-11-28T08:00:00+08:00'))
    await advance(svc, DAY)
    expect(runs).to.have.length(2)
    const history = svc.runsOf(t.id)
    expect(history.map((r) => [r.status, r.trigger, r.late, r.answer])).to.deep.equal([['ok', 'schedule', false, '三行新闻'], ['ok', 'schedule', false, '三行新闻']])
    expect(history[0]?.scheduledFor).to.equal(at('2026-11-28T08:00:00+08:00'))
    expect(svc.get(t.id)).to.include({ runs: 2, failures: 0 })
  })

  it('a schedule in words ("每天早上8点", "every Monday 9:00") and a one-off ("明天下午3点") run when they say; the one-off stays listed, unscheduled', async () => {
    const svc = await start()
    const daily = await svc.create(MASTER, digest({ schedule: '每天早上8点' }))
    expect(daily.schedule).to.deep.equal({ kind: 'recurrence', recurrence: { kind: 'daily', hour: 8, minute: 0 } })
    expect(daily.nextAt).to.equal(at('2026-11-27T08:00:00+08:00'))
    const weekly = await svc.create(MASTER, digest({ schedule: 'every Monday 9:00' }))
    expect(weekly.nextAt).to.equal(at('2026-11-30T09:00:00+08:00'))
    const once = await svc.create(MASTER, digest({ schedule: '明天下午3点', name: '倒计时' }))
    expect(once.schedule).to.deep.equal({ kind: 'once', at: at('2026-11-27T15:00:00+08:00') })
    await runUntil(svc, at('2026-11-27T15:00:00+08:00'))
    expect(runs.map((r) => r.id)).to.deep.equal([daily.id, once.id])
    expect(svc.get(once.id)?.nextAt).to.equal(undefined)
    await runUntil(svc, Date.now() + 7 * DAY)
    expect(runs.filter((r) => r.id === once.id)).to.have.length(1)
    expect(runs.filter((r) => r.id === weekly.id)).to.have.length(1)
    expect(svc.list().at(-1)?.id).to.equal(once.id)
  })

  it('with DST (America/New_York) a daily 08:00 stays 08:00 local across the change; a time the spring skips runs once that day', async () => {
    tz = 'America/New_York'
    clock.setSystemTime(at('2026-03-06T12:00:00Z')) // 07:00 EST
    const svc = await start()
    const eight = await svc.create(MASTER, digest({ schedule: '0 8 * * *' }))
    const halfTwo = await svc.create(MASTER, digest({ schedule: '30 2 * * *', name: 'night' }))
    await runUntil(svc, at('2026-03-09T23:00:00Z'))
    const seen = runs.filter((r) => r.id === eight.id).map((r) => r.at)
    // EST is UTC-5 until 8 March 2026 02:00, EDT UTC-4 after
    expect(seen.map((x) => new Date(x).toISOString())).to.deep.equal(['2026-03-06T13:00:00.000Z', '2026-03-07T13:00:00.000Z', '2026-03-08T12:00:00.000Z', '2026-03-09T12:00:00.000Z'])
    const nights = runs.filter((r) => r.id === halfTwo.id).map((r) => new Date(r.at).toISOString())
    // 7 March 02:30 EST, then 8 March (02:30 does not exist: once, an hour on), then 9 March 02:30 EDT
    expect(nights.slice(0, 3)).to.have.length(3)
    expect(new Set(nights.map((x) => x.slice(0, 10))).size).to.equal(nights.length, 'one run per day')
    expect(nights[0]).to.equal('2026-03-07T07:30:00.000Z')
    expect(nights[2]).to.equal('2026-03-09T06:30:00.000Z')
  })

  it('restarts: stopped before the due time and back within the grace it runs once on time; back later, a "skip" task records a missed run, a "late" one runs once late', async () => {
    let svc = await start()
    const skip = await svc.create(MASTER, digest({ name: 'skip' }))
    const late = await svc.create(MASTER, digest({ name: 'late', missed: 'late' }))
    await stop(svc)
    // down from 11:40 to 08:05 the next day: both missed their 08:00 by 5 minutes (within the 10-minute grace)
    clock.setSystemTime(at('2026-11-27T08:05:00+08:00'))
    svc = await start()
    expect(runs.map((r) => r.id).sort()).to.deep.equal([skip.id, late.id].sort())
    expect(svc.runsOf(skip.id)[0]).to.include({ status: 'ok', late: false })
    await stop(svc)
    // down until 09:30 the day after: missed by 90 minutes
    clock.setSystemTime(at('2026-11-28T09:30:00+08:00'))
    runs = []
    svc = await start()
    expect(runs.map((r) => r.id)).to.deep.equal([late.id])
    expect(svc.runsOf(late.id)[0]).to.include({ status: 'ok', late: true })
    expect(svc.runsOf(skip.id)[0]).to.include({ status: 'skipped', skipReason: 'missed', late: true })
    // both go on from the next morning, not again today
    expect(svc.get(skip.id)?.nextAt).to.equal(at('2026-11-29T08:00:00+08:00'))
    expect(svc.get(late.id)?.nextAt).to.equal(at('2026-11-29T08:00:00+08:00'))
  })

  it('a missed run is never made up in the night hours: back at 02:00, a "late" task records it skipped (night)', async () => {
    let svc = await start()
    const t = await svc.create(MASTER, digest({ schedule: '0 20 * * *', missed: 'late' }))
    await stop(svc)
    clock.setSystemTime(at('2026-11-27T02:00:00+08:00'))
    svc = await start()
    expect(runs).to.deep.equal([])
    expect(svc.runsOf(t.id)[0]).to.include({ status: 'skipped', skipReason: 'night' })
    expect(svc.get(t.id)?.nextAt).to.equal(at('2026-11-27T20:00:00+08:00'))
  })

  it('a crash after the at-most-once mark was written: the occurrence is not run again after the restart', async () => {
    let svc = await start()
    const t = await svc.create(MASTER, digest())
    await stop(svc)
    // what a stop between the mark and the advance leaves: the record marked at its occurrence
    const store = await JournalStore.open<Task, string>(join(dir, 'tasks.json'), { key: (x) => x.id, log: quietLogger(new EventBus()), now: () => Date.now() })
    await store.put({ ...(store.get(t.id) as Task), sending: t.nextAt as number })
    await store.close()
    clock.setSystemTime((t.nextAt as number) + MIN)
    svc = await start()
    expect(runs).to.deep.equal([])
    expect(svc.get(t.id)?.nextAt).to.equal((t.nextAt as number) + DAY)
  })

  it('while the chat cannot be reached (NotSentError) the occurrence is tried again after 15 s, then runs once', async () => {
    const svc = await start()
    const t = await svc.create(MASTER, digest())
    script = [new NotSentError('host not connected')]
    await advance(svc, (t.nextAt as number) - Date.now())
    expect(runs).to.have.length(0)
    expect(svc.runsOf(t.id)).to.have.length(0)
    await advance(svc, 15_000)
    expect(runs).to.have.length(1)
    expect(svc.runsOf(t.id)).to.have.length(1)
  })

  it('three failed runs in a row pause the task and tell the masters once; resumed, it runs again from its next time', async () => {
    const svc = await start()
    const t = await svc.create(MASTER, digest())
    script = [failed(), ok(), failed(), failed(), failed()]
    for (let i = 0; i < 5; i++) await advance(svc, (svc.get(t.id)?.nextAt as number) - Date.now())
    expect(svc.runsOf(t.id).map((r) => r.status)).to.deep.equal(['failed', 'failed', 'failed', 'ok', 'failed'])
    expect(svc.get(t.id)).to.include({ paused: 'failures', failures: 3 })
    expect(svc.get(t.id)?.nextAt).to.equal(undefined)
    expect(told).to.deep.equal([`tasks.pausedFailures:${t.id}`])
    await advance(svc, 3 * DAY)
    expect(runs).to.have.length(5)
    const resumed = await svc.resume(t.id, MASTER)
    expect(resumed).to.include({ failures: 0 }).and.not.have.property('paused')
    await advance(svc, (resumed.nextAt as number) - Date.now())
    expect(runs).to.have.length(6)
    expect(told).to.have.length(1)
  })

  it('money caps: a task over its monthly budget is skipped; all tasks over tasks.monthlyBudget are skipped and the masters told once; a new month starts again', async () => {
    const svc = await start()
    const own = await svc.create(MASTER, digest({ monthlyBudget: 1 }))
    script = [ok(0.6), ok(0.6), ok(0.6)]
    for (let i = 0; i < 3; i++) await advance(svc, (svc.get(own.id)?.nextAt as number) - Date.now())
    expect(svc.runsOf(own.id).map((r) => r.skipReason ?? r.status)).to.deep.equal(['budget', 'ok', 'ok'])
    expect(svc.spent(Date.now(), own.id)).to.equal(1.2)
    await svc.remove(own.id, MASTER)
    settings = { ...settings, monthlyBudget: 0.5 }
    // hourly, so that the runs stay in November
    const a = await svc.create(MASTER, digest({ name: 'a', schedule: '0 * * * *' }))
    script = [ok(0.3), ok(0.3), ok(0.3), ok(0.3)]
    for (let i = 0; i < 4; i++) await advance(svc, (svc.get(a.id)?.nextAt as number) - Date.now())
    expect(svc.runsOf(a.id).map((r) => r.skipReason ?? r.status)).to.deep.equal(['budget', 'budget', 'ok', 'ok'])
    expect(told).to.deep.equal(['tasks.budgetSpent:'])
    // December: the month's spending starts at 0
    await runUntil(svc, at('2026-12-01T00:00:00+08:00'))
    expect(svc.runsOf(a.id)[0]).to.include({ status: 'ok', scheduledFor: at('2026-12-01T00:00:00+08:00') })
    expect(svc.runsOf(a.id)[1]).to.include({ status: 'skipped', skipReason: 'budget' })
  })

  it('a manual run does not move the schedule; pause unschedules, resume schedules from now', async () => {
    const svc = await start()
    const t = await svc.create(MASTER, digest())
    const run = await svc.runNow(t.id, MASTER)
    expect(run).to.include({ trigger: 'manual', status: 'ok' })
    expect(svc.get(t.id)?.nextAt).to.equal(t.nextAt)
    // a change replaces the fields: what the new input leaves out is gone
    const budgeted = await svc.update(t.id, MASTER, digest({ presetId: 'p1', channel: 'c1', model: 'm1', monthlyBudget: 2 }))
    expect(budgeted).to.include({ presetId: 'p1', channel: 'c1', model: 'm1', monthlyBudget: 2 })
    const cleared = await svc.update(t.id, MASTER, digest())
    expect(cleared).to.not.have.any.keys('presetId', 'channel', 'model', 'monthlyBudget')
    expect(cleared.nextAt).to.equal(t.nextAt)
    const paused = await svc.pause(t.id, MASTER)
    expect(paused.nextAt).to.equal(undefined)
    await advance(svc, 2 * DAY)
    expect(runs).to.have.length(1)
    const back = await svc.resume(t.id, MASTER)
    expect(back.nextAt).to.equal(at('2026-11-29T08:00:00+08:00'))
  })

  it('refusals: bad schedules, too often, both or no chat, non-masters (group admins only for their group with tasks.groupAdminsMay)', async () => {
    const svc = await start()
    const refused = async (p: Promise<unknown>): Promise<string> => {
      try { await p } catch (err) { expect(err).to.be.instanceOf(TaskRefused); return (err as TaskRefused).reason }
      throw new Error('not refused')
    }
    expect(await refused(svc.create(MASTER, digest({ schedule: '61 8 * * *' })))).to.equal('badSchedule')
    expect(await refused(svc.create(MASTER, digest({ schedule: '*/5 * * * *' })))).to.equal('badSchedule')
    expect(await refused(svc.create(MASTER, digest({ schedule: '每5分钟' })))).to.equal('badSchedule')
    expect(await refused(svc.create(MASTER, digest({ schedule: '昨天下午3点' })))).to.equal('badSchedule')
    expect(await refused(svc.create(MASTER, digest({ target: { groupId: '1', userId: '2' } })))).to.equal('badTarget')
    expect(await refused(svc.create(MASTER, digest({ target: {} })))).to.equal('badTarget')
    const admin: TaskActor = { userId: '20001', isMaster: false, isGroupAdmin: true, groupId: '555', via: 'chat' }
    expect(await refused(svc.create(admin, digest()))).to.equal('forbidden')
    settings = { ...settings, groupAdminsMay: true }
    const mine = await svc.create(admin, digest())
    expect(mine.byMaster).to.equal(false)
    expect(await refused(svc.create(admin, digest({ target: { groupId: '556' } })))).to.equal('forbidden')
    expect(await refused(svc.create({ ...admin, isGroupAdmin: false }, digest()))).to.equal('forbidden')
    const masters = await svc.create(MASTER, digest({ target: { groupId: '556' } }))
    expect(await refused(svc.pause(masters.id, admin))).to.equal('forbidden')
    expect(await refused(svc.pause('tzzzzz', MASTER))).to.equal('notFound')
  })

  it('the newest tasks.runsKept runs are kept; a removed task takes its runs with it, also after a restart', async () => {
    settings = { ...settings, runsKept: 3, minIntervalMinutes: 30 }
    let svc = await start()
    const t = await svc.create(MASTER, digest({ schedule: '0 * * * *' }))
    for (let i = 0; i < 5; i++) await advance(svc, (svc.get(t.id)?.nextAt as number) - Date.now())
    expect(svc.runsOf(t.id)).to.have.length(3)
    await stop(svc)
    svc = await start()
    expect(svc.runsOf(t.id)).to.have.length(3)
    expect(svc.runsOf(t.id)[0]?.scheduledFor).to.equal(at('2026-11-26T16:00:00+08:00'))
    await svc.remove(t.id, MASTER)
    await stop(svc)
    svc = await start()
    expect(svc.runsOf(t.id)).to.deep.equal([])
    expect(svc.list()).to.deep.equal([])
  })
})
