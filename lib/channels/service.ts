// Model channels over the `channels` configuration section: CRUD written through rt.config.update
// (atomic, validated, masked secrets kept), the live status of each channel, and the choice of the
// best available channel for a request.
import { z } from 'zod'
import { channelSchema, PROVIDER_PROFILES, type ChannelConfig, type ChannelInput } from '../config/schema.js'
import { keepMaskedSecrets, maskSecrets } from '../config/secrets.js'
import { sameJson } from '../config/object-paths.js'
import { AppError } from '../core/errors.js'
import { redact } from '../core/redact.js'
import type { Runtime } from '../runtime.js'
import { ChannelBudgets, type Spending } from './budget.js'
import { profileOf, type ProfileName } from './profiles.js'
import { CLAIM_MARGIN_MS, claimed, failed, phaseOf, succeeded, type ChannelHealth } from './health.js'

/** `unconfigured`: enabled but with no model at all (no default, no list), so a request naming none fails. */
export type ChannelStatus = 'active' | 'error' | 'disabled' | 'unconfigured'

export type ChannelView = Omit<ChannelConfig, 'apiKeys'> & {
  id: string
  status: ChannelStatus
  lastError: string
  lastUsed: string
  /** `error`: when the channel is tried again (ISO; may be past: the next request tries it); else null */
  retryAt: string | null
  /** the provider profile in use (profiles.ts): the channel's own, or the one `auto` guessed */
  provider: ProfileName
  apiKeys: Array<{ name: string; key: string; enabled: boolean; index: number }>
  /** this month's cost against channels[].monthlyBudget (budget.ts) */
  spending: Spending
}

/** `Spending` (budget.ts) as the answers' schemas say it: the channel list, GET /api/stats/channels. */
export const spendingData = z.object({ month: z.string(), spent: z.number().nullable(), budget: z.number(), currency: z.string(), exhausted: z.boolean() })
/** `error`: when the channel is tried again (ISO; may be past: the next request tries it); else null (health.ts). */
export const retryAtData = z.iso.datetime().nullable()

/** A channel as the service's view() shows it: secrets masked, keys numbered, live status. */
export const channelViewData = channelSchema.omit({ apiKeys: true }).extend({
  id: z.string(),
  status: z.enum(['active', 'error', 'disabled', 'unconfigured']),
  lastError: z.string(),
  lastUsed: z.string(),
  retryAt: retryAtData,
  provider: z.enum(PROVIDER_PROFILES),
  apiKeys: z.array(z.object({ name: z.string(), key: z.string(), enabled: z.boolean(), index: z.number() })),
  spending: spendingData
})

export const CHANNEL_NOT_FOUND = 'Channel does not exist'

/** Fields of the view that clients may send back with a PUT; they are not configuration. */
const VIEW_ONLY = ['status', 'lastError', 'lastUsed', 'retryAt', 'provider', 'spending'] as const

/** Defaults of every optional field, so a written channel only holds what differs from them. */
const DEFAULTS = channelSchema.parse({ name: 'x', baseUrl: 'http://x' }) as Record<string, unknown>

export class ChannelService {
  private readonly health = new Map<string, ChannelHealth>()
  private writing: Promise<unknown> = Promise.resolve()
  readonly budgets: ChannelBudgets

  constructor (private readonly rt: Runtime) {
    this.budgets = new ChannelBudgets(rt, (ch) => this.idOf(ch))
  }

  list (): ChannelConfig[] { return this.rt.config.get().channels }

  /** A channel by name or id. */
  find (nameOrId: string): ChannelConfig | undefined {
    const list = this.list()
    return list.find((c) => c.name === nameOrId) ?? list.find((c) => c.id === nameOrId)
  }

  get (nameOrId: string): ChannelConfig {
    const ch = this.find(nameOrId)
    if (!ch) throw new AppError('NOT_FOUND', CHANNEL_NOT_FOUND)
    return ch
  }

  idOf (ch: ChannelConfig): string { return ch.id ?? ch.name }

  status (ch: ChannelConfig): ChannelStatus {
    if (!ch.enabled) return 'disabled'
    if (!ch.model && ch.models.length === 0) return 'unconfigured'
    return this.health.get(ch.name)?.status ?? 'active'
  }

  /** The channel as clients see it: secrets masked, keys numbered, live status. */
  view (ch: ChannelConfig): ChannelView {
    const masked = maskSecrets(ch)
    const h = this.health.get(ch.name)
    return {
      ...masked,
      id: this.idOf(ch),
      apiKeys: masked.apiKeys.map((k, index) => ({ ...k, index })),
      status: this.status(ch),
      lastError: h?.lastError ?? '',
      lastUsed: h?.lastUsed ? new Date(h.lastUsed).toISOString() : '',
      retryAt: this.retryAt(ch),
      provider: profileOf(ch).profile.name,
      spending: this.budgets.spending(ch)
    }
  }

