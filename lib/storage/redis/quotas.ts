// Quota counts kept in Redis (lib/governance/quota.ts, SharedQuotas): one hash per quota day
// (`quota:day:<day>`, fields `<kind>:<id>:m` and `<kind>:<id>:t`, expiring two to three days after the
// day began) and one per minute (`quota:min:<minute>`, expiring two minutes on), so every instance reads
// and adds to the same numbers. A message is checked and counted in one script: two instances cannot
// both take the last one.
import type { LimitName, SharedQuotas } from '../../governance/quota.js'
import { key, type RedisLink } from './client.js'

const DAY_KEEP_MS = 3 * 86_400_000
const MINUTE_KEEP_MS = 120_000

// KEYS[1] the day's hash, KEYS[2] the minute's; ARGV[1] the day's expiry (ms since the epoch), ARGV[2]
// the minute's (ms from now), then per subject: field prefix, messagesPerMinute, messagesPerDay,
// tokensPerMinute, tokensPerDay (0: none). Answers { index of the subject that reached a limit or -1, the limit }.
const TAKE = `
local n = (#ARGV - 2) / 5
local function num (k, f) return tonumber(redis.call('HGET', k, f) or '0') or 0 end
for i = 0, n - 1 do
  local b = 3 + i * 5
  local p = ARGV[b]
  local mpm, mpd, tpm, tpd = tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2]), tonumber(ARGV[b + 3]), tonumber(ARGV[b + 4])
  if mpm > 0 and num(KEYS[2], p .. 'm') >= mpm then return { i, 'messagesPerMinute' } end
  if mpd > 0 and num(KEYS[1], p .. 'm') >= mpd then return { i, 'messagesPerDay' } end
  if tpm > 0 and num(KEYS[2], p .. 't') >= tpm then return { i, 'tokensPerMinute' } end
  if tpd > 0 and num(KEYS[1], p .. 't') >= tpd then return { i, 'tokensPerDay' } end
end
for i = 0, n - 1 do
  local p = ARGV[3 + i * 5]
  redis.call('HINCRBY', KEYS[1], p .. 'm', 1)
  redis.call('HINCRBY', KEYS[2], p .. 'm', 1)
end
if n > 0 then
  redis.call('PEXPIREAT', KEYS[1], ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return { -1, '' }
`

const dayKey = (day: string): string => key(`quota:day:${day}`)
const minuteKey = (minute: number): string => key(`quota:min:${minute}`)
// The day's name is its local date: three days past that date's UTC midnight is a day or two past its end in any zone.
const dayExpiry = (day: string): number => (Date.parse(`${day}T00:00:00Z`) || Date.now()) + DAY_KEEP_MS
const num = (v: string | null | undefined): number => Number(v) || 0

export function redisQuotas (link: RedisLink): SharedQuotas {
  return {
    async take (subjects, day, minute) {
      const args: Array<string | number> = [dayExpiry(day), MINUTE_KEEP_MS]
      for (const s of subjects) {
        const l = s.limits
        args.push(`${s.kind}:${s.id}:`, l.messagesPerMinute || 0, l.messagesPerDay || 0, l.tokensPerMinute || 0, l.tokensPerDay || 0)
      }
      const r = await link.cmd.eval(TAKE, 2, dayKey(day), minuteKey(minute), ...args) as [number, string]
      const hit = subjects[r[0]]
      return r[0] < 0 || !hit ? undefined : { kind: hit.kind, limit: r[1] as LimitName }
    },
    async add (kind, id, day, minute, messages, tokens) {
      const p = `${kind}:${id}:`
      const m = link.cmd.multi()
      if (messages) m.hincrby(dayKey(day), `${p}m`, messages).hincrby(minuteKey(minute), `${p}m`, messages)
      if (tokens) m.hincrby(dayKey(day), `${p}t`, tokens).hincrby(minuteKey(minute), `${p}t`, tokens)
      m.pexpireat(dayKey(day), dayExpiry(day)).pexpire(minuteKey(minute), MINUTE_KEEP_MS)
      const r = await m.exec()
      const failed = r?.find(([err]) => err)
      if (!r || failed) throw failed?.[0] ?? new Error('the quota update was not run')
    },
    async used (kind, id, day, minute) {
      const p = `${kind}:${id}:`
      const [d, m] = await Promise.all([link.cmd.hmget(dayKey(day), `${p}m`, `${p}t`), link.cmd.hmget(minuteKey(minute), `${p}m`, `${p}t`)])
      return { day: { messages: num(d[0]), tokens: num(d[1]) }, minute: { messages: num(m[0]), tokens: num(m[1]) } }
    }
  }
}
