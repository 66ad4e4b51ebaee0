// Understanding when a reminder is due, from what people write: "5分钟后", "明天早上8点", "每周一9点",
// "每月15号10点", "每隔2小时", "in 10 minutes", "tomorrow at 8am", "every day at 7pm", "every monday 9:00".
// Recurrences and relative durations are read here; absolute dates and times of day by chrono-node
// (its zh and en parsers). Traps of chrono-node 2.10 that this file works around (docs: README.md here):
// - the zh parser's relative durations ("5分钟后") are shifted by the `timezone` option (16 hours off
//   for +08:00), so relative durations never reach chrono;
// - without `forwardDate` a weekday or date already past this week/year is taken in the past;
// - a date without a time gets noon (zh) or the current time (en): here 09:00 in both;
// - the zh parser reads "today" (明天, 今晚, 周一) from the machine's local date and hour, whatever its
//   `timezone` option says: on a UTC server at 07:55 in Shanghai (23:55 UTC) "明天早上8点" was today's 08:00.
// So chrono gets no timezone at all: its reference is the owner's wall-clock time at `now` written as a
// machine-local Date, and the date and time it reads are turned into an instant in the owner's timezone
// here (fromWall), which also gets a DST change between now and then right.
// chrono's zh and en parsers are loaded on the first reminder, not at start (about 100 ms of import; and
// chrono-node may be missing: lib/core/packages.ts; the reminder tools are then not offered).
import type { Chrono, ParsedComponents, ParsedResult } from 'chrono-node'
import { importOptional } from '../core/packages.js'
import { nextOccurrence } from './recurrence.js'
import type { Recurrence } from './types.js'
import { COUNT_EN, COUNT_ZH, countOf } from './numbers.js'
import { fromWall, offsetMinutes, wallTime } from './zoned.js'

export interface ParsedWhen {
  /** the first time it is due (ms) */
  at: number
  recurrence?: Recurrence
  /** the words that said when */
  matched: string
  /** the text without them and without "提醒我" / "remind me to" */
  rest: string
}

export type WhenErrorReason = 'empty' | 'noTime' | 'past' | 'tooFar' | 'badRecurrence'

export class WhenError extends Error {
  override name = 'WhenError'
  constructor (readonly reason: WhenErrorReason, message: string) { super(message) }
}

export interface ParseOptions { now: number; timeZone: string }

const MINUTE = 60_000
const UNIT_MS: ReadonlyArray<[RegExp, number]> = [
  [/^(秒|秒钟|s|secs?|seconds?)$/i, 1000],
  [/^(分|分钟|mins?|minutes?)$/i, MINUTE],
  [/^(小时|钟头|hrs?|hours?)$/i, 60 * MINUTE],
  [/^(天|日|days?)$/i, 24 * 60 * MINUTE],
  [/^(周|星期|礼拜|weeks?)$/i, 7 * 24 * 60 * MINUTE]
]
const unitMs = (u: string): number | undefined => UNIT_MS.find(([re]) => re.test(u.trim()))?.[1]

/** At most this far ahead (a reminder for next year's birthday works, one for 2100 is a typo). */
const MAX_AHEAD_MS = 400 * 24 * 60 * MINUTE

const ZH_REL = new RegExp(`(${COUNT_ZH}|半)\\s*(?:个)?\\s*(半)?\\s*(秒钟|秒|分钟|分|小时|钟头|天|日|周|星期|礼拜)\\s*(?:之后|以后|后)`)
const EN_REL = new RegExp(`\\bin\\s+(?:(half)\\s+an?|(${COUNT_EN}))(?:\\s+and\\s+a\\s+(half))?\\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?)\\b`, 'i')

function relative (text: string): { ms: number; matched: string } | undefined {
  const zh = ZH_REL.exec(text)
  if (zh) {
    const unit = unitMs(zh[3] ?? '')
    const n = zh[1] === '半' ? 0.5 : countOf(zh[1] ?? '')
    if (unit !== undefined && n !== undefined) return { ms: Math.round((n + (zh[2] ? 0.5 : 0)) * unit), matched: zh[0] }
  }
  const en = EN_REL.exec(text)
  if (en) {
    const unit = unitMs(en[4] ?? '')
    const n = en[1] ? 0.5 : countOf(en[2] ?? '')
    if (unit !== undefined && n !== undefined) return { ms: Math.round((n + (en[3] ? 0.5 : 0)) * unit), matched: en[0] }
  }
  return undefined
}