  views (): ChannelView[] { return this.list().map((c) => this.view(c)) }

  /** Enabled channels not currently failing (GET /api/system/status). */
  availableCount (): number { return this.list().filter((c) => this.status(c) === 'active').length }

  /** When a channel in `error` is tried again (ISO), else null (health.ts). */
  retryAt (ch: ChannelConfig): string | null {
    const h = this.health.get(ch.name)
    return this.status(ch) === 'error' && h?.retryAt ? new Date(h.retryAt).toISOString() : null
  }

  /** A request on the channel succeeded: `active`, back in its priority place, its trial (if any) over. */
  markOk (ch: ChannelConfig): void { this.setHealth(ch, succeeded(this.rt.clock.now())) }

  /**
   * A channel-level failure: `error` until retryAt, `retryAfterMs` (the provider's Retry-After) or else
   * a back-off (health.ts). `error` is shown as lastError: secrets an upstream echoed are masked.
   */
  markError (ch: ChannelConfig, error: string, opts: { retryAfterMs?: number } = {}): void {
    this.setHealth(ch, failed(this.health.get(ch.name), this.rt.clock.now(), redact(error), opts.retryAfterMs))
  }

  /**
   * Channels to try for a request, best first. A named channel must exist and be enabled. Otherwise:
   * channels listing the model (or listing none) first, then healthy ones (with a half-open channel whose
   * trial is free), then by priority. A half-open channel put first is claimed for this request's trial
   * (released by markOk / markError, or after timeoutMs + CLAIM_MARGIN_MS): concurrent requests go elsewhere
   * first meanwhile. Callers that only look (which channel would answer) use `preview`.
   */
  candidates (name?: string, model?: string, anyState = false): ChannelConfig[] {
    const list = this.ordered(name, model, anyState)
    const first = list[0]
    if (!name && first) {
      const h = this.health.get(first.name)
      const now = this.rt.clock.now()
      if (h && phaseOf(h, now) === 'half-open') this.health.set(first.name, claimed(h, now, first.timeoutMs + CLAIM_MARGIN_MS))
    }
    return list
  }

  /** The order `candidates` gives, without taking a half-open channel's trial. */
  preview (name?: string, model?: string, anyState = false): ChannelConfig[] { return this.ordered(name, model, anyState) }

  private ordered (name: string | undefined, model: string | undefined, anyState: boolean): ChannelConfig[] {
    if (name) {
      const ch = this.find(name)
      if (!ch) throw new AppError('CHANNEL_UNAVAILABLE', `Channel ${name} does not exist`)
      if (!ch.enabled && !anyState) throw new AppError('CHANNEL_UNAVAILABLE', `Channel ${ch.name} is disabled`)
      if (!anyState && this.budgets.exhausted(ch)) throw new AppError('CHANNEL_UNAVAILABLE', `Channel ${ch.name} has spent its monthly budget`)
      return [ch]
    }
    const enabled = this.list().map((c, order) => ({ c, order })).filter(({ c }) => c.enabled)
    if (enabled.length === 0) throw new AppError('CHANNEL_UNAVAILABLE', 'No available channels')
    // a channel whose monthly budget is spent is not used until the month ends (budget.ts)
    const open = enabled.filter(({ c }) => !this.budgets.exhausted(c))
    if (open.length === 0) throw new AppError('CHANNEL_UNAVAILABLE', 'Every channel has spent its monthly budget')
    const fits = (c: ChannelConfig): number => (!model || c.models.length === 0 || c.models.includes(model) || c.model === model ? 1 : 0)
    const now = this.rt.clock.now()
    const healthy = (c: ChannelConfig): number => {
      if (this.status(c) === 'unconfigured') return 0
      const phase = phaseOf(this.health.get(c.name), now)
      return phase === 'active' || phase === 'half-open' ? 1 : 0
    }
    return open
      .sort((a, b) => fits(b.c) - fits(a.c) || healthy(b.c) - healthy(a.c) || b.c.priority - a.c.priority || a.order - b.order)
      .map(({ c }) => c)
  }

  async create (input: unknown): Promise<ChannelConfig> {
    return this.serial(async () => {
      const ch = withDefaultModel(parseChannel(stripViewFields(input)), true)
      if (this.find(ch.name)) throw new AppError('CONFLICT', `Channel ${ch.name} already exists`)
      const withId: ChannelConfig = { ...ch, id: ch.id ?? ch.name, apiKeys: nameKeys(ch.apiKeys) }
      if (this.list().some((c) => this.idOf(c) === withId.id)) throw new AppError('CONFLICT', `Channel id ${withId.id} is already used`)
      await this.write([...this.list(), withId])
      return withId
    })
  }

