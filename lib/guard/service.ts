// The account-risk guard (README.md): every send the plugin makes goes by (lib/host/port.ts
// watchSends); per chat (each group; private chats as one bucket) the recent sends give a risk figure,
// and past `riskAt` the chat is guarded until the figure has stayed below `recoverBelow` for
// `coolDownMinutes`. While guarded, every send waits for the chat's pace (`pace`, the host port's send
// pacer), lib/delivery sends long answers as forwards (`deliveryUnderRisk`), lib/proactive stays quiet
// (`pausesProactive`), and the masters are told privately once per episode. All times from the runtime clock; the state lives in memory.
import { guardFor } from '../config/group-settings.js'
import type { Config, DeliverySettings, GuardSettings } from '../config/schema.js'
import { errorText } from '../core/errors.js'
import { masters, sendPrivate, type OutgoingSend } from '../host/port.js'
import { t, type TextKey } from '../i18n.js'
import type { Runtime } from '../runtime.js'
import { keepMs, mainSignals, riskOf, signalsOf, type SendRecord, type Signals } from './risk.js'
import { featuresOf } from './text.js'

type GuardState = 'normal' | 'guarded' | 'cooling'

/** The key of private chats' one bucket (group ids are digits). */
export const PRIVATE = 'private'
/** Records kept per chat at most (a flood is judged on the newest). */
const MAX_RECORDS = 5000

interface ChatGuard {
  records: SendRecord[]
  state: GuardState
  /** when the episode began (guarded) or the figure fell below recoverBelow (cooling) */
  since: number
  /** the episode's highest figure */
  peak: number
  /** when the last paced send may go out */
  slot: number
  botId?: string
}

export interface ChatRisk {
  chat: string
  kind: 'group' | 'private'
  state: GuardState
  risk: number
  signals: Signals
  /** the signals that weigh in, strongest first */
  reasons: string[]
  /** the state's start (ms); absent while normal */
  since?: number
  peak?: number
  lastSendAt?: number
}

const SIGNAL_TEXT = {
  perMinute: 'guard.signal.perMinute', perHour: 'guard.signal.perHour', long: 'guard.signal.long',
  repeats: 'guard.signal.repeats', links: 'guard.signal.links', failures: 'guard.signal.failures'
} as const satisfies Record<keyof Signals, TextKey>

export class AccountGuard {
  private readonly chats = new Map<string, ChatGuard>()

  constructor (private readonly rt: Runtime) {}

  private settings (chat: string, cfg: Config = this.rt.config.get()): GuardSettings {
    return guardFor(cfg, chat === PRIVATE ? undefined : chat)
  }

  /** One send went by (lib/host/port.ts watchSends). */
  record (send: OutgoingSend): void {
    const chat = send.groupId ?? PRIVATE
    const s = this.settings(chat)
    if (!s.enabled) return
    const now = this.rt.clock.now()
    let c = this.chats.get(chat)
    if (!c) this.chats.set(chat, (c = { records: [], state: 'normal', since: now, peak: 0, slot: 0 }))
    if (send.botId) c.botId = send.botId
    c.records.push({ at: now, ...featuresOf(send.msg), ok: send.ok })
    if (c.records.length > MAX_RECORDS) c.records.splice(0, c.records.length - MAX_RECORDS)
    this.evaluate(chat, c, s, now)
  }

  /** The chat's figure now (records older than needed dropped). */
  private figure (c: ChatGuard, s: GuardSettings, now: number): { risk: number; signals: Signals } {
    const from = now - keepMs(s)
    let drop = 0
    while (drop < c.records.length && (c.records[drop] as SendRecord).at <= from) drop++
    if (drop) c.records.splice(0, drop)
    const signals = signalsOf(c.records, s, now)
    return { risk: riskOf(signals, s), signals }
  }

  /** Moves the chat's state on; tells the masters when an episode begins. */
  private evaluate (chat: string, c: ChatGuard, s: GuardSettings, now: number): { risk: number; signals: Signals } {
    const { risk, signals } = this.figure(c, s, now)
    if (c.state === 'normal') {
      if (risk >= s.riskAt) {
        Object.assign(c, { state: 'guarded', since: now, peak: risk })
        this.rt.log.warn('Account-risk guard: a chat is guarded', { chat, risk, signals })
        if (s.tellMaster) void this.tell(chat, c, risk, signals, s)
      }
    } else {
      c.peak = Math.max(c.peak, risk)
      if (c.state === 'guarded' && risk < s.recoverBelow) Object.assign(c, { state: 'cooling', since: now })
      else if (c.state === 'cooling' && risk >= s.recoverBelow) c.state = 'guarded'
      else if (c.state === 'cooling' && now - c.since >= s.coolDownMinutes * 60_000) {
        Object.assign(c, { state: 'normal', since: now, peak: 0 })
        this.rt.log.info('Account-risk guard: a chat is back to normal', { chat })
      }
    }
    return { risk, signals }
  }

