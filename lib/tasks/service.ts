// The scheduled tasks: kept on the storage port (store `tasks`, their runs in `task-runs`: files by default,
// PostgreSQL when set), run at their times by lib/storage/due.ts (at most once; claimed by one instance when
// shared), each run recorded with its answer, tokens, cost and error. README.md of this folder has the rules.
import { randomBytes } from 'node:crypto'
import type { Clock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import type { Config } from '../config/schema.js'
import { resolveTimeZone, withinHours } from '../reminders/zoned.js'
import { monthKey } from '../stats/cost.js'
import { DueRunner, NotSentError } from '../storage/due.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import { openDueClaims, type DueClaims } from '../storage/pg/claims.js'
import type { RecordStore } from '../storage/records.js'
import { skipped, type RunOutcome } from './run.js'
import { TaskRuns } from './runs.js'
import { loadCron, nextRun, parseSchedule, runAfter, ScheduleError, type ScheduleReason } from './schedule.js'
import type { MissedPolicy, Task, TaskRun } from './types.js'

type Settings = Config['tasks']

/** Who makes or changes a task, and where. */
export interface TaskActor {
  userId: string
  isMaster: boolean
  /** owner or admin of `groupId` (chat only) */
  isGroupAdmin?: boolean
  groupId?: string
  via: 'dashboard' | 'chat'
}

/** A task as given by its maker (dashboard form, API, chat command). */
export interface TaskInput {
  name: string
  prompt: string
  /** "0 8 * * *", "每天早上8点", "every Monday 9:00", "明天下午3点" */
  schedule: string
  target: { groupId?: string | undefined; userId?: string | undefined }
  botId?: string | undefined
  presetId?: string | undefined
  channel?: string | undefined
  model?: string | undefined
  tools?: string[] | undefined
  missed?: MissedPolicy | undefined
  monthlyBudget?: number | undefined
  keepHistory?: boolean | undefined
}

export type TaskRefusal = 'disabled' | 'notFound' | 'forbidden' | 'limit' | 'badSchedule' | 'badTarget'

export class TaskRefused extends AppError {
  /** `schedule`: for `badSchedule`, what was wrong with it (the chat's text) */
  constructor (readonly reason: TaskRefusal, message: string, readonly schedule?: ScheduleReason) {
    super(reason === 'notFound' ? 'NOT_FOUND' : reason === 'forbidden' ? 'FORBIDDEN' : reason === 'disabled' ? 'SERVICE_UNAVAILABLE' : 'INVALID_ARGS', message)
  }
}

/** How a run is made (run.ts in the plugin; a script in tests) and how the masters are told. */
export interface TaskServiceOptions {
  settings: () => Settings
  /** `reminders.timezone` ('' = the machine's) */
  timeZone: () => string
  currency: () => string
  clock: Clock
  log: PluginLogger
  run: (task: Task, o: { timeZone: string }) => Promise<RunOutcome>
  /** tells the masters privately (a task paused itself, the budget is spent); never throws */
  tellMasters: (task: Task | undefined, text: { key: 'tasks.pausedFailures' | 'tasks.budgetSpent'; vars: Record<string, string | number> }) => Promise<void>
  bots?: () => string[] | undefined
  leaseMs?: number
}

/** Runs at once (a model turn takes seconds; tasks due at one minute do not queue behind each other). */
const CONCURRENCY = 4

export class TaskService {
  private readonly runner: DueRunner<Task>
  /** the month whose spent budget the masters were told of (once a month; a restart may tell again) */
  private toldBudget = ''
  private readonly manual = new Set<Promise<unknown>>()

  private readonly runs: TaskRuns

  private constructor (private readonly tasks: RecordStore<Task, string>, runs: RecordStore<TaskRun, string>, private readonly o: TaskServiceOptions, private readonly claims?: DueClaims<Task>) {
    this.runs = new TaskRuns(runs)
    this.runner = new DueRunner<Task>({
      store: tasks,
      claims,
      clock: o.clock,
      log: o.log,
      noun: 'task',
      work: async (task, w) => { await this.occurrence(task, w.late) },
      lateAfterMs: () => o.settings().missedAfterMinutes * 60_000,
      following: (task, now) => this.following(task, now),
      bots: () => o.bots?.(),
      concurrency: CONCURRENCY
    })
  }

  /** The stores `tasks` and `task-runs` on the port (files in the data folder, or PostgreSQL when set). */
  static async open (deps: RecordsDeps, o: TaskServiceOptions): Promise<TaskService> {
    const tasks = await openRecords<Task, string>(deps, 'tasks', { key: (t) => t.id })
    const runs = await openRecords<TaskRun, string>(deps, 'task-runs', { key: (r) => r.id }).catch(async (err: unknown) => { await tasks.close(); throw err })
    let claims: DueClaims<Task> | undefined
    try {
      claims = await openDueClaims<Task>(deps, 'tasks', o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {})
    } catch (err) {
      await Promise.all([tasks.close(), runs.close()])
      throw err
    }
    return new TaskService(tasks, runs, o, claims)
  }

  get timeZone (): string { return resolveTimeZone(this.o.timeZone()) }

  /** Calls `listener` when another instance changed a task or a run (shared storage only); answers the unsubscribe. */
  onRemote (listener: () => void): () => void {
    const offs = [this.tasks.onRemote(() => { listener() }), this.runs.onRemote(listener)]
    return () => { for (const off of offs) off() }
  }

  async start (): Promise<void> {
    // the next times of cron tasks need croner (loaded here, not at the plugin's start)
    if ([...this.tasks.values()].some((t) => t.schedule.kind === 'cron')) {
      await loadCron().catch((err: unknown) => { this.o.log.error('Cron tasks cannot be scheduled', { error: errorText(err) }) })
    }
    await this.runner.start()
  }

  async close (): Promise<void> {
    await this.runner.close()
    await Promise.allSettled([...this.manual])
    await Promise.all([this.tasks.close(), this.runs.close()])
    await this.claims?.close()
  }

  /** Waits for the runs under way (tests, stop). */
  async idle (): Promise<void> {
    await this.runner.idle()
    while (this.manual.size) await Promise.allSettled([...this.manual])
  }

  get (id: string): Task | undefined { return this.tasks.get(id) }

  /** Every task, the next due first, paused and finished ones last (by name). */
  list (f: { groupId?: string } = {}): Task[] {
    const out = [...this.tasks.values()].filter((t) => f.groupId === undefined || t.target.groupId === f.groupId)
    return out.sort((a, b) => (a.nextAt ?? Infinity) - (b.nextAt ?? Infinity) || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1))
  }

  /** A task's runs, newest first. */
  runsOf (taskId: string, limit = 50): TaskRun[] { return this.runs.of(taskId, limit) }

  /** What the tasks' runs cost in the month of `at` (all tasks, or one), in the price table's currency. */
  spent (at: number, taskId?: string): number { return this.runs.spent(at, this.timeZone, taskId) }

  /** The next `count` times of each active task within `days` from now (the dashboard's calendar). */
  upcoming (days: number, count = 20): Array<{ taskId: string; at: number }> {
    const now = this.o.clock.now()
    const until = now + days * 86_400_000
    const out: Array<{ taskId: string; at: number }> = []
    for (const t of this.tasks.values()) {
      let at = t.nextAt
      for (let i = 0; at !== undefined && at <= until && i < count; i++) {
        out.push({ taskId: t.id, at })
        at = nextRun(t.schedule, this.timeZone, at)
      }
    }
    return out.sort((a, b) => a.at - b.at).slice(0, 500)
  }

  async create (actor: TaskActor, input: TaskInput): Promise<Task> {
    const s = this.o.settings()
    this.mayManage(actor, input.target.groupId)
    if (this.tasks.size >= s.maxTasks) throw new TaskRefused('limit', `There are ${s.maxTasks} tasks already (tasks.maxTasks)`)
    const now = this.o.clock.now()
    const fields = await this.checked(input, now)
    const task: Task = {
      id: this.newId(),
      ...fields,
      failures: 0,
      runs: 0,
      createdBy: { userId: actor.userId, via: actor.via },
      byMaster: actor.isMaster,
      createdAt: now,
      updatedAt: now
    }
    await this.tasks.put(task)
    this.runner.changed(task.id)
    return task
  }

  /** Changes a task: the fields given replace its own; a new schedule starts from now. A paused task stays paused. */
  async update (id: string, actor: TaskActor, input: TaskInput): Promise<Task> {
    const old = this.owned(id, actor)
    this.mayManage(actor, input.target.groupId)
    const now = this.o.clock.now()
    const fields = await this.checked(input, now)
    // what the input leaves out is cleared (a preset, channel, model or budget taken away), not kept from before
    const { sending: _s, attempts: _a, nextAt: _n, botId: _b, presetId: _p, channel: _c, model: _m, monthlyBudget: _mb, ...rest } = old
    const task: Task = { ...rest, ...fields, updatedAt: now, byMaster: old.byMaster && actor.isMaster ? true : actor.isMaster }
    if (old.paused) delete task.nextAt
    await this.tasks.put(task)
    this.runner.changed(id)
    return task
  }

  async remove (id: string, actor: TaskActor): Promise<Task> {
    const task = this.owned(id, actor)
    await this.tasks.delete(id)
    this.runner.changed(id)
    await this.runs.removeAll(id)
    return task
  }

  async pause (id: string, actor: TaskActor): Promise<Task> {
    const task = this.owned(id, actor)
    const { sending: _s, attempts: _a, nextAt: _n, ...rest } = task
    const paused: Task = { ...rest, paused: 'manual', updatedAt: this.o.clock.now() }
    await this.tasks.put(paused)
    this.runner.changed(id)
    return paused
  }

  /** Resumes a paused task from now (the runs it missed while paused are not made up); failures start again at 0. */
  async resume (id: string, actor: TaskActor): Promise<Task> {
    const task = this.owned(id, actor)
    const now = this.o.clock.now()
    const { paused: _p, sending: _s, attempts: _a, nextAt: _n, ...rest } = task
    const next = nextRun(task.schedule, this.timeZone, now)
    const resumed: Task = { ...rest, failures: 0, updatedAt: now, ...(next !== undefined ? { nextAt: next } : {}) }
    await this.tasks.put(resumed)
    this.runner.changed(id)
    return resumed
  }

  /** Runs a task now, whatever its schedule (which it keeps); resolves with the run's record. */
  async runNow (id: string, actor: TaskActor): Promise<TaskRun> {
    const task = this.owned(id, actor)
    const p = this.execute(task, { trigger: 'manual', scheduledFor: this.o.clock.now(), late: false })
    this.manual.add(p)
    try { return await p } finally { this.manual.delete(p) }
  }

  /** The fields of a task from its input, checked; throws TaskRefused. */
  private async checked (input: TaskInput, now: number): Promise<Omit<Task, 'id' | 'failures' | 'runs' | 'createdBy' | 'byMaster' | 'createdAt' | 'updatedAt'>> {
    const name = input.name.trim()
    const prompt = input.prompt.trim()
    if (!name || !prompt) throw new TaskRefused('badTarget', !name ? 'A task needs a name' : 'A task needs a prompt')
    const groupId = input.target.groupId?.trim() || undefined
    const userId = input.target.userId?.trim() || undefined
    if ((groupId === undefined) === (userId === undefined)) throw new TaskRefused('badTarget', 'A task posts to one chat: give a group or a user (private chat), not both')
    let parsed
    try {
      parsed = await parseSchedule(input.schedule, { now, timeZone: this.timeZone, minIntervalMinutes: this.o.settings().minIntervalMinutes })
    } catch (err) {
      if (err instanceof ScheduleError) throw new TaskRefused('badSchedule', err.message, err.reason)
      throw err
    }
    const next = nextRun(parsed.schedule, this.timeZone, now)
    if (next === undefined) throw new TaskRefused('badSchedule', 'That time is already past', 'past')
    return {
      name,
      prompt,
      target: groupId !== undefined ? { groupId } : { userId: userId as string },
      ...(input.botId ? { botId: input.botId } : {}),
      ...(input.presetId ? { presetId: input.presetId } : {}),
      ...(input.channel ? { channel: input.channel } : {}),
      ...(input.model ? { model: input.model } : {}),
      tools: [...new Set(input.tools ?? [])],
      schedule: parsed.schedule,
      scheduleText: input.schedule.trim(),
      missed: input.missed ?? 'skip',
      ...(input.monthlyBudget !== undefined && input.monthlyBudget > 0 ? { monthlyBudget: input.monthlyBudget } : {}),
      keepHistory: input.keepHistory ?? false,
      nextAt: next
    }
  }

  /** Masters manage every task; a group's owner and admins their group's, in chat, when tasks.groupAdminsMay. */
  private mayManage (actor: TaskActor, groupId: string | undefined): void {
    if (actor.isMaster) return
    if (this.o.settings().groupAdminsMay && actor.isGroupAdmin === true && groupId !== undefined && groupId === actor.groupId) return
    throw new TaskRefused('forbidden', 'Only the masters (and, where allowed, a group\'s admins for that group) manage tasks')
  }

  private owned (id: string, actor: TaskActor): Task {
    const task = this.tasks.get(id)
    if (!task) throw new TaskRefused('notFound', `No task ${id}`)
    this.mayManage(actor, task.target.groupId)
    return task
  }

  private newId (): string {
    for (;;) {
      const id = 't' + (randomBytes(4).readUInt32BE() % 36 ** 5).toString(36).padStart(5, '0')
      if (!this.tasks.has(id)) return id
    }
  }

  /** After an occurrence: the next time (missed ones are not run again), a one-off is over. Paused: unscheduled. */
  private following (task: Task, now: number): Task | undefined {
    const { nextAt: due, ...rest } = task
    if (task.paused || due === undefined) return rest
    const next = runAfter(task.schedule, this.timeZone, due, now)
    return next !== undefined ? { ...rest, nextAt: next } : rest
  }

  /** A due occurrence (the runner marked it): skipped, or run and recorded. NotSentError: not run, tried later. */
  private async occurrence (task: Task, late: boolean): Promise<void> {
    const due = task.nextAt as number
    const s = this.o.settings()
    const now = this.o.clock.now()
    const skip = !s.enabled ? skipped('disabled', 'Scheduled tasks are turned off (tasks.enabled)')
      : late && task.missed === 'skip' ? skipped('missed', 'The bot was not running at this time; the task skips missed runs')
        : late && withinHours(s.nightHours, this.timeZone, now) ? skipped('night', `Missed, and not made up in the night hours (${s.nightHours})`)
          : this.overBudget(task, now)
    if (skip) { await this.record(task, { trigger: 'schedule', scheduledFor: due, late, startedAt: now }, skip); return }
    await this.execute(task, { trigger: 'schedule', scheduledFor: due, late })
  }

  /** A skipped run when a budget is spent (the masters told once a month), else undefined. */
  private overBudget (task: Task, now: number): RunOutcome | undefined {
    const s = this.o.settings()
    const mine = task.monthlyBudget !== undefined ? this.spent(now, task.id) : 0
    if (task.monthlyBudget !== undefined && mine >= task.monthlyBudget) return skipped('budget', `This task's budget for the month is spent (${mine} of ${task.monthlyBudget})`)
    if (s.monthlyBudget <= 0) return undefined
    const all = this.spent(now)
    if (all < s.monthlyBudget) return undefined
    const month = monthKey(now, this.timeZone)
    if (this.toldBudget !== month) {
      this.toldBudget = month
      void this.o.tellMasters(undefined, { key: 'tasks.budgetSpent', vars: { spent: all, budget: s.monthlyBudget, currency: this.o.currency() } })
    }
    return skipped('budget', `The tasks' budget for the month is spent (${all} of ${s.monthlyBudget}, tasks.monthlyBudget)`)
  }

  /** Runs the task and records the run; three failures in a row (tasks.pauseAfterFailures) pause it. */
  private async execute (task: Task, at: { trigger: TaskRun['trigger']; scheduledFor: number; late: boolean }): Promise<TaskRun> {
    const startedAt = this.o.clock.now()
    let outcome: RunOutcome
    try {
      outcome = await this.o.run(task, { timeZone: this.timeZone })
    } catch (err) {
      // the chat cannot be reached yet: a scheduled occurrence is tried again (lib/storage/due.ts), a manual run fails
      if (err instanceof NotSentError && at.trigger === 'schedule') throw err
      outcome = { status: 'failed', error: errorText(err), delivered: false, tokens: { input: 0, output: 0, cached: 0 }, cost: 0, tools: [] }
    }
    return await this.record(task, { ...at, startedAt }, outcome)
  }

  private async record (task: Task, at: { trigger: TaskRun['trigger']; scheduledFor: number; late: boolean; startedAt: number }, outcome: RunOutcome): Promise<TaskRun> {
    const run = await this.runs.add(task, { scheduledFor: at.scheduledFor, startedAt: at.startedAt, finishedAt: this.o.clock.now(), trigger: at.trigger, late: at.late, ...outcome }, this.o.settings().runsKept)
    await this.afterRun(task.id, run)
    return run
  }

  /** The task's counters after a run, and its pause after too many failures in a row (the masters told once). */
  private async afterRun (id: string, run: TaskRun): Promise<void> {
    const current = this.tasks.get(id)
    if (!current || run.status === 'skipped') return
    const failures = run.status === 'failed' ? current.failures + 1 : 0
    const limit = this.o.settings().pauseAfterFailures
    const updated: Task = { ...current, failures, runs: current.runs + 1, lastRunAt: run.startedAt }
    if (failures >= limit && !current.paused) {
      const { nextAt: _n, sending: _s, attempts: _a, ...rest } = updated
      await this.tasks.put({ ...rest, paused: 'failures' })
      this.runner.changed(id)
      this.o.log.warn('A scheduled task failed too often and paused itself', { id, failures, error: run.error ?? '' })
      await this.o.tellMasters(current, { key: 'tasks.pausedFailures', vars: { name: current.name, id, n: failures, error: (run.error ?? '').slice(0, 300) } })
      return
    }
    await this.tasks.put(updated)
  }
}
