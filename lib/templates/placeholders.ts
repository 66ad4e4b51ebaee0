// {{placeholder}} substitution for channel request templates (custom headers and bodies) and prompts.
import { randomUUID } from 'node:crypto'
import { own } from '../core/dict.js'

export interface PlaceholderInfo { name: string; description: string; example: string }

/** Placeholders every template may use; the caller's context adds or overrides values. */
export const PLACEHOLDERS: readonly PlaceholderInfo[] = [
  { name: 'apiKey', description: 'The API key chosen for this request', example: 'sk-...' },
  { name: 'model', description: 'Model of the request', example: 'gpt-4o-mini' },
  { name: 'baseUrl', description: 'Base URL of the channel', example: 'https://api.openai.com/v1' },
  { name: 'channel', description: 'Name of the channel', example: 'openai' },
  { name: 'userId', description: 'Id of the user who sent the message', example: '10001' },
  { name: 'groupId', description: 'Id of the group (empty in private chat)', example: '123456' },
  { name: 'nickname', description: 'Nickname of the user', example: '小明' },
  { name: 'botName', description: 'Nickname of the bot', example: '灵犀' },
  { name: 'date', description: 'Current date (YYYY-MM-DD)', example: '2026-01-31' },
  { name: 'time', description: 'Current time (HH:mm:ss)', example: '12:00:00' },
  { name: 'timestamp', description: 'Milliseconds since the epoch', example: '1767182400000' },
  { name: 'isoTime', description: 'Current time as ISO 8601', example: '2026-01-31T12:00:00.000Z' },
  { name: 'uuid', description: 'A fresh random UUID', example: '3f2b...' },
  { name: 'random', description: 'A random integer 0-999999', example: '42817' }
]

const PATTERN = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g

function builtins (now: number): Record<string, () => string> {
  const d = new Date(now)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return {
    date: () => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    time: () => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    timestamp: () => String(now),
    isoTime: () => d.toISOString(),
    uuid: () => randomUUID(),
    random: () => String(Math.floor(Math.random() * 1_000_000))
  }
}

function lookup (ctx: Record<string, unknown>, path: string): unknown {
  let cur: unknown = ctx
  for (const k of path.split('.')) {
    // own properties only: {{constructor}} is no inherited member
    if (cur && typeof cur === 'object' && Object.hasOwn(cur, k)) cur = (cur as Record<string, unknown>)[k]
    else return undefined
  }
  return cur
}

/** Replaces {{name}} (dotted paths allowed) by context values, then built-ins; unknown names stay. */
export function renderTemplate (template: string, context: Record<string, unknown> = {}, now = Date.now()): string {
  const b = builtins(now)
  return template.replace(PATTERN, (whole, name: string) => {
    const v = lookup(context, name)
    if (v !== undefined && v !== null) return typeof v === 'string' ? v : JSON.stringify(v)
    const fn = own(b, name)
    return fn ? fn() : whole
  })
}

/** Renders every string inside a JSON value (body templates). */
export function renderDeep<T>(value: T, context: Record<string, unknown>, now = Date.now()): T {
  if (typeof value === 'string') return renderTemplate(value, context, now) as T
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, context, now)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, renderDeep(v, context, now)])) as T
  }
  return value
}
