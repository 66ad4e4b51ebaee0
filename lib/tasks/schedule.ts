// A task's schedule from what the owner wrote, and its next times: a cron expression (croner, in the bot's
// timezone, DST as the zone has it), or words through the reminders' parser ("每天早上8点", "every Monday
// 9:00", "明天下午3点"). README.md of this folder, "Schedules".
import type { Cron } from 'croner'
import { importOptional } from '../core/packages.js'
import { parseWhen, WhenError, type WhenErrorReason } from '../reminders/parse.js'
import { describeRecurrence, followingOccurrence, intervalMinutes, nextOccurrence } from '../reminders/recurrence.js'
import { formatWall } from '../reminders/zoned.js'
import type { TaskSchedule } from './types.js'

/** Why a schedule was refused: the reasons of the reminders' parser, and the cron ones. */
export type ScheduleReason = WhenErrorReason | 'badCron' | 'tooOften' | 'noCron'

/** Why a schedule was refused, in words a person can act on (`reason` picks the chat's text, lib/i18n.ts `tasks.err.*`). */
export class ScheduleError extends Error {
  override name = 'ScheduleError'
  constructor (readonly reason: ScheduleReason, message: string) { super(message) }
}

/** Five fields (minute hour day month weekday) or six (seconds first) of cron's characters. */
const CRON = /^\s*(\S+\s+){4,5}\S+\s*$/
const CRON_CHARS = /^[\d*,/\-?LW#A-Za-z\s]+$/
const looksLikeCron = (text: string): boolean => CRON.test(text) && CRON_CHARS.test(text) && /[\d*]/.test(text.split(/\s+/)[0] ?? '')

/** croner, loaded once before the first cron is read (not at start: lib/core/packages.ts). */
let CronClass: typeof Cron | undefined

/** Loads croner; without it cron expressions are refused with the install command (words still work). */
export async function loadCron (): Promise<void> {
  CronClass ??= (await importOptional('croner', () => import('croner'))).Cron
}

/** Parsed crons by timezone and expression: each is built once (10,000 tasks share a few expressions). */
const crons = new Map<string, Cron>()
const MAX_CRONS = 5000

function cronOf (expr: string, timeZone: string): Cron {
  const key = `${timeZone}\u0000${expr}`
  let c = crons.get(key)
  if (!c) {
    if (!CronClass) throw new ScheduleError('noCron', 'Cron expressions need the package croner, which is not loaded')
    c = new CronClass(expr, { paused: true, ...(timeZone ? { timezone: timeZone } : {}) })
    if (crons.size >= MAX_CRONS) crons.delete(crons.keys().next().value as string)
    crons.set(key, c)
  }
  return c
}

export interface ParsedSchedule {
  schedule: TaskSchedule
  /** the words that said when (for a chat command: the rest is the prompt) */
  matched: string
  /** the text without them */
  rest: string
}

/**
 * The schedule `text` says: a cron expression, or a time in words. `minIntervalMinutes`: the shortest gap a
 * repeating one may have. Throws a ScheduleError.
 */
export async function parseSchedule (text: string, o: { now: number; timeZone: string; minIntervalMinutes: number }): Promise<ParsedSchedule> {
  const input = text.trim()
  if (!input) throw new ScheduleError('empty', 'No schedule given (e.g. "0 8 * * *", 每天早上8点, every Monday 9:00, 明天下午3点)')
  if (looksLikeCron(input)) {
    try { await loadCron() } catch (err) { throw new ScheduleError('noCron', `${(err as Error).message}; write the time in words instead (每天早上8点)`) }
    let cron
    try { cron = cronOf(input, o.timeZone) } catch (err) {
      throw new ScheduleError('badCron', `"${input}" is not a cron expression: ${(err as Error).message}`)
    }
    const runs = cron.nextRuns(6, new Date(o.now))
    if (!runs.length) throw new ScheduleError('past', `"${input}" never comes again`)
    for (let i = 1; i < runs.length; i++) {
      const gap = ((runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime()) / 60_000
      if (gap < o.minIntervalMinutes) throw new ScheduleError('tooOften', `"${input}" runs more often than every ${o.minIntervalMinutes} minutes (tasks.minIntervalMinutes)`)
    }
    return { schedule: { kind: 'cron', expr: input.replace(/\s+/g, ' ') }, matched: input, rest: '' }
  }
  let parsed
  try { parsed = await parseWhen(input, { now: o.now, timeZone: o.timeZone }) } catch (err) {
    if (err instanceof WhenError) throw new ScheduleError(err.reason, err.message)
    throw err
  }
  if (parsed.recurrence) {
    if (intervalMinutes(parsed.recurrence) < o.minIntervalMinutes) throw new ScheduleError('tooOften', `A task runs at most every ${o.minIntervalMinutes} minutes (tasks.minIntervalMinutes)`)
    return { schedule: { kind: 'recurrence', recurrence: parsed.recurrence }, matched: parsed.matched, rest: parsed.rest }
  }
  return { schedule: { kind: 'once', at: parsed.at }, matched: parsed.matched, rest: parsed.rest }
}

/** The first time the schedule comes strictly after `after`; undefined: never again (a one-off past). */
export function nextRun (s: TaskSchedule, timeZone: string, after: number): number | undefined {
  switch (s.kind) {
    case 'once': return s.at > after ? s.at : undefined
    case 'recurrence': return nextOccurrence(s.recurrence, timeZone, after)
    case 'cron': return cronOf(s.expr, timeZone).nextRun(new Date(after))?.getTime()
  }
}

/** The time after the occurrence `due` done at `now`: missed ones in between are not run (a late run is one run). */
export function runAfter (s: TaskSchedule, timeZone: string, due: number, now: number): number | undefined {
  switch (s.kind) {
    case 'once': return undefined
    case 'recurrence': return followingOccurrence(s.recurrence, timeZone, due, now)
    case 'cron': return nextRun(s, timeZone, Math.max(due, now))
  }
}

/** The schedule in words, for lists and answers. */
export function describeSchedule (s: TaskSchedule, timeZone: string, lang: 'zh-CN' | 'en'): string {
  switch (s.kind) {
    case 'once': return (lang === 'en' ? 'once at ' : '一次：') + formatWall(timeZone, s.at)
    case 'recurrence': return describeRecurrence(s.recurrence, lang)
    case 'cron': return `cron ${s.expr}`
  }
}
