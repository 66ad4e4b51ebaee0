// A window of the day written as HH:MM-HH:MM ("09:00-22:00", across midnight "23:00-08:00"): the one
// pattern the config sections check it with and its reading in minutes (lib/reminders/zoned.ts
// withinHours places an instant in it).

/** HH:MM-HH:MM; the end may be 24:00. */
export const HOURS_WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/

/** The window's start and end in minutes of the day; undefined for a text that is no window. */
export function hoursWindow (text: string): { start: number; end: number } | undefined {
  const m = HOURS_WINDOW.exec(text.trim())
  if (!m) return undefined
  return { start: Number(m[1]) * 60 + Number(m[2]), end: Math.min(24 * 60, Number(m[3]) * 60 + Number(m[4])) }
}
