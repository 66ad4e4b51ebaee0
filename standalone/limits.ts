// Cooldowns and the duplicate-message throttle that run before plugins see a message
// (the hosts' loader does the same). On by default with the profile's numbers; tests and the console may turn them off.
import { LIMITS, type LimitDefaults } from './profile.js'
import type { Profile, StandaloneEvent } from './types.js'

export class Limits {
  enabled: boolean
  readonly numbers: LimitDefaults
  private until = new Map<string, number>()
  private last = new Map<string, { raw: string; at: number }>()

  constructor(profile: Profile, enabled: boolean) {
    this.enabled = enabled
    this.numbers = LIMITS[profile]
  }

  /** Why the event must be dropped, if it must. */
  check(e: StandaloneEvent): 'cooldown' | 'duplicate' | undefined {
    if (!this.enabled) return undefined
    const now = Date.now()
    const who = `${e.self_id}:${e.user_id}`
    const raw = e.raw_message ?? ''
    const prev = this.last.get(who)
    this.last.set(who, { raw, at: now })
    if (prev && prev.raw === raw && now - prev.at < this.numbers.duplicateMs) return 'duplicate'
    if (!e.isGroup) return undefined
    for (const key of this.keys(e)) if ((this.until.get(key) ?? 0) > now) return 'cooldown'
    return undefined
  }

  /** Starts the group and per-user cooldowns (group messages only). */
  arm(e: StandaloneEvent): void {
    if (!this.enabled || !e.isGroup) return
    const [groupKey, userKey] = this.keys(e)
    const now = Date.now()
    if (this.numbers.groupCD > 0) this.until.set(groupKey, now + this.numbers.groupCD)
    if (this.numbers.singleCD > 0) this.until.set(userKey, now + this.numbers.singleCD)
  }

  private keys(e: StandaloneEvent): [string, string] {
    return [`g:${e.self_id}:${e.group_id}`, `u:${e.self_id}:${e.group_id}:${e.user_id}`]
  }
}
