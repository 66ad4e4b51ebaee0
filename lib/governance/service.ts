// The governance service (`rt.need('governance')`): one owner for "may this user use the bot now"
// (access, then quotas) and for "may this text be said" (moderation of the user's message and of the
// model's answer). The chat's own chat.userRateLimitPerMinute stays where it is (lib/chat/service.ts):
// a flood guard over every way into the pipeline (HTTP API included), checked after this service
// admitted a QQ message; quotas here are the owner's limits, per user and group, per minute and day.
import { existsSync } from 'node:fs'
import { ensurePrivateDir } from '../core/private-file.js'
import { normalizerGeneration } from '../core/text-normalize.js'
import { join } from 'node:path'
import { inSection } from '../config/object-paths.js'
import type { Config } from '../config/schema.js'
import { groupQuotaFor, strictnessFor, userQuotaFor } from '../config/group-settings.js'
import { t, type TextKey } from '../i18n.js'
import type { Runtime } from '../runtime.js'
import { decideAccess, groupAllowed, type Who } from './access.js'
import { quotaDay } from './day.js'
import { moderationCategories } from './endpoint.js'
import { HitLog } from './hits.js'
import { QuotaCounters, SharedQuotaCounters, type Awaitable, type QuotaCounter, type QuotaSubject, type Reached, type Used } from './quota.js'
import { maskHits, ModerationRules, readListFile } from './rules.js'
import type { Feature, QuotaLimits } from './schema.js'

/** A refusal: `reply` is the text to send, absent when the user gets silence. */
export interface Refusal { ok: false; reason: 'group' | 'user' | 'feature' | 'quota' | 'moderation'; reply?: string }
export type Admission = { ok: true } | Refusal
export type Moderated = { ok: true; text: string } | Refusal

/** What is left for a user (and their group) today, for `#lx额度`. */
export interface QuotaLeft { master: boolean; reset: string; user: Left; group?: Left }
interface Left { messages: number | null; tokens: number | null; minuteMessages: number | null }

export class GovernanceService {
  private rules: ModerationRules
  private constructor (private readonly rt: Runtime, private readonly counters: QuotaCounter, readonly hits: HitLog) {
    this.rules = this.compileRules()
  }

  static async open (rt: Runtime): Promise<GovernanceService> {
    const dir = join(rt.paths.dataDir, 'governance')
    await ensurePrivateDir(dir)
    const local = await QuotaCounters.open(dir, rt.log)
    // With Redis every instance counts in the same place; the file stays for when Redis is away.
    const counters: QuotaCounter = rt.shared ? new SharedQuotaCounters(rt.shared.quotas, local, rt.log) : local
    const hits = await HitLog.open(dir, () => rt.config.get().moderation.logMax, rt.log)
    const svc = new GovernanceService(rt, counters, hits)
    const off = rt.bus.on('config', (paths) => { if (paths.some((p) => inSection(p, 'moderation'))) svc.reloadRules() })
    rt.onStop.push(async () => { off(); await counters.close(); await hits.close() })
    return svc
  }

  /** The shipped list: <data>/moderation-words.txt when the owner put one there, else config/moderation-default.txt. */
  get listFile (): string {
    const own = join(this.rt.paths.dataDir, 'moderation-words.txt')
    return existsSync(own) ? own : join(this.rt.paths.pluginDir, 'config', 'moderation-default.txt')
  }

  private compileRules (): ModerationRules {
    const m = this.rt.config.get().moderation
    const list = m.useDefaultList ? readListFile(this.listFile, this.rt.log) : { keywords: [], regexes: [] }
    return new ModerationRules([...list.keywords, ...m.keywords], [...list.regexes, ...m.regexes], this.rt.log)
  }

  /** Reads the list file and the configured lists again. */
  reloadRules (): void { this.rules = this.compileRules() }

  get ruleCount (): number { return this.rules.size }

  private text (cfg: Config, key: TextKey, vars: Record<string, string | number> = {}): string {
    return t(cfg.language, key, { p: cfg.commandPrefix, ...vars })
  }

  private refuse (reason: Refusal['reason'], reply: string | undefined): Refusal {
    return reply === undefined ? { ok: false, reason } : { ok: false, reason, reply }
  }

