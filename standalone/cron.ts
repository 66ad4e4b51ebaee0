// Cron schedules with node-schedule's syntax as the hosts use it: 5 fields,
// or 6 with seconds first; `*`, lists, ranges and steps. Day-of-month and day-of-week combine with
// OR when both are restricted, as in classic cron.

interface Field { min: number; max: number }
const FIELDS: Field[] = [
  { min: 0, max: 59 }, // second
  { min: 0, max: 59 }, // minute
  { min: 0, max: 23 }, // hour
  { min: 1, max: 31 }, // day of month
  { min: 1, max: 12 }, // month
  { min: 0, max: 7 } //  day of week (0 and 7 are Sunday)
]

export interface CronSpec {
  sets: Array<Set<number>>
  domAny: boolean
  dowAny: boolean
}

function parseField(text: string, { min, max }: Field): Set<number> {
  const out = new Set<number>()
  for (const part of text.split(',')) {
    const m = /^(\*|\?|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part)
    if (!m) throw new Error(`bad cron field "${text}"`)
    const all = m[1] === '*' || m[1] === '?'
    const from = all ? min : Number(m[1])
    const to = m[2] !== undefined ? Number(m[2]) : all || m[3] !== undefined ? max : from
    const step = m[3] !== undefined ? Number(m[3]) : 1
    if (from < min || to > max || from > to || step < 1) throw new Error(`cron field "${text}" out of range`)
    for (let v = from; v <= to; v += step) out.add(v)
  }
  return out
}

export function parseCron(expr: string): CronSpec {
  let parts = expr.trim().split(/\s+/)
  if (parts.length === 7) parts = parts.slice(0, 6) // TRSS cuts a 7th (year) field
  if (parts.length === 5) parts = ['0', ...parts]
  if (parts.length !== 6) throw new Error(`cron "${expr}" needs 5 or 6 fields`)
  const sets = parts.map((p, i) => parseField(p, FIELDS[i]))
  if (sets[5].has(7)) sets[5].add(0)
  return { sets, domAny: parts[3] === '*' || parts[3] === '?', dowAny: parts[5] === '*' || parts[5] === '?' }
}

function dayMatches(spec: CronSpec, d: Date): boolean {
  const dom = spec.sets[3].has(d.getDate())
  const dow = spec.sets[5].has(d.getDay())
  if (spec.domAny) return dow
  if (spec.dowAny) return dom
  return dom || dow
}

/** The first matching time strictly after `from` (local time), or undefined within ~5 years. */
export function nextRun(spec: CronSpec, from: Date): Date | undefined {
  const d = new Date(from.getTime())
  d.setMilliseconds(0)
  d.setSeconds(d.getSeconds() + 1)
  const limit = from.getTime() + 5 * 366 * 24 * 3600 * 1000
  while (d.getTime() <= limit) {
    if (!spec.sets[4].has(d.getMonth() + 1)) { d.setMonth(d.getMonth() + 1, 1); d.setHours(0, 0, 0); continue }
    if (!dayMatches(spec, d)) { d.setDate(d.getDate() + 1); d.setHours(0, 0, 0); continue }
    if (!spec.sets[2].has(d.getHours())) { d.setHours(d.getHours() + 1, 0, 0); continue }
    if (!spec.sets[1].has(d.getMinutes())) { d.setMinutes(d.getMinutes() + 1, 0); continue }
    if (!spec.sets[0].has(d.getSeconds())) { d.setSeconds(d.getSeconds() + 1); continue }
    return d
  }
  return undefined
}

const MAX_DELAY = 2 ** 31 - 1

/** Runs `fn` at every match of `expr` until the returned cancel function is called. */
export function schedule(expr: string, fn: () => void): () => void {
  const spec = parseCron(expr)
  let timer: ReturnType<typeof setTimeout> | undefined
  let cancelled = false
  const arm = (): void => {
    const at = nextRun(spec, new Date())
    if (!at || cancelled) return
    const wait = at.getTime() - Date.now()
    timer = setTimeout(() => {
      if (wait > MAX_DELAY) { arm(); return }
      fn()
      arm()
    }, Math.min(Math.max(wait, 0), MAX_DELAY))
  }
  arm()
  return () => {
    cancelled = true
    if (timer) clearTimeout(timer)
  }
}
