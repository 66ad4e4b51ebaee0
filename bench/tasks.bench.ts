// Scheduled tasks at 10,000 (lib/tasks/README.md): the next time of each (cron through croner, words through
// the reminders' recurrences), an occurrence's claim (the at-most-once mark and the advance in the files; the
// claim, the mark and the advance in PostgreSQL with 10,000 tasks in the table), and what 10,000 tasks add to
// the domain's start. Medians of three rounds where a round is short.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventBus } from '../lib/core/event-bus.js'
import { JournalStore } from '../lib/core/journal-store.js'
import { PluginLogger } from '../lib/core/logger.js'
import type { Config } from '../lib/config/schema.js'
import { openRecords } from '../lib/storage/open.js'
import { openDueClaims } from '../lib/storage/pg/claims.js'
import { loadCron, nextRun } from '../lib/tasks/schedule.js'
import { TaskService } from '../lib/tasks/service.js'
import type { Task, TaskSchedule } from '../lib/tasks/types.js'
import { freshDatabase, startPostgres } from '../tests/support/postgres.js'
import { percentile, type BenchRow } from './types.js'

const TASKS = 10_000
const TZ = 'Asia/Shanghai'
const NOW = Date.parse('2026-11-26T07:00:00+08:00')
const SETTINGS: Config['tasks'] = { enabled: true, maxTasks: 100_000, minIntervalMinutes: 30, groupAdminsMay: false, monthlyBudget: 0, pauseAfterFailures: 3, missedAfterMinutes: 10, nightHours: '23:00-08:00', runsKept: 50 }
const noop = (): void => undefined
const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits
const clock = { now: () => NOW, setTimeout, clearTimeout, setInterval, clearInterval }

/** A mix owners write: daily crons at many minutes, weekday and weekly ones, monthly, and schedules in words. */
function scheduleOf (i: number): TaskSchedule {
  switch (i % 5) {
    case 0: return { kind: 'cron', expr: `${i % 60} ${8 + (i % 12)} * * *` }
    case 1: return { kind: 'cron', expr: `0 ${9 + (i % 9)} * * 1-5` }
    case 2: return { kind: 'cron', expr: `30 20 * * ${i % 7}` }
    case 3: return { kind: 'recurrence', recurrence: { kind: 'daily', hour: i % 24, minute: (i * 7) % 60 } }
    default: return { kind: 'recurrence', recurrence: { kind: 'monthly', day: 1 + (i % 28), hour: 9, minute: 0 } }
  }
}

function taskOf (i: number, nextAt: number | undefined): Task {
  return {
    id: 't' + i.toString(36).padStart(5, '0'), name: `task ${i}`, prompt: '总结今天群里聊了什么', target: { groupId: String(100000 + (i % 500)) },
    tools: [], schedule: scheduleOf(i), scheduleText: '', missed: 'skip', keepHistory: false, failures: 0, runs: 0,
    createdBy: { userId: '10001', via: 'dashboard' }, byMaster: true, createdAt: NOW, updatedAt: NOW, ...(nextAt !== undefined ? { nextAt } : {})
  }
}

async function seedFiles (dir: string, tasks: Task[]): Promise<void> {
  const store = await JournalStore.open<Task, string>(join(dir, 'tasks.json'), { key: (t) => t.id, log, now: () => NOW })
  await store.putMany(tasks)
  await store.fold() // as a bot's data folder is after its first start: a snapshot, not a long journal
  await store.close()
}

const median = (xs: number[]): number => percentile(xs, 50)

async function startMs (dir: string): Promise<number> {
  const t0 = performance.now()
  const svc = await TaskService.open({ paths: { dataDir: dir }, config: { get: () => ({ storage: { database: { url: '' } } }) }, env: {}, log, clock }, {
    settings: () => SETTINGS, timeZone: () => TZ, currency: () => 'CNY', clock, log, run: async () => { throw new Error('not in the bench') }, tellMasters: async () => undefined
  })
  await svc.start()
  const ms = performance.now() - t0
  await svc.close()
  return ms
}

