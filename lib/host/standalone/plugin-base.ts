// The global `plugin` base class (host-contract §2.1, §2.2, §2.4), created per host so its context
// state and key format follow the host's profile.
import { ContextStore } from './context.js'
import { CONTEXT_TIMEOUT_TEXT } from './profile.js'
import { isEmptyMessage } from './segments.js'
import type { StandaloneLogger } from './logger.js'
import type { PluginClass, PluginInstance, PluginOptions, Profile, ReplyOpts, RuleSpec, Sendable, StandaloneEvent, TaskOption } from './types.js'

export const RESOLVE_CONTEXT = 'resolveContext'

export function createPluginBase(profile: Profile, store: ContextStore, logger: StandaloneLogger): PluginClass {
  class plugin implements PluginInstance {
    [method: string]: unknown
    name: string
    dsc: string
    event: string
    priority: number
    rule: RuleSpec[]
    task: TaskOption | TaskOption[]
    declare e?: StandaloneEvent
    declare handler?: unknown
    declare namespace?: string

    // Extra constructor arguments (Miao passes the event) are ignored, as in the hosts.
    constructor(opts: PluginOptions = {}) {
      this.name = opts.name ?? 'your-plugin'
      this.dsc = opts.dsc ?? '无'
      this.event = opts.event ?? 'message'
      this.priority = opts.priority ?? 5000
      this.rule = opts.rule ?? []
      if (opts.handler) {
        this.handler = opts.handler
        this.namespace = opts.namespace ?? ''
      }
      if (profile === 'miao') {
        // Miao rebuilds the task and drops its name, so a task given here is never scheduled.
        const t: TaskOption = Array.isArray(opts.task) ? {} : opts.task ?? {}
        this.task = { name: '', fnc: t.fnc ?? '', cron: t.cron ?? '' }
      } else {
        this.task = opts.task ?? { name: '', fnc: '', cron: '' }
      }
    }

    reply(msg: Sendable = '', quote = false, data: ReplyOpts = {}): ReturnType<StandaloneEvent['reply']> | false {
      if (!this.e?.reply || isEmptyMessage(msg)) return false
      return this.e.reply(msg, quote, data)
    }

    conKey(isGroup = false): string {
      const id = isGroup ? this.e?.group_id : this.e?.user_id
      return profile === 'trss' ? `${this.name}.${this.e?.self_id}.${id}` : `${this.name}.${id}`
    }

    setContext(type: string, isGroup = false, time = 120, timeout: string = CONTEXT_TIMEOUT_TEXT): StandaloneEvent {
      const key = this.conKey(isGroup)
      const e = this.e as StandaloneEvent
      store.set(key, type, e, time, () => {
        if (type === RESOLVE_CONTEXT) store.resolveWaiter(key, false)
        else void e?.reply?.(timeout, true)
      })
      return e
    }

    getContext(type?: string, isGroup = false): StandaloneEvent | Record<string, StandaloneEvent> | undefined {
      const key = this.conKey(isGroup)
      return type ? store.get(key, type) : store.all(key)
    }

    finish(type: string, isGroup = false): void {
      store.delete(this.conKey(isGroup), type)
    }

    /** Resolves with the next event of the same user (or group), or false on timeout. */
    awaitContext(isGroup = false, time = 120, timeout: string = CONTEXT_TIMEOUT_TEXT): Promise<StandaloneEvent | false> {
      return new Promise((resolve) => {
        store.addWaiter(this.conKey(isGroup), resolve)
        this.setContext(RESOLVE_CONTEXT, isGroup, time, timeout)
      })
    }

    /** Context handler the dispatcher calls for an awaitContext waiter; `this.e` is the new event. */
    resolveContext(): void {
      const isGroup = !store.get(this.conKey(false), RESOLVE_CONTEXT) && Boolean(store.get(this.conKey(true), RESOLVE_CONTEXT))
      const key = this.conKey(isGroup)
      store.delete(key, RESOLVE_CONTEXT)
      store.resolveWaiter(key, this.e as StandaloneEvent)
    }

    /** Needs miao-plugin's renderer, which the standalone host does not have. */
    async renderImg(): Promise<false> {
      logger.warn(`[${this.name}] renderImg is not available in the standalone host`)
      return false
    }
  }
  return plugin
}
