// The global `plugin` base class. There is one class per process,
// like the hosts' module-level class: its profile, context store and logger come from the host that
// is running now. This matters in a test process that runs several hosts one after another:
// modules a plugin imports may stay cached between hosts (tsx's tsImport re-evaluates only the
// entry), so their classes extend the class the first host installed.
import { ContextStore, contextKey } from './context.js'
import { CONTEXT_TIMEOUT_TEXT } from './profile.js'
import { isEmptyMessage } from './segments.js'
import type { StandaloneLogger } from './logger.js'
import type { PluginClass, PluginInstance, PluginOptions, Profile, ReplyOpts, RuleSpec, Sendable, StandaloneEvent, TaskOption } from './types.js'

const RESOLVE_CONTEXT = 'resolveContext'

export interface PluginRuntime { profile: Profile; store: ContextStore; logger: StandaloneLogger | Console }

// Outside a running host (a class constructed after stop()): Miao rules, a detached store.
const detached: PluginRuntime = { profile: 'miao', store: new ContextStore(), logger: console }
let active: PluginRuntime = detached

/** Points the base class at a host; returns the function that detaches it again. */
export function activatePluginBase(rt: PluginRuntime): () => void {
  active = rt
  return () => { if (active === rt) active = detached }
}

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
    if (active.profile === 'miao') {
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
    return contextKey(active.profile, this.name, this.e, isGroup)
  }

  setContext(type: string, isGroup = false, time = 120, timeout: string = CONTEXT_TIMEOUT_TEXT): StandaloneEvent {
    const key = this.conKey(isGroup)
    const e = this.e as StandaloneEvent
    const store = active.store
    store.set(key, type, e, time, () => {
      if (type === RESOLVE_CONTEXT) store.resolveWaiter(key, false)
      else void e?.reply?.(timeout, true)
    })
    return e
  }

  getContext(type?: string, isGroup = false): StandaloneEvent | Record<string, StandaloneEvent> | undefined {
    const key = this.conKey(isGroup)
    return type ? active.store.get(key, type) : active.store.all(key)
  }

  finish(type: string, isGroup = false): void {
    active.store.delete(this.conKey(isGroup), type)
  }

  /** Resolves with the next event of the same user (or group), or false on timeout. */
  awaitContext(isGroup = false, time = 120, timeout: string = CONTEXT_TIMEOUT_TEXT): Promise<StandaloneEvent | false> {
    return new Promise((resolve) => {
      active.store.addWaiter(this.conKey(isGroup), resolve)
      this.setContext(RESOLVE_CONTEXT, isGroup, time, timeout)
    })
  }

  /** Context handler the dispatcher calls for an awaitContext waiter; `this.e` is the new event. */
  resolveContext(): void {
    const isGroup = !active.store.get(this.conKey(false), RESOLVE_CONTEXT) && Boolean(active.store.get(this.conKey(true), RESOLVE_CONTEXT))
    const key = this.conKey(isGroup)
    active.store.delete(key, RESOLVE_CONTEXT)
    active.store.resolveWaiter(key, this.e as StandaloneEvent)
  }

  /** Needs miao-plugin's renderer, which the standalone host does not have. */
  async renderImg(): Promise<false> {
    active.logger.warn(`[${this.name}] renderImg is not available in the standalone host`)
    return false
  }
}
export const PluginBase: PluginClass = plugin