  /** Access only: may this user use this feature here (no counting). */
  access (who: Who, feature: Feature): Admission {
    const cfg = this.rt.config.get()
    const r = decideAccess(cfg, who, feature)
    if (r === 'ok') return { ok: true }
    if (r === 'group' || cfg.access.refusal === 'silent') return this.refuse(r, undefined)
    return this.refuse(r, cfg.access.refusalText || this.text(cfg, r === 'feature' ? 'governance.featureRefused' : 'governance.refused'))
  }

  /** Whether the bot may speak in this group on its own (proactive replies, event reactions). */
  groupAllowed (groupId: string | undefined): boolean { return groupAllowed(this.rt.config.get(), groupId) }

  /** The quota day and minute now. */
  private when (cfg: Config): { day: string; minute: number } {
    const now = this.rt.clock.now()
    return { day: quotaDay(now, cfg.quotas.timezone, cfg.quotas.resetTime), minute: Math.floor(now / 60_000) }
  }

  /**
   * Access, then quotas: a message that passes is counted against the user's and the group's quota
   * (checked and counted in one step). Answers at once with the file counters, later with Redis' (await it).
   */
  admit (who: Who, feature: Feature = 'chat'): Awaitable<Admission> {
    const a = this.access(who, feature)
    if (!a.ok || who.isMaster) return a
    const cfg = this.rt.config.get()
    const { day, minute } = this.when(cfg)
    const subjects: QuotaSubject[] = [{ kind: 'user', id: who.userId, limits: userQuotaFor(cfg, who.userId, who.groupId) }]
    if (who.groupId !== undefined) subjects.push({ kind: 'group', id: who.groupId, limits: groupQuotaFor(cfg, who.groupId) })
    const r = this.counters.take(subjects, day, minute)
    return r instanceof Promise ? r.then((x) => this.admitted(cfg, x)) : this.admitted(cfg, r)
  }

  private admitted (cfg: Config, r: Reached | undefined): Admission {
    return r ? this.refuse('quota', this.quotaMessage(cfg, r)) : { ok: true }
  }

  private quotaMessage (cfg: Config, r: Reached): string {
    const what = this.text(cfg, `governance.limit.${r.limit}`, { who: r.kind === 'group' ? this.text(cfg, 'governance.whoGroup') : '' })
    return cfg.quotas.message || this.text(cfg, 'governance.quotaReached', { what, reset: cfg.quotas.resetTime })
  }

  /** Counts the tokens a turn used (the usage the chat pipeline reports after the turn). */
  /** Counts the tokens a turn used (the usage the chat pipeline reports after the turn); with Redis, done when the promise is. */
  async recordTokens (who: Pick<Who, 'userId' | 'groupId' | 'isMaster'>, tokens: number): Promise<void> {
    if (who.isMaster || !(tokens > 0)) return
    const { day, minute } = this.when(this.rt.config.get())
    await Promise.all([
      this.counters.add('user', who.userId, day, minute, 0, tokens),
      who.groupId !== undefined ? this.counters.add('group', who.groupId, day, minute, 0, tokens) : undefined
    ])
  }

  /** What is left today for this user (and their group), as counted by every instance. */
  async quotaLeft (who: Who): Promise<QuotaLeft> {
    const cfg = this.rt.config.get()
    const { day, minute } = this.when(cfg)
    const [user, group] = await Promise.all([
      this.counters.used('user', who.userId, day, minute),
      who.groupId !== undefined ? this.counters.used('group', who.groupId, day, minute) : undefined
    ])
    return this.leftOf(cfg, who, user, group)
  }

  /** quotaLeft() at once, from the file counters; throws with Redis (whose counts come asynchronously). */
  left (who: Who): QuotaLeft {
    const cfg = this.rt.config.get()
    const { day, minute } = this.when(cfg)
    const used = (kind: 'user' | 'group', id: string): Used => {
      const u = this.counters.used(kind, id, day, minute)
      if (u instanceof Promise) throw new Error('left() reads the file counters only: use quotaLeft() with Redis')
      return u
    }
    return this.leftOf(cfg, who, used('user', who.userId), who.groupId !== undefined ? used('group', who.groupId) : undefined)
  }

