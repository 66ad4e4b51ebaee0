// Module-level context state behind plugin.setContext/getContext/finish/awaitContext (as in the
// hosts' plugin.js). One store per host instance: the real hosts keep it in a private variable of plugin.js,
// which is per process; several standalone hosts may live in one test process.
import type { Profile, StandaloneEvent } from './types.js'

type KeyEvent = Pick<StandaloneEvent, 'self_id' | 'user_id' | 'group_id'> | undefined

/** Miao `${name}.${id}`, TRSS `${name}.${self_id}.${id}`; id is the group id when isGroup. */
export function contextKey(profile: Profile, name: string, e: KeyEvent, isGroup: boolean): string {
  const id = isGroup ? e?.group_id : e?.user_id
  return profile === 'trss' ? `${name}.${e?.self_id}.${id}` : `${name}.${id}`
}

type Timer = ReturnType<typeof setTimeout>
type Waiter = (e: StandaloneEvent | false) => void
interface Stored { e: StandaloneEvent; timer?: Timer }

export class ContextStore {
  private slots = new Map<string, Map<string, Stored>>()
  private waiters = new Map<string, Waiter[]>()

  /** Stores `e` under key/type; after `timeSec` (if > 0) drops it and calls `onTimeout`. */
  set(key: string, type: string, e: StandaloneEvent, timeSec: number, onTimeout: () => void): void {
    this.delete(key, type)
    const stored: Stored = { e }
    if (timeSec > 0) {
      stored.timer = setTimeout(() => {
        if (this.slots.get(key)?.get(type) !== stored) return
        this.delete(key, type)
        onTimeout()
      }, timeSec * 1000)
    }
    let byType = this.slots.get(key)
    if (!byType) this.slots.set(key, (byType = new Map()))
    byType.set(type, stored)
  }

  get(key: string, type: string): StandaloneEvent | undefined {
    return this.slots.get(key)?.get(type)?.e
  }

  /** All stored contexts of a key as `{ [type]: event }`, or undefined when there are none. */
  all(key: string): Record<string, StandaloneEvent> | undefined {
    const byType = this.slots.get(key)
    if (!byType?.size) return undefined
    return Object.fromEntries([...byType].map(([type, s]) => [type, s.e]))
  }

  delete(key: string, type: string): void {
    const byType = this.slots.get(key)
    const stored = byType?.get(type)
    if (!byType || !stored) return
    if (stored.timer) clearTimeout(stored.timer)
    byType.delete(type)
    if (!byType.size) this.slots.delete(key)
  }

  addWaiter(key: string, waiter: Waiter): void {
    const list = this.waiters.get(key) ?? []
    list.push(waiter)
    this.waiters.set(key, list)
  }

  /** Resolves the oldest awaitContext waiter of a key. */
  resolveWaiter(key: string, value: StandaloneEvent | false): boolean {
    const waiter = this.waiters.get(key)?.shift()
    if (!this.waiters.get(key)?.length) this.waiters.delete(key)
    waiter?.(value)
    return Boolean(waiter)
  }

  /** Drops everything (host stop): timers are cleared, waiters resolve with false. */
  clear(): void {
    for (const byType of this.slots.values()) for (const s of byType.values()) if (s.timer) clearTimeout(s.timer)
    this.slots.clear()
    for (const list of this.waiters.values()) for (const w of list) w(false)
    this.waiters.clear()
  }
}
