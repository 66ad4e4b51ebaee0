// The redactor: knows every secret the plugin stores (channel keys, MCP env and header values, custom
// tool headers, image API keys, the own MCP API key, the session secret...) and replaces each
// occurrence in a text by a mask, so an upstream server echoing what it was sent cannot make the plugin
// keep or show a secret. Applied at the choke points: the logger (memory, files, host console), the
// event bus (streams), AppError messages and errorText; and where upstream texts are kept: channel
// failures (lastError, stats), tool results and logs, MCP stderr.
//
// Each runtime creates one Redactor (rt.redactor) and registers it here; the free functions `redact`
// and `redactDeep` apply every registered redactor, so code without a runtime (errorText, AppError)
// redacts too. Without a registered redactor they return their input unchanged.
import { maskSecret, maskSecrets } from '../config/secrets.js'

/** Values shorter than this are never treated as secrets (they would mangle ordinary text). */
const MIN_SECRET_LENGTH = 6
const REDACTED = '[redacted]'
/** Deep redaction stops here (cycles, absurd nesting). */
const MAX_DEPTH = 24

/** Header and env names whose values are never secret even inside a secret map (they mangle text). */
const NOT_SECRET_NAMES = new Set([
  'content-type', 'accept', 'accept-language', 'accept-encoding', 'user-agent', 'cache-control', 'connection',
  'node_env', 'path', 'home', 'lang', 'tz', 'debug', 'pwd', 'shell', 'term'
])
/**
 * Values of env and header maps that are plainly not secrets and would mangle ordinary text when masked:
 * short numbers, versions, booleans, modes, addresses, templates made only of placeholders (`Bearer {{apiKey}}`).
 */
const HARMLESS = /^(?:\d{1,7}|\d+(?:\.\d+)+|true|false|yes|no|on|off|production|development|test|localhost|(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|(?:[a-z]+\s+)?(?:\{\{[^}]*\}\}\s*)+)$/i
/** `Bearer xyz`: the token alone is a secret too (an upstream may echo only the token). */
const AUTH_SCHEME = /^(?:bearer|basic|token|bot|apikey|key)\s+(\S+)$/i

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The forms of a secret an upstream may echo: raw, URL-encoded, JSON-escaped, base64. */
function variants (secret: string): string[] {
  const out = new Set([secret])
  try { out.add(encodeURIComponent(secret)) } catch { /* lone surrogate: no encoded form */ }
  out.add(JSON.stringify(secret).slice(1, -1))
  if (secret.length >= 8) out.add(Buffer.from(secret, 'utf8').toString('base64').replace(/=+$/, ''))
  return [...out].filter((v) => v.length >= MIN_SECRET_LENGTH)
}

/** How a secret is shown once redacted: long ones as the dashboard masks them, short ones not at all. */
const maskOf = (secret: string): string => (secret.length >= 16 ? maskSecret(secret) : REDACTED)

export class Redactor {
  private readonly sources = new Map<string, string[]>()
  private pattern: RegExp | null = null
  private readonly masks = new Map<string, string>()
  private secrets: string[] = []

  /** Replaces the secrets known from one source (`config`, `sessions`, `custom-tools`...). */
  set (source: string, values: Iterable<unknown>): void {
    const list: string[] = []
    for (const v of values) {
      if (typeof v !== 'string') continue
      const s = v.trim()
      if (s.length < MIN_SECRET_LENGTH || s.includes('****') || HARMLESS.test(s)) continue
      list.push(s)
      const token = AUTH_SCHEME.exec(s)?.[1]
      if (token && token.length >= MIN_SECRET_LENGTH) list.push(token)
    }
    const prev = this.sources.get(source)
    if (prev && prev.length === list.length && prev.every((p, i) => p === list[i])) return
    this.sources.set(source, list)
    this.rebuild()
  }

  remove (source: string): void {
    if (this.sources.delete(source)) this.rebuild()
  }

  /** Every secret known now (tests, diagnostics; never shown). */
  known (): readonly string[] { return this.secrets }