  private async tell (chat: string, c: ChatGuard, risk: number, signals: Signals, s: GuardSettings): Promise<void> {
    const lang = this.rt.config.get().language
    const reasons = mainSignals(signals, s).map((k) => t(lang, SIGNAL_TEXT[k], { n: signals[k] })).join(lang === 'en' ? ', ' : '，')
    const text = t(lang, 'guard.told', {
      chat: chat === PRIVATE ? t(lang, 'guard.private') : t(lang, 'guard.group', { id: chat }),
      risk, reasons, minutes: s.coolDownMinutes
    })
    try {
      for (const m of await masters(c.botId)) await sendPrivate(m, text, c.botId)
    } catch (err) {
      this.rt.log.warn('Account-risk guard: could not tell the master', { error: errorText(err) })
    }
  }

  /** The chat's state now (re-evaluated on the clock). */
  private current (chat: string): ChatGuard | undefined {
    const c = this.chats.get(chat)
    if (!c) return undefined
    const s = this.settings(chat)
    if (!s.enabled) {
      c.state = 'normal'
      return c
    }
    this.evaluate(chat, c, s, this.rt.clock.now())
    return c
  }

  private guarded (groupId?: string): boolean {
    const state = this.current(groupId ?? PRIVATE)?.state
    return state === 'guarded' || state === 'cooling'
  }

  /** Waits, in a guarded chat, until `slowDownMs` after the chat's previous send (every send: the host
   * port's send pacer, index.ts). A timer, never a lock: the masters' notice, sent through the same
   * path from `record`, only waits its turn in the private bucket. */
  async pace (groupId?: string): Promise<void> {
    const chat = groupId ?? PRIVATE
    if (!this.guarded(groupId)) return
    const c = this.chats.get(chat) as ChatGuard
    const delay = this.settings(chat).slowDownMs
    const now = this.rt.clock.now()
    const last = Math.max(c.records.at(-1)?.at ?? 0, c.slot)
    const at = Math.max(now, last + delay)
    c.slot = at
    if (at > now) await new Promise<void>((resolve) => { this.rt.clock.setTimeout(resolve, at - now) })
  }

  /** The delivery settings for an answer in this chat: under risk long answers go as forwards (or
   * images) past `forwardAboveChars`, and never sentence by sentence. */
  deliveryUnderRisk (d: DeliverySettings, groupId?: string): DeliverySettings {
    if (!this.guarded(groupId)) return d
    const s = this.settings(groupId ?? PRIVATE)
    const longAnswer = d.longAnswer === 'off' ? s.forwardAs : d.longAnswer
    return { ...d, longAnswer, longAnswerChars: Math.min(d.longAnswerChars, s.forwardAboveChars), splitSentences: false }
  }

  /** Proactive replies wait while the group is guarded (`pauseProactive`). */
  pausesProactive (groupId: string): boolean {
    return this.settings(groupId).pauseProactive && this.guarded(groupId)
  }

  /** One chat's figure and state; undefined when it sent nothing in the kept window. */
  chat (chat: string): ChatRisk | undefined {
    const c = this.chats.get(chat)
    if (!c) return undefined
    const s = this.settings(chat)
    // switched off: the figure is shown, but nothing moves (no episode, no notice)
    const { risk, signals } = s.enabled ? this.evaluate(chat, c, s, this.rt.clock.now()) : this.figure(c, s, this.rt.clock.now())
    if (!s.enabled) c.state = 'normal'
    const last = c.records.at(-1)?.at
    return {
      chat,
      kind: chat === PRIVATE ? 'private' : 'group',
      state: c.state,
      risk,
      signals,
      reasons: mainSignals(signals, s),
      ...(c.state !== 'normal' ? { since: c.since, peak: c.peak } : {}),
      ...(last !== undefined ? { lastSendAt: last } : {})
    }
  }

  /** Every chat with recent sends or not back to normal, the riskiest first. */
  list (): ChatRisk[] {
    const out: ChatRisk[] = []
    for (const [key, c] of [...this.chats]) {
      const r = this.chat(key)
      if (!r || (!c.records.length && r.state === 'normal')) { this.chats.delete(key); continue }
      out.push(r)
    }
    return out.sort((a, b) => b.risk - a.risk || a.chat.localeCompare(b.chat))
  }

  /** Moves every chat's state on (the domain's timer): cool-downs end without a send. */
  sweep (): void {
    this.list()
  }
}