  private leftOf (cfg: Config, who: Who, user: Used, group: Used | undefined): QuotaLeft {
    const of = (u: Used, l: QuotaLimits): Left => ({
      messages: l.messagesPerDay ? Math.max(0, l.messagesPerDay - u.day.messages) : null,
      tokens: l.tokensPerDay ? Math.max(0, l.tokensPerDay - u.day.tokens) : null,
      minuteMessages: l.messagesPerMinute ? Math.max(0, l.messagesPerMinute - u.minute.messages) : null
    })
    return {
      master: who.isMaster,
      reset: cfg.quotas.resetTime,
      user: of(user, userQuotaFor(cfg, who.userId, who.groupId)),
      ...(group && who.groupId !== undefined ? { group: of(group, groupQuotaFor(cfg, who.groupId)) } : {})
    }
  }

  /** The word lists' and regexes' hits in `text`, the rules built again first if the normaliser changed. */
  private wordHits (text: string): ReturnType<ModerationRules['check']> {
    if (this.rules.generation !== normalizerGeneration()) this.reloadRules()
    return this.rules.check(text)
  }

  /** One moderation hit in the log: who, where, which rules (at most 20), what was done. */
  private logHit (who: { userId: string; groupId?: string | undefined }, direction: 'input' | 'output', rules: string[], action: 'mask' | 'refuse'): void {
    this.hits.add({
      at: this.rt.clock.now(),
      userId: who.userId,
      ...(who.groupId !== undefined ? { groupId: who.groupId } : {}),
      direction,
      rules: [...new Set(rules)].slice(0, 20),
      action
    })
  }

  /**
   * The outbound gate's check (lib/host/port.ts setOutboundGate, wired in index.ts): a text the bot
   * account is about to send, whatever path it took (answers, send_message, reminders, QQ tools...),
   * against the word lists and regexes as the chat's strictness says: passed, masked, or withheld
   * (undefined). The moderation endpoint, a network call, is asked for model answers only
   * (`moderate`); a text that already went through it comes here masked and passes.
   */
  gateText (who: { userId?: string | undefined; groupId?: string | undefined }, text: string): string | undefined {
    const cfg = this.rt.config.get()
    const strictness = strictnessFor(cfg, who.groupId)
    if (strictness === 'off' || !cfg.moderation.checkOutput || !text) return text
    const hits = this.wordHits(text)
    if (!hits.length) return text
    const action = strictness === 'refuse' ? 'refuse' : 'mask'
    this.logHit({ userId: who.userId ?? '', groupId: who.groupId }, 'output', hits.map((h) => h.rule), action)
    if (action === 'mask') return maskHits(text, hits)
    this.rt.log.info('An outgoing message was withheld by moderation', { userId: who.userId, groupId: who.groupId })
    return undefined
  }

  /**
   * Checks a text against the moderation rules as the group's strictness says: off or unchecked
   * direction passes it as is; mask gives it back with the banned parts as ＊＊＊; refuse (and a hit of
   * the moderation endpoint, which names no words to mask) refuses it. Every hit is logged.
   */
  async moderate (who: Pick<Who, 'userId' | 'groupId'>, text: string, direction: 'input' | 'output'): Promise<Moderated> {
    const cfg = this.rt.config.get()
    const m = cfg.moderation
    const strictness = strictnessFor(cfg, who.groupId)
    if (strictness === 'off' || !(direction === 'input' ? m.checkInput : m.checkOutput) || !text) return { ok: true, text }
    const hits = this.wordHits(text)
    const categories = await moderationCategories(m.endpoint, text, this.rt.log)
    if (!hits.length && !categories.length) return { ok: true, text }
    const action = strictness === 'refuse' || categories.length ? 'refuse' : 'mask'
    this.logHit(who, direction, [...hits.map((h) => h.rule), ...categories.map((c) => `endpoint:${c}`)], action)
    if (action === 'mask') return { ok: true, text: maskHits(text, hits) }
    return this.refuse('moderation', m.notice || this.text(cfg, direction === 'input' ? 'governance.inputRefused' : 'governance.outputRefused'))
  }
}
