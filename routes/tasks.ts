// Scheduled tasks (docs/api.md, Groups of routes: tasks; style B): the dashboard lists, makes, changes,
// pauses, resumes, runs and removes the prompts the bot runs by itself (lib/tasks), and reads their runs,
// the next times and what they cost this month. The dashboard is the master's, so it manages every task.
import type Router from '@koa/router'
import type { Context } from 'koa'
import { z } from 'zod'
import { AppError, badRequest } from '../lib/core/errors.js'
import { formatWall } from '../lib/reminders/zoned.js'
import type { Runtime } from '../lib/runtime.js'
import { monthKey } from '../lib/stats/cost.js'
import { describeSchedule } from '../lib/tasks/schedule.js'
import type { TaskActor, TaskInput, TaskService } from '../lib/tasks/service.js'
import type { Task, TaskRun } from '../lib/tasks/types.js'
import { sessionOf } from './_http/auth.js'
import { done } from './_http/answers.js'
import { B, created, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { recurrenceData } from './_http/recurrence.js'
import { routeDoc, type Data } from './_http/route-docs.js'
import { bodyOf, filterId, intParam, parseQuery, parseWith, requireFields } from './_http/validate.js'

const LIMITS = { name: 100, prompt: 4000, schedule: 200, ref: 100, model: 200, tools: 100, budget: 1_000_000 }
const RUNS = { defaultLimit: 20, maxLimit: 200 }
const UPCOMING = { defaultDays: 7, maxDays: 31 }

const longer = (field: string, max: number): string => `${field} is longer than ${max} characters`
const text = (field: string, max: number): z.ZodString => z.string({ error: `${field} must be a string` }).max(max, longer(field, max))
const taskId = z.string().regex(/^t[0-9a-z]{5}$/, 'id must look like t0a1b2')

const taskBody = z.strictObject({
  name: text('name', LIMITS.name),
  prompt: text('prompt', LIMITS.prompt),
  schedule: text('schedule', LIMITS.schedule),
  // one chat: a group, or a private chat with a user
  target: z.strictObject({ groupId: filterId('groupId').optional(), userId: filterId('userId').optional() }, { error: 'target must be { groupId } or { userId }' })
    .refine((t) => (t.groupId === undefined) !== (t.userId === undefined), { error: 'target must name a groupId or a userId, not both' }),
  botId: filterId('botId').optional(),
  presetId: text('presetId', LIMITS.ref).optional(),
  channel: text('channel', LIMITS.ref).optional(),
  model: text('model', LIMITS.model).optional(),
  tools: z.array(text('tool name', LIMITS.ref), { error: 'tools must be a list of tool names' }).max(LIMITS.tools, `tools: at most ${LIMITS.tools}`).optional(),
  missed: z.enum(['skip', 'late'], { error: 'missed must be skip or late' }).optional(),
  monthlyBudget: z.number({ error: 'monthlyBudget must be a number' }).min(0, 'monthlyBudget must be 0 or more').max(LIMITS.budget, `monthlyBudget must be at most ${LIMITS.budget}`).optional(),
  keepHistory: z.boolean({ error: 'keepHistory must be a boolean' }).optional()
})

const listQuery = z.object({ groupId: filterId('groupId').optional() })
// read with intParam (an invalid value becomes the default, an out-of-range one is clamped: docs/api.md, Paging)
const runsQuery = z.object({ limit: z.int().min(1).max(RUNS.maxLimit).optional(), offset: z.int().min(0).optional() })
const taskQuery = z.object({ limit: z.int().min(1).max(RUNS.maxLimit).optional() })
const upcomingQuery = z.object({ days: z.int().min(1).max(UPCOMING.maxDays).optional() })

const taskData = z.object({
  id: z.string(), name: z.string(), prompt: z.string(),
  target: z.object({ groupId: z.string().optional(), userId: z.string().optional() }),
  botId: z.string().optional(), presetId: z.string().optional(), channel: z.string().optional(), model: z.string().optional(),
  tools: z.array(z.string()),
  schedule: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('once'), at: z.number() }),
    z.object({ kind: z.literal('cron'), expr: z.string() }),
    z.object({ kind: z.literal('recurrence'), recurrence: recurrenceData })
  ]),
  scheduleText: z.string(),
  missed: z.enum(['skip', 'late']),
  monthlyBudget: z.number().optional(),
  keepHistory: z.boolean(),
  nextAt: z.number().optional(),
  paused: z.enum(['manual', 'failures', 'budget']).optional(),
  failures: z.number(), runs: z.number(), lastRunAt: z.number().optional(),
  createdBy: z.object({ userId: z.string(), via: z.enum(['dashboard', 'chat']) }),
  byMaster: z.boolean(), createdAt: z.number(), updatedAt: z.number(),
  sending: z.number().optional(), attempts: z.number().optional()
})
const runData = z.object({
  id: z.string(), taskId: z.string(), scheduledFor: z.number(), startedAt: z.number(), finishedAt: z.number(),
  trigger: z.enum(['schedule', 'manual']), status: z.enum(['ok', 'failed', 'skipped']), late: z.boolean(),
  answer: z.string().optional(), error: z.string().optional(), skipReason: z.string().optional(), delivered: z.boolean(),
  tokens: z.object({ input: z.number(), output: z.number(), cached: z.number() }),
  cost: z.number().nullable(), model: z.string().optional(), channel: z.string().optional(), tools: z.array(z.string()), whyId: z.string().optional()
})
const lastRun = z.object({ id: z.string(), status: z.enum(['ok', 'failed', 'skipped']), startedAt: z.number(), cost: z.number().nullable(), error: z.string().optional() })
// as listed: the next time as wall time in the tasks' time zone, the schedule in words, the newest run, this month's cost
const taskItem = taskData.extend({ next: z.string().nullable(), timeZone: z.string(), scheduleWords: z.string(), lastRun: lastRun.nullable(), spentThisMonth: z.number() })
const taskWithRuns = taskItem.extend({ runs: z.array(runData) })
const upcomingItem = z.object({ at: z.number(), next: z.string(), taskId: z.string(), name: z.string() })
const spentData = z.object({ month: z.string(), spent: z.number(), budget: z.number(), currency: z.string() })

