// Wall-clock time in the owner's timezone (`reminders.timezone`, an IANA name; '' = the machine's),
// through Intl only: the parts of an instant there, and the instant of a wall-clock time there.
// A wall time that does not exist (skipped by a DST change) lands on the hour after; one that exists
// twice takes the first.
import { hoursWindow } from '../core/hours.js'

export interface WallTime {
  year: number
  /** 1-12 */
  month: number
  day: number
  hour: number
  minute: number
  /** 0 = Sunday … 6 = Saturday */
  weekday: number
}

const formats = new Map<string, Intl.DateTimeFormat>()
function formatOf (tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' })
    formats.set(tz, f)
  }
  return f
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 }

/** The machine's timezone (what `reminders.timezone: ''` means). */
function machineTimeZone (): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** The configured timezone when Intl knows it, else the machine's (a name Intl does not know included). */
export function resolveTimeZone (configured: string): string {
  const tz = configured.trim()
  if (!tz) return machineTimeZone()
  try { formatOf(tz); return tz } catch { return machineTimeZone() }
}

export function wallTime (tz: string, at: number): WallTime & { second: number } {
  const parts: Record<string, string> = {}
  for (const p of formatOf(tz).formatToParts(new Date(at))) parts[p.type] = p.value
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday ?? 'Sun'] ?? 0
  }
}

/** Minutes east of UTC in `tz` at the instant `at` (480 for Asia/Shanghai). */
export function offsetMinutes (tz: string, at: number): number {
  const w = wallTime(tz, at)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000)
}

/** The instant of a wall-clock time in `tz`; day overflow (32nd) rolls over like Date.UTC. */
export function fromWall (tz: string, year: number, month: number, day: number, hour: number, minute: number, second = 0): number {
  const naive = Date.UTC(year, month - 1, day, hour, minute, second)
  // the offset at the naive guess, then at the corrected instant (differs only around a DST change)
  let at = naive - offsetMinutes(tz, naive) * 60_000
  const again = naive - offsetMinutes(tz, at) * 60_000
  if (again !== at) at = Math.min(at, again)
  return at
}

/** Days in a month (1-12) of a year. */
export function daysInMonth (year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** `YYYY-MM-DD HH:MM` of an instant in `tz` (lists, answers, the late note). */
export function formatWall (tz: string, at: number): string {
  const w = wallTime(tz, at)
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`
}

/**
 * Whether the wall-clock minute of `at` in `tz` falls in `hours` ("09:00-22:00"; one ending before it starts
 * runs past midnight, "23:00-08:00"; equal ends: all day). False for a text that is no window.
 */
export function withinHours (hours: string, tz: string, at: number): boolean {
  const window = hoursWindow(hours)
  if (!window) return false
  const { start, end } = window
  const w = wallTime(tz, at)
  const t = w.hour * 60 + w.minute
  if (start === end) return true
  return start < end ? t >= start && t < end : t >= start || t < end
}
