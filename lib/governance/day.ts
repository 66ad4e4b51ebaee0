// The quota day: counts start again at quotas.resetTime in quotas.timezone (the owner's; '' = the
// machine's). A day is named by the local date on which it started ("2027-01-10" runs from that date's
// reset time to the next date's).
import { offsetMinutes, resolveTimeZone } from '../reminders/zoned.js'

const MINUTE = 60_000
/** Timezone offsets change only on the quarter-hour: one Intl look-up per 15 minutes and zone. */
const offsets = new Map<string, { block: number; offset: number }>()

export function quotaDay (now: number, timezone: string, resetTime: string): string {
  const tz = resolveTimeZone(timezone)
  const block = Math.floor(now / (15 * MINUTE))
  let o = offsets.get(tz)
  if (!o || o.block !== block) {
    o = { block, offset: offsetMinutes(tz, now) }
    offsets.set(tz, o)
  }
  const [h, m] = resetTime.split(':').map(Number)
  const local = now + (o.offset - (h ?? 0) * 60 - (m ?? 0)) * MINUTE
  return new Date(local).toISOString().slice(0, 10)
}