type TaskItem = Data<typeof taskItem>

export function tasksRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/tasks' })
  const svc = (): TaskService => {
    const s = rt.optional('tasks')
    if (!s) throw new AppError('SERVICE_UNAVAILABLE', 'Scheduled tasks are not running: the tasks domain did not start (see the log)')
    return s
  }
  // the dashboard is the master's; the session names who acted
  const actor = (ctx: Context): TaskActor => ({ userId: sessionOf(ctx)?.sub || 'dashboard', isMaster: true, via: 'dashboard' })
  const idOf = (ctx: Context): string => parseWith(taskId, ctx.params.id)
  const item = (s: TaskService, t: Task): TaskItem => {
    const tz = s.timeZone
    const now = rt.clock.now()
    const last = s.runsOf(t.id, 1)[0]
    return {
      ...t,
      next: t.nextAt !== undefined ? formatWall(tz, t.nextAt) : null,
      timeZone: tz,
      scheduleWords: describeSchedule(t.schedule, tz, rt.config.get().language),
      lastRun: last ? { id: last.id, status: last.status, startedAt: last.startedAt, cost: last.cost, ...(last.error !== undefined ? { error: last.error } : {}) } : null,
      spentThisMonth: s.spent(now, t.id)
    }
  }
  const found = (s: TaskService, id: string): Task => {
    const t = s.get(id)
    if (!t) throw new AppError('NOT_FOUND', `No task ${id}`)
    return t
  }
  /** The body, checked, with what it names (tools, preset, channel) known to the bot. */
  const input = (ctx: Context): TaskInput => {
    requireFields(bodyOf(ctx), ['name', 'prompt', 'schedule', 'target'])
    const b = parseWith(taskBody, bodyOf(ctx))
    if (b.tools?.length) {
      const registry = rt.optional('tools')?.registry
      if (!registry) throw badRequest('tools: the tools are not available (the tools domain did not start)')
      const unknown = [...new Set(b.tools)].filter((n) => !registry.get(n))
      if (unknown.length) throw badRequest(`tools: unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`)
    }
    if (b.presetId && !rt.optional('presets')?.find(b.presetId)) throw badRequest(`presetId: no preset ${b.presetId}`)
    if (b.channel && !rt.optional('channels')?.service.find(b.channel)) throw badRequest(`channel: no channel ${b.channel}`)
    return b
  }

  // the next due first (routes/_http/paging.ts: the whole list, or a page with limit/offset)
  r.get('/', B((ctx) => {
    const q = parseQuery(ctx, listQuery)
    const s = svc()
    const list = s.list(q.groupId !== undefined ? { groupId: q.groupId } : {})
    const p = pageParams(ctx)
    if (!p) return list.map((t) => item(s, t))
    return paged(list.slice(p.offset, p.offset + p.limit).map((t) => item(s, t)), list.length, p)
  }))
  routeDoc(r, 'GET', '/', { query: listQuery, summary: 'List scheduled tasks, the next due first (filter by groupId; paged), each with its next time, schedule in words, newest run and cost this month', data: z.array(taskItem), errors: [503] })

  r.post('/', B(async (ctx) => {
    const s = svc()
    return created(item(s, await s.create(actor(ctx), input(ctx))))
  }))
  routeDoc(r, 'POST', '/', { body: taskBody, summary: 'Make a scheduled task (schedule: a cron expression, words such as 每天早上8点, or a time once)', status: 201, data: taskItem, errors: [503] })

  // fixed paths before /:id
  r.get('/upcoming', B((ctx): Array<Data<typeof upcomingItem>> => {
    const days = intParam(ctx.query.days, UPCOMING.defaultDays, 1, UPCOMING.maxDays)
    const s = svc()
    const tz = s.timeZone
    return s.upcoming(days).map((u) => ({ at: u.at, next: formatWall(tz, u.at), taskId: u.taskId, name: s.get(u.taskId)?.name ?? '' }))
  }))
  routeDoc(r, 'GET', '/upcoming', { query: upcomingQuery, summary: `The next times of the active tasks within days (default ${UPCOMING.defaultDays}, at most ${UPCOMING.maxDays}), soonest first`, data: z.array(upcomingItem), errors: [503] })

  r.get('/spent', B((): Data<typeof spentData> => {
    const s = svc()
    const now = rt.clock.now()
    const cfg = rt.config.get()
    return { month: monthKey(now, s.timeZone), spent: s.spent(now), budget: cfg.tasks.monthlyBudget, currency: cfg.pricing.currency }
  }))
  routeDoc(r, 'GET', '/spent', { summary: 'What the tasks\' runs cost this month, against tasks.monthlyBudget (0 = no cap)', data: spentData, errors: [503] })

  r.get('/:id', B((ctx): Data<typeof taskWithRuns> => {
    const id = idOf(ctx)
    const s = svc()
    const limit = intParam(ctx.query.limit, RUNS.defaultLimit, 1, RUNS.maxLimit)
    return { ...item(s, found(s, id)), runs: s.runsOf(id, limit) }
  }))
  routeDoc(r, 'GET', '/:id', { query: taskQuery, summary: `A task with its runs, newest first (limit: default ${RUNS.defaultLimit}, at most ${RUNS.maxLimit})`, data: taskWithRuns, errors: [503] })

  r.put('/:id', B(async (ctx) => {
    const id = idOf(ctx)
    const s = svc()
    return item(s, await s.update(id, actor(ctx), input(ctx)))
  }))
  routeDoc(r, 'PUT', '/:id', { body: taskBody, summary: 'Change a task (every field as on creation; a new schedule counts from now; a paused task stays paused)', data: taskItem, errors: [503] })

  r.delete('/:id', B(async (ctx) => {
    const id = idOf(ctx)
    await svc().remove(id, actor(ctx))
    return { success: true as const }
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Remove a task and its runs', data: done, errors: [503] })

  r.post('/:id/pause', B(async (ctx) => {
    const id = idOf(ctx)
    const s = svc()
    return item(s, await s.pause(id, actor(ctx)))
  }))
  routeDoc(r, 'POST', '/:id/pause', { summary: 'Pause a task (it is not run until resumed)', data: taskItem, errors: [503] })

  r.post('/:id/resume', B(async (ctx) => {
    const id = idOf(ctx)
    const s = svc()
    return item(s, await s.resume(id, actor(ctx)))
  }))
  routeDoc(r, 'POST', '/:id/resume', { summary: 'Resume a paused task from now (the runs it missed are not made up)', data: taskItem, errors: [503] })

  r.post('/:id/run', B(async (ctx): Promise<TaskRun> => {
    const id = idOf(ctx)
    return await svc().runNow(id, actor(ctx))
  }))
  routeDoc(r, 'POST', '/:id/run', { summary: 'Run a task now (its schedule stays) and answer the run: status, answer, tokens, cost, error', data: runData, errors: [503] })

  r.get('/:id/runs', B((ctx) => {
    const id = idOf(ctx)
    const s = svc()
    found(s, id)
    const all = s.runsOf(id, Infinity)
    const p = pageParams(ctx, RUNS.defaultLimit, RUNS.maxLimit)
    if (!p) return all
    return paged(all.slice(p.offset, p.offset + p.limit), all.length, p)
  }))
  routeDoc(r, 'GET', '/:id/runs', { query: runsQuery, summary: 'A task\'s runs, newest first (paged)', data: z.array(runData), errors: [503] })
  return r
}
