// The decision "may the bot open a topic in this group now?" (README.md): a pure function of the group's
// settings, its persisted state, the time of the group's last logged message and the time, so every rule
// (quiet, window, cooldown, daily cap, the stop after unanswered openers) is tested without a host.
import type { InitiativeSettings } from '../config/schema.js'
import type { GroupLogEntry } from '../grouplog/types.js'
import { wallTime, withinHours } from '../reminders/zoned.js'

const HOUR_MS = 3_600_000
const MINUTE_MS = 60_000
/** Openers in a row nobody answered after which the group gets no more until resumed. */
const STOP_AFTER = 2

/** What is kept per group (the store `initiative`, README.md "State"). */
export interface GroupState {
  /** the group id */
  id: string
  /** the account that saw the group (the opener goes out through it; pickChat falls back to the default) */
  botId?: string
  /** the last model turn for an opener (sent or `[skip]`): the cooldown runs from it */
  lastTriedAt?: number
  /** the last opener that went out */
  lastSentAt?: number
  /** an opener whose answer window has not been looked at yet */
  pendingAt?: number
  /** openers in a row nobody answered */
  unanswered: number
  /** the local date (YYYY-MM-DD, reminders.timezone) dayCount counts for */
  day?: string
  dayCount: number
}

export type InitiativeDecision =
  | { open: true }
  | { open: false; reason: 'disabled' | 'stopped' | 'awaiting' | 'noLog' | 'notQuiet' | 'outsideHours' | 'cooldown' | 'dailyCap' }

const pad = (n: number): string => String(n).padStart(2, '0')

/** The local calendar date of an instant in `tz`: the daily cap restarts at midnight there. */
export function localDay (tz: string, at: number): string {
  const w = wallTime(tz, at)
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`
}

export function openersToday (s: GroupState | undefined, tz: string, now: number): number {
  return s && s.day === localDay(tz, now) ? s.dayCount : 0
}

export interface InitiativeInput {
  settings: InitiativeSettings
  state: GroupState | undefined
  /** when the group's last logged message (anyone's, the bot's too) was; undefined: nothing logged */
  lastMessageAt: number | undefined
  now: number
  /** the reminders' timezone, resolved */
  tz: string
}

export function decideOpener (i: InitiativeInput): InitiativeDecision {
  const { settings: s, state, now } = i
  if (!s.enabled || s.dailyCap <= 0) return { open: false, reason: 'disabled' }
  if (state && state.unanswered >= STOP_AFTER) return { open: false, reason: 'stopped' }
  if (state?.pendingAt !== undefined) return { open: false, reason: 'awaiting' }
  if (i.lastMessageAt === undefined) return { open: false, reason: 'noLog' }
  const quietMs = s.quietHours * HOUR_MS
  if (now - i.lastMessageAt < quietMs) return { open: false, reason: 'notQuiet' }
  if (!withinHours(s.hours, i.tz, now)) return { open: false, reason: 'outsideHours' }
  // a turn that answered [skip] sent nothing: the next try waits the cooldown, and at least one more quiet spell
  if (state?.lastTriedAt !== undefined && now - state.lastTriedAt < Math.max(s.cooldownHours * HOUR_MS, quietMs)) return { open: false, reason: 'cooldown' }
  if (openersToday(state, i.tz, now) >= s.dailyCap) return { open: false, reason: 'dailyCap' }
  return { open: true }
}

/**
 * The state once the pending opener's answer window is looked at: answered when a member (not the bot)
 * wrote within `answerWindowMinutes` after it. Undefined while the window is open and nobody answered
 * yet, or when nothing is pending.
 */
export function settleOpener (s: GroupState, entries: readonly GroupLogEntry[], windowMinutes: number, now: number): GroupState | undefined {
  const at = s.pendingAt
  if (at === undefined) return undefined
  const end = at + windowMinutes * MINUTE_MS
  const answered = entries.some((e) => !e.fromBot && e.at > at && e.at <= end)
  if (!answered && now < end) return undefined
  const { pendingAt: _done, ...rest } = s
  return { ...rest, unanswered: answered ? 0 : s.unanswered + 1 }
}

/** The state after an opener went out at `now`. */
export function countOpener (s: GroupState, tz: string, now: number): GroupState {
  return { ...s, lastTriedAt: now, lastSentAt: now, pendingAt: now, day: localDay(tz, now), dayCount: openersToday(s, tz, now) + 1 }
}
