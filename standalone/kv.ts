// In-memory stand-in for the global `redis` (the node-redis v4 subset plugins use) with TTLs.
// Expiry is checked lazily against Date.now(), so fake timers drive it and no timers are left behind.

export interface SetOptions { EX?: number; PX?: number; NX?: boolean; XX?: boolean; KEEPTTL?: boolean }

interface Slot { value: string; expiresAt?: number }

function globToRegExp(pattern: string): RegExp {
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    else if (c === '*') re += '.*'
    else if (c === '?') re += '.'
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1)
      if (end === -1) { re += '\\['; continue }
      let body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\')
      if (body.startsWith('^')) body = `^${body.slice(1)}`
      re += `[${body}]`
      i = end
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`, 's')
}

export class MemoryKV {
  private data = new Map<string, Slot>()
  readonly isOpen = true
  readonly isReady = true

  private slot(key: string): Slot | undefined {
    const s = this.data.get(key)
    if (s?.expiresAt !== undefined && s.expiresAt <= Date.now()) {
      this.data.delete(key)
      return undefined
    }
    return s
  }

  async get(key: string): Promise<string | null> {
    return this.slot(key)?.value ?? null
  }

  async set(key: string, value: string | number, opts: SetOptions = {}): Promise<'OK' | null> {
    const old = this.slot(key)
    if ((opts.NX && old) || (opts.XX && !old)) return null
    const ttlMs = opts.PX ?? (opts.EX !== undefined ? opts.EX * 1000 : undefined)
    const expiresAt = ttlMs !== undefined ? Date.now() + ttlMs : opts.KEEPTTL ? old?.expiresAt : undefined
    this.data.set(key, { value: String(value), expiresAt })
    return 'OK'
  }

  async del(keys: string | string[]): Promise<number> {
    let n = 0
    for (const k of Array.isArray(keys) ? keys : [keys]) if (this.slot(k) && this.data.delete(k)) n++
    return n
  }

  async exists(keys: string | string[]): Promise<number> {
    return (Array.isArray(keys) ? keys : [keys]).filter((k) => this.slot(k)).length
  }

  async incrBy(key: string, by: number): Promise<number> {
    const s = this.slot(key)
    if (s && !/^-?\d+$/.test(s.value)) throw new Error('ERR value is not an integer or out of range')
    const next = (s ? Number(s.value) : 0) + by
    this.data.set(key, { value: String(next), expiresAt: s?.expiresAt })
    return next
  }

  async incr(key: string): Promise<number> {
    return this.incrBy(key, 1)
  }

  /** node-redis v4 resolves EXPIRE to a boolean */
  async expire(key: string, seconds: number): Promise<boolean> {
    const s = this.slot(key)
    if (!s) return false
    if (seconds <= 0) this.data.delete(key)
    else s.expiresAt = Date.now() + seconds * 1000
    return true
  }

  /** seconds left; -1 without expiry, -2 when missing (Redis semantics) */
  async ttl(key: string): Promise<number> {
    const s = this.slot(key)
    if (!s) return -2
    return s.expiresAt === undefined ? -1 : Math.ceil((s.expiresAt - Date.now()) / 1000)
  }

  async keys(pattern: string): Promise<string[]> {
    const re = globToRegExp(pattern)
    return [...this.data.keys()].filter((k) => this.slot(k) && re.test(k))
  }

  async flushAll(): Promise<'OK'> {
    this.data.clear()
    return 'OK'
  }

  async quit(): Promise<'OK'> {
    return 'OK'
  }
}