  private rebuild (): void {
    const secrets = new Set<string>()
    for (const list of this.sources.values()) for (const s of list) secrets.add(s)
    this.secrets = [...secrets]
    this.masks.clear()
    for (const s of this.secrets) {
      for (const v of variants(s)) if (!this.masks.has(v)) this.masks.set(v, maskOf(s))
    }
    // Longest first, so a secret containing another is replaced whole.
    const alternatives = [...this.masks.keys()].sort((a, b) => b.length - a.length).map(escapeRe)
    this.pattern = alternatives.length ? new RegExp(alternatives.join('|'), 'g') : null
  }

  redact (text: string): string {
    if (!this.pattern || text.length < MIN_SECRET_LENGTH) return text
    let out = text.replace(this.pattern, (m) => this.masks.get(m) ?? REDACTED)
    if (/\bbasic\s+[A-Za-z0-9+/]{8,}/i.test(out)) out = out.replace(/\b(basic\s+)([A-Za-z0-9+/]{8,}={0,2})/gi, (m, scheme: string, b64: string) => this.basic(b64) ? scheme + REDACTED : m)
    return out
  }

  /** `Basic base64(user:password)` holding a known secret (its base64 form differs with the prefix). */
  private basic (b64: string): boolean {
    const decoded = Buffer.from(b64, 'base64').toString('utf8')
    return this.secrets.some((s) => decoded.includes(s))
  }
}

const active = new Set<Redactor>()

/** Makes `r` apply to the free functions below; returns the function that removes it again. */
export function registerRedactor (r: Redactor): () => void {
  active.add(r)
  return () => { active.delete(r) }
}

/** `text` with every known secret masked. */
export function redact (text: string): string {
  let out = text
  for (const r of active) out = r.redact(out)
  return out
}

/**
 * A copy of `value` where every string (in arrays and plain objects, to any sensible depth) is
 * redacted. Unchanged parts are shared, so an object without secrets comes back as it was.
 */
export function redactDeep<T> (value: T, depth = 0): T {
  if (active.size === 0) return value
  if (typeof value === 'string') return redact(value) as T
  if (depth > MAX_DEPTH || !value || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((v: unknown) => {
      const r = redactDeep(v, depth + 1)
      if (r !== v) changed = true
      return r
    })
    return (changed ? out : value) as T
  }
  if (value instanceof Error) {
    const msg = redact(value.message)
    return (msg === value.message ? value : Object.assign(new Error(msg), { name: value.name })) as T
  }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return value // class instances, buffers, dates
  let out: Record<string, unknown> | undefined
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const r = redactDeep(v, depth + 1)
    if (r !== v) {
      out ??= Object.assign(Object.create(proto) as Record<string, unknown>, value)
      out[k] = r
    }
  }
  return (out ?? value) as T
}

/**
 * The secret values in a configuration object, chosen by the masking rule of lib/config/secrets.ts
 * (every string the masked copy changed is a secret), minus names that are never secret.
 */
export function configSecrets (config: unknown): string[] {
  const out: string[] = []
  const walk = (raw: unknown, masked: unknown, name: string, depth: number): void => {
    if (depth > MAX_DEPTH) return
    if (typeof raw === 'string') {
      if (raw !== masked && !NOT_SECRET_NAMES.has(name.toLowerCase())) out.push(raw)
      return
    }
    if (Array.isArray(raw)) {
      raw.forEach((v, i) => walk(v, Array.isArray(masked) ? masked[i] : undefined, name, depth + 1))
      return
    }
    if (raw && typeof raw === 'object') {
      const m = (masked && typeof masked === 'object' ? masked : {}) as Record<string, unknown>
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) walk(v, m[k], k, depth + 1)
    }
  }
  walk(config, maskSecrets(config), '', 0)
  return out
}

/** The values of a header or env map that are secrets (the same exceptions as configSecrets). */
export function mapSecrets (map: Record<string, unknown> | undefined): string[] {
  if (!map) return []
  return Object.entries(map).filter(([k, v]) => typeof v === 'string' && !NOT_SECRET_NAMES.has(k.toLowerCase())).map(([, v]) => v as string)
}
