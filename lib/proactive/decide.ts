// The decision "does the bot join in now?" for one unaddressed group message (README.md): a pure
// function of the group's settings, its reply counters, the time, its recent activity and one random
// draw, so every rule (chance, multipliers, caps, cooldown) is tested without a host or a clock.
import type { ProactiveSettings } from '../config/schema.js'

export const HOUR_MS = 3_600_000
/** The window whose message count decides between busy and quiet (proactive.busyMessages). */
export const ACTIVITY_WINDOW_MS = 600_000

/** What the bot has said on its own in one group. */
export interface GroupCounters {
  /** local date (YYYY-MM-DD) dayCount counts for */
  day: string
  dayCount: number
  /** times of the replies within the last hour, oldest first */
  lastHour: number[]
  /** time of the latest reply */
  last: number
}

export interface ProactiveInput {
  settings: ProactiveSettings
  counters: GroupCounters | undefined
  now: number
  /** messages in the group within the last ACTIVITY_WINDOW_MS (this one included) */
  activity: number
  /** one draw in [0, 1) */
  random: number
}

export type ProactiveDecision =
  | { join: true; chance: number }
  | { join: false; reason: 'disabled' | 'cooldown' | 'hourlyCap' | 'dailyCap' | 'chance' | 'guarded'; chance?: number }

/** The local calendar date of a time: the daily cap restarts at local midnight. */
export function localDay (ms: number): string {
  const d = new Date(ms)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** The chance for one message: probability x the busy or quiet multiplier (busy wins when both hold). */
export function chanceFor (settings: ProactiveSettings, activity: number): number {
  const multiplier = activity >= settings.busyMessages ? settings.busyMultiplier
    : activity <= settings.quietMessages ? settings.quietMultiplier : 1
  return Math.min(1, settings.probability * multiplier)
}

/** Replies counted against today's cap (0 once the local date has changed). */
function repliesToday (c: GroupCounters | undefined, now: number): number {
  return c && c.day === localDay(now) ? c.dayCount : 0
}

/** Replies within the hour before `now` (a rolling hour). */
function repliesLastHour (c: GroupCounters | undefined, now: number): number {
  return c ? c.lastHour.filter((t) => t > now - HOUR_MS).length : 0
}

export function decideProactive (input: ProactiveInput): ProactiveDecision {
  const { settings: s, counters: c, now } = input
  if (!s.enabled || s.probability <= 0) return { join: false, reason: 'disabled' }
  if (c && now - c.last < s.cooldownSeconds * 1000) return { join: false, reason: 'cooldown' }
  if (repliesLastHour(c, now) >= s.hourlyCap) return { join: false, reason: 'hourlyCap' }
  if (repliesToday(c, now) >= s.dailyCap) return { join: false, reason: 'dailyCap' }
  const chance = chanceFor(s, input.activity)
  // random is in [0, 1): a chance of 1 always joins, 0 never
  return input.random < chance ? { join: true, chance } : { join: false, reason: 'chance', chance }
}

/** The counters after a reply at `now` (a new object; the hour list keeps only the last hour). */
export function countReply (c: GroupCounters | undefined, now: number): GroupCounters {
  const day = localDay(now)
  return {
    day,
    dayCount: repliesToday(c, now) + 1,
    lastHour: [...(c?.lastHour.filter((t) => t > now - HOUR_MS) ?? []), now],
    last: now
  }
}