  async update (name: string, partial: unknown): Promise<ChannelConfig> {
    return this.serial(async () => {
      const current = this.get(name)
      const patch = stripViewFields(partial)
      if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw new AppError('INVALID_CONFIG', 'Body must be a JSON object', { errors: [{ path: '', message: 'expected an object' }] })
      const incoming = keepMaskedSecrets(patch as Record<string, unknown>, current)
      // a channel kept without a default model (config.yaml) stays editable until a change touches its models
      const touchesModels = 'model' in incoming || 'models' in incoming
      const next = withDefaultModel(parseChannel({ ...current, ...incoming }), touchesModels)
      if (next.name !== current.name && this.find(next.name)) throw new AppError('CONFLICT', `Channel ${next.name} already exists`)
      const fixed: ChannelConfig = { ...next, apiKeys: nameKeys(next.apiKeys) }
      await this.write(this.list().map((c) => (c.name === current.name ? fixed : c)))
      if (fixed.name !== current.name) this.health.delete(current.name)
      // switching a channel on or off changes its status: the system stream reports it like a health change
      if (fixed.enabled !== current.enabled) this.rt.bus.emit('system', 'channel', { id: this.idOf(fixed), name: fixed.name, status: this.status(fixed), retryAt: this.retryAt(fixed), timestamp: this.rt.clock.now() })
      return fixed
    })
  }

  async remove (name: string): Promise<void> {
    await this.serial(async () => {
      const current = this.get(name)
      await this.write(this.list().filter((c) => c.name !== current.name))
      this.health.delete(current.name)
    })
  }

  private async write (list: ChannelConfig[]): Promise<void> {
    await this.rt.config.writer('channels').update(list.map(compact))
  }

  /** Channel writes read-modify-write the whole list: one at a time. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writing.then(fn, fn)
    this.writing = run.catch(() => undefined)
    return run
  }

  /** Emits the `channel` event when the status or the next trial time changed. */
  private setHealth (ch: ChannelConfig, next: ChannelHealth): void {
    const prev = this.health.get(ch.name)
    this.health.set(ch.name, next)
    if (prev?.status !== next.status || (prev?.retryAt ?? 0) !== next.retryAt) {
      const retryAt = next.retryAt ? new Date(next.retryAt).toISOString() : null
      this.rt.bus.emit('system', 'channel', { id: this.idOf(ch), name: ch.name, status: next.status, error: next.lastError || undefined, retryAt, timestamp: this.rt.clock.now() })
    }
  }
}

function stripViewFields (input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) }
  for (const k of VIEW_ONLY) delete out[k]
  if (Array.isArray(out.apiKeys)) {
    out.apiKeys = out.apiKeys.map((k: unknown) => {
      if (!k || typeof k !== 'object') return k
      const { index: _index, ...rest } = k as Record<string, unknown>
      return rest
    })
  }
  return out
}

function parseChannel (value: unknown): ChannelConfig {
  const r = channelSchema.safeParse(value)
  if (r.success) return r.data
  const errors = r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
  const first = errors[0]
  throw new AppError('INVALID_CONFIG', first ? `${first.path || 'channel'}: ${first.message}` : 'Invalid channel', { errors })
}

/**
 * The default model a channel answers with when a request names none: the first of its list when it was
 * left empty; with neither (and `required`) the channel is refused, it could not answer (issue 21).
 */
function withDefaultModel (ch: ChannelConfig, required: boolean): ChannelConfig {
  if (ch.model) return ch
  const first = ch.models[0]
  if (first) return { ...ch, model: first }
  if (!required) return ch
  throw new AppError('INVALID_CONFIG', 'model: a default model is required (choose one, e.g. from the provider\'s model list)', { errors: [{ path: 'model', message: 'a default model is required' }] })
}

/** Keys are matched by name when a masked key is sent back, so every key gets a distinct name. */
function nameKeys (keys: ChannelConfig['apiKeys']): ChannelConfig['apiKeys'] {
  const used = new Set<string>()
  return keys.map((k, i) => {
    let name = k.name || `key-${i + 1}`
    while (used.has(name)) name = `${name}-${i + 1}`
    used.add(name)
    return { ...k, name }
  })
}

/** The channel without the fields that equal their defaults (keeps config.yaml short). */
function compact (ch: ChannelConfig): ChannelInput {
  const out: ChannelInput = { ...ch }
  for (const k of Object.keys(out) as Array<keyof ChannelInput>) {
    if (k === 'name' || k === 'baseUrl') continue
    if (out[k] === undefined || (k in DEFAULTS && sameJson(DEFAULTS[k], out[k]))) delete out[k]
  }
  return out
}