export async function run (): Promise<BenchRow[]> {
  await loadCron()
  const tasks = Array.from({ length: TASKS }, (_, i) => taskOf(i, undefined))
  // the next time of each, from a moment spread over a week (every call a fresh instant: no answer reused)
  const nextUs: number[] = []
  for (let round3 = 0; round3 < 3; round3++) {
    for (const [i, t] of tasks.entries()) {
      const after = NOW + ((i * 7919 + round3 * 104729) % (7 * 86_400_000))
      const t0 = performance.now()
      const at = nextRun(t.schedule, TZ, after)
      nextUs.push((performance.now() - t0) * 1000)
      if (at === undefined || at <= after) throw new Error(`no next time for ${JSON.stringify(t.schedule)}`)
    }
  }
  const seeded = tasks.map((t) => ({ ...t, nextAt: nextRun(t.schedule, TZ, NOW) as number }))

  const dirs: string[] = []
  const tmp = (): string => { const d = mkdtempSync(join(tmpdir(), 'lingxi-bench-tasks-')); dirs.push(d); return d }
  const pg = await startPostgres()
  try {
    // start: the domain's service over 10,000 tasks against an empty one, alternated, three each
    const full = tmp()
    await seedFiles(full, seeded)
    const empty = tmp()
    const withTasks: number[] = []
    const without: number[] = []
    for (let i = 0; i < 3; i++) { without.push(await startMs(empty)); withTasks.push(await startMs(full)) }
    const added = median(withTasks) - median(without)

    // files: the claim of an occurrence is its at-most-once mark (one synced journal line); the advance after the run another
    const fileStore = await JournalStore.open<Task, string>(join(full, 'tasks.json'), { key: (t) => t.id, log, now: () => NOW })
    const fileMs: number[] = []
    const fileAdvanceMs: number[] = []
    for (const t of seeded.slice(0, 300)) {
      const t0 = performance.now()
      await fileStore.put({ ...t, sending: t.nextAt })
      const t1 = performance.now()
      await fileStore.put({ ...t, nextAt: nextRun(t.schedule, TZ, t.nextAt as number) as number })
      fileMs.push(t1 - t0)
      fileAdvanceMs.push(performance.now() - t1)
    }
    await fileStore.close()

    // PostgreSQL: 10,000 tasks in lx_records, 300 of them due; claimed in rounds of 20, marked, finished
    const url = await freshDatabase(pg.url)
    const deps = { paths: { dataDir: tmp() }, config: { get: () => ({ storage: { database: { url } } }) }, env: {}, log, clock }
    const store = await openRecords<Task, string>(deps, 'tasks', { key: (t) => t.id })
    await store.putMany(seeded.map((t, i) => (i < 300 ? { ...t, nextAt: NOW - 60_000 } : t)))
    const claims = await openDueClaims<Task>(deps, 'tasks')
    if (!claims) throw new Error('no claims on PostgreSQL')
    const pgMs: number[] = []
    const pgAdvanceMs: number[] = []
    for (;;) {
      const t0 = performance.now()
      const round20 = await claims.claimDue(NOW, { limit: 20, bots: undefined })
      const roundMs = performance.now() - t0
      if (!round20.claimed.length) break
      for (const c of round20.claimed) {
        const t1 = performance.now()
        if (!await claims.markSending(c.key, c.occurrence, NOW)) throw new Error('claim lost')
        const t2 = performance.now()
        await claims.finish(c.key, c.occurrence, { ...c.record, nextAt: nextRun(c.record.schedule, TZ, NOW) as number })
        pgMs.push(roundMs / round20.claimed.length + t2 - t1)
        pgAdvanceMs.push(performance.now() - t2)
      }
    }
    await claims.close()
    await store.close()
    if (pgMs.length !== 300) throw new Error(`claimed ${pgMs.length} of 300`)

    return [
      { name: `next run time, ${TASKS} tasks (cron and words), p50`, figure: round(percentile(nextUs, 50) / 1000, 4), unit: 'ms', target: '<= 1', pass: percentile(nextUs, 50) <= 1000 },
      { name: 'next run time p99', figure: round(percentile(nextUs, 99) / 1000, 4), unit: 'ms', target: 'report', pass: true },
      { name: 'an occurrence claimed, files (its mark, one synced line), p50', figure: round(percentile(fileMs, 50), 3), unit: 'ms', target: '<= 1', pass: percentile(fileMs, 50) <= 1 },
      { name: 'its advance after the run, files, p50', figure: round(percentile(fileAdvanceMs, 50), 3), unit: 'ms', target: 'report', pass: true },
      { name: `an occurrence claimed, PostgreSQL (${TASKS} tasks; claim round / 20 + mark), p50`, figure: round(percentile(pgMs, 50), 3), unit: 'ms', target: '<= 1', pass: percentile(pgMs, 50) <= 1 },
      { name: 'an occurrence claimed, PostgreSQL p99', figure: round(percentile(pgMs, 99), 3), unit: 'ms', target: 'report', pass: true },
      { name: 'its advance after the run (finish: the record, the claim, the notice in one transaction), PostgreSQL p50', figure: round(percentile(pgAdvanceMs, 50), 3), unit: 'ms', target: 'report', pass: true },
      { name: `start-up added by ${TASKS} tasks (median of 3: ${round(median(withTasks), 1)} against ${round(median(without), 1)} ms)`, figure: round(added, 1), unit: 'ms', target: '< 200', pass: added < 200 }
    ]
  } finally {
    await pg.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  }
}
