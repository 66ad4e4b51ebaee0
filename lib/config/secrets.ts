// Secrets never leave the plugin: they are shown masked (sk-****abcd) and a masked value sent back
// keeps the stored secret (README, "Security model").
import { own, setOwn } from '../core/dict.js'

const SECRET_KEYS = new Set(['apikey', 'key', 'secret', 'jwtsecret', 'password', 'token', 'accesstoken'])
/** Objects whose every value is secret (MCP env and headers, request header templates). */
const SECRET_MAPS = new Set(['env', 'headers', 'headerstemplate'])

/** A key whose string value is a secret (apiKey, key, token...). */
export function isSecretKey (key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase())
}

/** A key of an object whose every value is a secret (MCP env and headers, request header templates). */
export function isSecretMap (key: string): boolean {
  return SECRET_MAPS.has(key.toLowerCase())
}

/**
 * An address holding a password (scheme://user:password@host..., e.g. storage.database.url and
 * storage.redis.url): the password is a secret whatever the key is named. Answers the address with the
 * password masked (postgres://lingxi:****@db:5432/lingxi), or undefined when it holds none.
 */
export function maskUrlPassword (value: string): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:)([^\s/@]+)(@\S*)$/i.exec(value)
  return m ? `${m[1]}****${m[3]}` : undefined
}

export function maskSecret (value: string): string {
  if (!value) return ''
  if (value.length <= 8) return '****'
  return `${value.slice(0, 3)}****${value.slice(-4)}`
}

function looksMasked (value: unknown): value is string {
  return typeof value === 'string' && value.includes('****')
}

type Json = unknown

/** A deep copy with every secret value masked. */
export function maskSecrets<T>(value: T, inSecretMap = false): T {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, false)) as T
  if (value && typeof value === 'object') {
    const out: Record<string, Json> = {}
    for (const [k, v] of Object.entries(value as Record<string, Json>)) {
      // setOwn: a `__proto__` key stays a key (keys come from input)
      if (typeof v === 'string' && (inSecretMap || isSecretKey(k))) setOwn(out, k, maskSecret(v))
      else if (typeof v === 'string') setOwn(out, k, maskUrlPassword(v) ?? v)
      else setOwn(out, k, maskSecrets(v, isSecretMap(k)))
    }
    return out as T
  }
  return value
}

function sameItem (a: Json, b: Json): boolean {
  const an = (a as { name?: unknown } | null)?.name
  const bn = (b as { name?: unknown } | null)?.name
  return an !== undefined && an === bn
}

/**
 * Returns `incoming` where every masked secret that matches the mask of the stored value is replaced
 * by the stored value. List items are matched by `name` when they have one, else by position.
 */
export function keepMaskedSecrets<T>(incoming: T, stored: unknown, inSecretMap = false): T {
  if (Array.isArray(incoming)) {
    const old = Array.isArray(stored) ? stored : []
    return incoming.map((item, i) => {
      const match = old.find((o) => sameItem(o, item)) ?? (((item as { name?: unknown } | null)?.name === undefined) ? old[i] : undefined)
      return keepMaskedSecrets(item, match, false)
    }) as T
  }
  if (incoming && typeof incoming === 'object') {
    const prev = (stored && typeof stored === 'object') ? stored as Record<string, Json> : {}
    const out: Record<string, Json> = {}
    for (const [k, v] of Object.entries(incoming as Record<string, Json>)) {
      const secret = inSecretMap || isSecretKey(k)
      const old = own(prev, k)
      if (secret && looksMasked(v) && typeof old === 'string' && maskSecret(old) === v) setOwn(out, k, old)
      else if (!secret && looksMasked(v) && typeof old === 'string' && maskUrlPassword(old) === v) setOwn(out, k, old)
      else setOwn(out, k, keepMaskedSecrets(v, old, isSecretMap(k)))
    }
    return out as T
  }
  return incoming
}