const ZH_WEEKDAY: Readonly<Record<string, number>> = { 日: 0, 天: 0, 七: 0, 7: 0, 一: 1, 1: 1, 二: 2, 2: 2, 三: 3, 3: 3, 四: 4, 4: 4, 五: 5, 5: 5, 六: 6, 6: 6 }
const EN_WEEKDAY: Readonly<Record<string, number>> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 }

type RecurrenceHead = { kind: 'daily' } | { kind: 'weekly'; weekday: number } | { kind: 'monthly'; day: number } | { kind: 'interval'; minutes: number }

const RECURRENCES: ReadonlyArray<[RegExp, (m: RegExpExecArray) => RecurrenceHead | undefined]> = [
  [/每(?:一)?天|每日|天天/, () => ({ kind: 'daily' })],
  [/\b(?:every\s*day|each\s+day|daily)\b/i, () => ({ kind: 'daily' })],
  [/每(?:个)?(?:周|星期|礼拜)\s*([一二三四五六日天七1-7])/, (m) => ({ kind: 'weekly', weekday: ZH_WEEKDAY[m[1] ?? ''] ?? 1 })],
  [/\b(?:every|each)\s+(?:week\s+on\s+)?(sun|mon|tue|wed|thu|fri|sat)[a-z]*\b/i, (m) => ({ kind: 'weekly', weekday: EN_WEEKDAY[(m[1] ?? '').toLowerCase()] ?? 1 })],
  [new RegExp(`每(?:个)?月\\s*(${COUNT_ZH})\\s*(?:号|日)`), (m) => monthly(countOf(m[1] ?? ''))],
  [/\b(?:every|each)\s+month\s+on\s+the\s+(\d{1,2})(?:st|nd|rd|th)?\b/i, (m) => monthly(Number(m[1]))],
  [/\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)?\s+of\s+(?:every|each)\s+month\b/i, (m) => monthly(Number(m[1]))],
  [new RegExp(`每(?:隔)?\\s*(${COUNT_ZH}|半)?\\s*(?:个)?\\s*(分钟|小时|钟头)`), (m) => interval(m[1] === '半' ? 0.5 : m[1] ? countOf(m[1]) : 1, m[2] ?? '')],
  [new RegExp(`\\b(?:every|each)\\s+(?:(${COUNT_EN})\\s+)?(minutes?|mins?|hours?|hrs?)\\b`, 'i'), (m) => interval(m[1] ? countOf(m[1]) : 1, m[2] ?? '')]
]

function monthly (day: number | undefined): RecurrenceHead | undefined {
  return day !== undefined && Number.isInteger(day) && day >= 1 && day <= 31 ? { kind: 'monthly', day } : undefined
}

function interval (n: number | undefined, unit: string): RecurrenceHead | undefined {
  const ms = unitMs(unit)
  if (n === undefined || ms === undefined || n <= 0) return undefined
  return { kind: 'interval', minutes: Math.max(1, Math.round((n * ms) / MINUTE)) }
}

const hasCjk = (s: string): boolean => /[\u3400-\u9fff]/.test(s)
interface Parsers { zh: Chrono; en: Chrono }
let parsers: Promise<Parsers> | undefined
/** chrono's parsers, loaded once; without chrono-node the Error of importOptional names it (tried again next time). */
const loadParsers = (): Promise<Parsers> =>
  (parsers ??= Promise.all([
    importOptional('chrono-node', () => import('chrono-node/zh')),
    importOptional('chrono-node', () => import('chrono-node/en'))
  ]).then(([zh, en]) => ({ zh: zh.casual, en: en.casual }), (err: unknown) => { parsers = undefined; throw err }))

/** The owner's wall-clock time at `now` as a machine-local Date: all chrono's parsers read that alike. */
function wallReference (o: ParseOptions): Date {
  const w = wallTime(o.timeZone, o.now)
  // (a wall time the machine's own DST skips comes out an hour later; only the reference is shifted)
  return new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, ((o.now % 1000) + 1000) % 1000)
}

function chronoFirst (p: Parsers, text: string, o: ParseOptions): ParsedResult | undefined {
  const chrono = hasCjk(text) ? p.zh : p.en
  const found = chrono.parse(text, wallReference(o), { forwardDate: true })[0]
  if (!found?.start.isCertain('timezoneOffset')) return found
  // an offset in the text ("8pm UTC", en only): the shifted reference would misplace it, so the real
  // instant with the owner's offset (which en's parser does honour)
  return chrono.parse(text, { instant: new Date(o.now), timezone: offsetMinutes(o.timeZone, o.now) }, { forwardDate: true })[0]
}

