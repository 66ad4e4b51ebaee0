// API keys of a channel: round-robin rotation, and a cooldown for a key that just failed
// (401/403/429/5xx) so the next requests skip it until the cooldown ends.
import type { Clock } from '../core/clock.js'
import type { ChannelConfig } from '../config/schema.js'

export interface ChannelKey {
  /** Display name (never the key itself). */
  name: string
  /** Position among the channel's usable keys (stable while the configuration is unchanged). */
  index: number
  key: string
}

export interface KeyInfo { name: string; index: number }

/** The usable keys of a channel: enabled `apiKeys` first, then `apiKey` if it is not among them. */
export function channelKeys (ch: ChannelConfig): ChannelKey[] {
  const out: ChannelKey[] = []
  ch.apiKeys.forEach((k, i) => {
    if (k.enabled && k.key) out.push({ name: k.name || `key-${i + 1}`, index: out.length, key: k.key })
  })
  if (ch.apiKey && !out.some((k) => k.key === ch.apiKey)) out.push({ name: 'apiKey', index: out.length, key: ch.apiKey })
  return out
}

export class KeyPool {
  private readonly cursor = new Map<string, number>()
  /** `${channel}\u0000${key}` -> time the cooldown ends */
  private readonly cooling = new Map<string, number>()

  constructor (private readonly clock: Clock) {}

  /**
   * Keys in the order to try them for one request. Rotation starts one further per request
   * (unless `rotate` is false); keys in cooldown go last, soonest-recovering first, so a request
   * still has a chance when every key is cooling down.
   */
  order (channel: string, keys: ChannelKey[], rotate = true): ChannelKey[] {
    if (keys.length <= 1) return keys
    const start = this.cursor.get(channel) ?? 0
    if (rotate) this.cursor.set(channel, (start + 1) % keys.length)
    const rotated = [...keys.slice(start % keys.length), ...keys.slice(0, start % keys.length)]
    const now = this.clock.now()
    const ready = rotated.filter((k) => this.until(channel, k) <= now)
    const cold = rotated.filter((k) => this.until(channel, k) > now).sort((a, b) => this.until(channel, a) - this.until(channel, b))
    return [...ready, ...cold]
  }

  /** One key without advancing the rotation (batch tests: usage is not recorded). */
  peek (channel: string, keys: ChannelKey[]): ChannelKey | undefined {
    return this.order(channel, keys, false)[0]
  }

  cooldown (channel: string, key: ChannelKey, ms: number): void {
    if (ms > 0) this.cooling.set(`${channel}\u0000${key.key}`, this.clock.now() + ms)
  }

  release (channel: string, key: ChannelKey): void {
    this.cooling.delete(`${channel}\u0000${key.key}`)
  }

  isCooling (channel: string, key: ChannelKey): boolean {
    return this.until(channel, key) > this.clock.now()
  }

  private until (channel: string, key: ChannelKey): number {
    return this.cooling.get(`${channel}\u0000${key.key}`) ?? 0
  }
}
