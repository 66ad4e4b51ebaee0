// The recurrences a reminder can have and when each comes next, in the owner's timezone.
import type { Recurrence } from './types.js'
import { daysInMonth, fromWall, wallTime } from './zoned.js'

const DAY = 86_400_000

/** The first occurrence strictly after `after`. */
export function nextOccurrence (r: Recurrence, tz: string, after: number): number {
  if (r.kind === 'interval') return after + r.minutes * 60_000
  const now = wallTime(tz, after)
  if (r.kind === 'monthly') {
    for (let i = 0; i < 14; i++) {
      const m0 = now.month - 1 + i
      const year = now.year + Math.floor(m0 / 12)
      const month = (m0 % 12) + 1
      const at = fromWall(tz, year, month, Math.min(r.day, daysInMonth(year, month)), r.hour, r.minute)
      if (at > after) return at
    }
    throw new Error('no monthly occurrence found') // unreachable: each month has a day
  }
  const ahead = r.kind === 'weekly' ? (r.weekday - now.weekday + 7) % 7 : 0
  const step = r.kind === 'weekly' ? 7 : 1
  for (let days = ahead; days < ahead + 3 * step + 2; days += step) {
    const at = fromWall(tz, now.year, now.month, now.day + days, r.hour, r.minute)
    if (at > after) return at
  }
  return after + step * DAY // unreachable in practice
}

/** The occurrence following a due one, skipping those already in the past (a late delivery is sent once). */
export function followingOccurrence (r: Recurrence, tz: string, due: number, now: number): number {
  if (r.kind === 'interval') {
    const step = r.minutes * 60_000
    const missed = Math.max(0, Math.floor((now - due) / step))
    return due + (missed + 1) * step
  }
  return nextOccurrence(r, tz, Math.max(due, now))
}

/** The smallest gap between two occurrences (the limit `reminders.minIntervalMinutes` applies to it). */
export function intervalMinutes (r: Recurrence): number {
  switch (r.kind) {
    case 'interval': return r.minutes
    case 'daily': return 24 * 60
    case 'weekly': return 7 * 24 * 60
    case 'monthly': return 28 * 24 * 60
  }
}

const pad = (n: number): string => String(n).padStart(2, '0')
const ZH_WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六']
const EN_WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** The recurrence in words, for lists and answers. */
export function describeRecurrence (r: Recurrence, lang: 'zh-CN' | 'en'): string {
  const time = r.kind === 'interval' ? '' : `${pad(r.hour)}:${pad(r.minute)}`
  if (lang === 'en') {
    switch (r.kind) {
      case 'interval': return r.minutes % 60 === 0 ? `every ${r.minutes / 60} hour(s)` : `every ${r.minutes} minute(s)`
      case 'daily': return `every day at ${time}`
      case 'weekly': return `every ${EN_WEEKDAYS[r.weekday] ?? ''} at ${time}`
      case 'monthly': return `on day ${r.day} of every month at ${time}`
    }
  }
  switch (r.kind) {
    case 'interval': return r.minutes % 60 === 0 ? `每 ${r.minutes / 60} 小时` : `每 ${r.minutes} 分钟`
    case 'daily': return `每天 ${time}`
    case 'weekly': return `每周${ZH_WEEKDAYS[r.weekday] ?? ''} ${time}`
    case 'monthly': return `每月 ${r.day} 号 ${time}`
  }
}