/** The instant of what chrono read, in the owner's timezone; a date alone ("明天", "next friday") is 09:00. */
function instantOf (c: ParsedComponents, timeZone: string, laterDays = 0): number {
  if (c.isCertain('timezoneOffset')) return c.date().getTime() + laterDays * 24 * 60 * MINUTE
  const timed = c.isCertain('hour')
  return fromWall(timeZone, c.get('year') ?? 0, c.get('month') ?? 1, (c.get('day') ?? 1) + laterDays,
    timed ? c.get('hour') ?? 0 : 9, timed ? c.get('minute') ?? 0 : 0, timed ? c.get('second') ?? 0 : 0)
}

const FILLERS_ZH = /^(?:请|麻烦)?(?:到时候?)?(?:提醒(?:一下)?(?:我|我们|大家|你)?|叫(?:一下)?我|通知(?:我|大家)?)(?:一下)?(?:要|去|该)?/
const FILLERS_EN = /^(?:please\s+)?(?:remind\s+(?:me|us|everyone)\s*)?(?:to\s+|that\s+|about\s+)?/i
const EDGE_PUNCT = /^[\s,，。.!！:：;；、]+|[\s,，。.!！:：;；、]+$/g

function restOf (text: string, matched: string[]): string {
  let rest = text
  for (const m of matched) if (m) rest = rest.replace(m, ' ')
  rest = rest.replace(/\s+/g, ' ').replace(EDGE_PUNCT, '')
  rest = rest.replace(FILLERS_ZH, '').replace(EDGE_PUNCT, '').replace(FILLERS_EN, '').replace(EDGE_PUNCT, '')
  return rest
}

/** When `text` says a reminder is due. Throws a WhenError with a reason a user can be told. */
export async function parseWhen (text: string, o: ParseOptions): Promise<ParsedWhen> {
  const input = text.trim()
  if (!input) throw new WhenError('empty', 'No time given')
  const p = await loadParsers()

  for (const [re, make] of RECURRENCES) {
    const m = re.exec(input)
    if (!m) continue
    const head = make(m)
    if (!head) throw new WhenError('badRecurrence', `"${m[0]}" is not a recurrence I understand (every day / every <weekday> / on day 1-31 of every month / every N minutes or hours)`)
    if (head.kind === 'interval') {
      const recurrence: Recurrence = head
      return { at: o.now + head.minutes * MINUTE, recurrence, matched: m[0], rest: restOf(input, [m[0]]) }
    }
    const without = input.replace(m[0], ' ')
    const time = chronoFirst(p, without, o)
    if (!time || !time.start.isCertain('hour')) throw new WhenError('noTime', `"${m[0]}" needs a time of day (e.g. 每天早上8点, every day at 7pm)`)
    const hm = { hour: time.start.get('hour') ?? 0, minute: time.start.get('minute') ?? 0 }
    const recurrence: Recurrence = head.kind === 'daily' ? { kind: 'daily', ...hm }
      : head.kind === 'weekly' ? { kind: 'weekly', weekday: head.weekday, ...hm }
        : { kind: 'monthly', day: head.day, ...hm }
    return { at: nextOccurrence(recurrence, o.timeZone, o.now), recurrence, matched: `${m[0].trim()} ${time.text.trim()}`, rest: restOf(input, [m[0], time.text]) }
  }

  const rel = relative(input)
  if (rel) {
    if (rel.ms <= 0) throw new WhenError('past', 'That time is not in the future')
    if (rel.ms > MAX_AHEAD_MS) throw new WhenError('tooFar', 'That is too far ahead (at most about a year)')
    return { at: o.now + rel.ms, matched: rel.matched, rest: restOf(input, [rel.matched]) }
  }

  const found = chronoFirst(p, input, o)
  if (!found) throw new WhenError('noTime', `No time found in "${input.slice(0, 80)}" (e.g. 5分钟后, 明天早上8点, in 10 minutes, tomorrow at 8am)`)
  let at = instantOf(found.start, o.timeZone)
  // a time of day alone ("8点") said at that very minute: chrono moves only times strictly past to tomorrow
  if (at <= o.now && !found.start.isCertain('day') && !found.start.isCertain('weekday')) at = instantOf(found.start, o.timeZone, 1)
  if (at <= o.now) throw new WhenError('past', `"${found.text}" is already past`)
  if (at - o.now > MAX_AHEAD_MS) throw new WhenError('tooFar', 'That is too far ahead (at most about a year)')
  return { at, matched: found.text, rest: restOf(input, [found.text]) }
}
