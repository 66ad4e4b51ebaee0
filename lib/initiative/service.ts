// Openers after silence (README.md): every CHECK_MS on the runtime clock, each group the bot knows is
// looked at (decide.ts); a quiet one within its hours gets one model turn through the chat pipeline with
// its recent log and the knowledge bound to it, and the answer goes out as a proactive reply does
// (moderated, delivered, logged), or nothing when the model says `[skip]`. The state per group is kept in
// the store `initiative` (files, or PostgreSQL when set), so a restart does not open again at once.
import { errorText } from '../core/errors.js'
import { conversationIdOf } from '../chat/store.js'
import type { ChatScope } from '../chat/contracts.js'
import type { Config } from '../config/schema.js'
import { groupEntry, initiativeFor } from '../config/group-settings.js'
import type { GroupLogEntry } from '../grouplog/types.js'
import { chatSession, type HostSession } from '../host/session.js'
import { t } from '../i18n.js'
import { logLines, proactiveAnswer } from '../proactive/prompt.js'
import { sayUnasked } from '../proactive/unasked.js'
import { resolveTimeZone } from '../reminders/zoned.js'
import type { Runtime } from '../runtime.js'
import { openRecords } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import { countOpener, decideOpener, settleOpener, type GroupState, type InitiativeDecision } from './decide.js'

/** How often the groups are looked at: an opener goes out at most this late after a group became due. */
export const CHECK_MS = 5 * 60_000
const HOUR_MS = 3_600_000
/** The participant an opener is stored under (conversation `group:<id>:initiative`, statistics): nobody's own turn. */
const PARTICIPANT = 'initiative'
/** Group log entries given to the model, and knowledge passages at most (each cut to PASSAGE_CHARS). */
const LOG_ENTRIES = 20
const PASSAGES = 3
const PASSAGE_CHARS = 300

const fresh = (id: string, botId?: string): GroupState => ({ id, ...(botId ? { botId } : {}), unanswered: 0, dayCount: 0 })

export interface InitiativeStatus {
  state: GroupState | undefined
  decision: InitiativeDecision
}

export class InitiativeService {
  /** groups noted in this process (the store holds those noted before) */
  private readonly seen = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private round: Promise<void> | undefined
  private closed = false

  private constructor (private readonly rt: Runtime, private readonly store: RecordStore<GroupState, string>) {}

  static async open (rt: Runtime): Promise<InitiativeService> {
    return new InitiativeService(rt, await openRecords<GroupState, string>(rt, 'initiative', { key: (r) => r.id }))
  }

  /** Arms the check timer (rt.clock). */
  start (): void {
    if (this.closed) return
    this.timer = this.rt.clock.setTimeout(() => {
      this.timer = undefined
      this.round = this.checkAll().catch((err: unknown) => this.rt.log.warn('Openers after silence: a check failed', { error: errorText(err) }))
        .finally(() => { this.round = undefined; this.start() })
    }, CHECK_MS)
  }

  async close (): Promise<void> {
    this.closed = true
    if (this.timer) this.rt.clock.clearTimeout(this.timer)
    await this.round
    await this.store.close()
  }

  /** Resolves when no check is under way (tests, stop). */
  async idle (): Promise<void> {
    while (this.round) await this.round
    await this.store.idle()
  }

  get (groupId: string): GroupState | undefined {
    return this.store.get(groupId)
  }

  /** A group message was seen: a group where openers are on becomes known (one write, the first time). */
  noteGroup (groupId: string, botId: string): void {
    if (this.seen.has(groupId) || !initiativeFor(this.rt.config.get(), groupId).enabled) return
    this.seen.add(groupId)
    if (this.store.has(groupId)) return
    this.store.put(fresh(groupId, botId || undefined)).catch((err: unknown) => this.rt.log.warn('Openers after silence: a group was not recorded', { groupId, error: errorText(err) }))
  }

  /** A member talked to the bot in the group: openers there start again after unanswered ones. */
  noteCalled (groupId: string): void {
    const s = this.store.get(groupId)
    if (!s || s.unanswered === 0) return
    this.store.patch(groupId, { unanswered: 0 }).catch((err: unknown) => this.rt.log.warn('Openers after silence: a group was not resumed', { groupId, error: errorText(err) }))
  }

  /** A master resumes a group stopped after unanswered openers; false when it was not stopped. */
  async resume (groupId: string): Promise<boolean> {
    const s = this.store.get(groupId)
    if (!s || (s.unanswered === 0 && s.pendingAt === undefined)) return false
    const { pendingAt: _dropped, ...rest } = s
    await this.store.put({ ...rest, unanswered: 0 })
    return true
  }

  /** The group's state and what a check would decide now. */
  status (groupId: string): InitiativeStatus {
    const cfg = this.rt.config.get()
    const state = this.store.get(groupId)
    const last = this.rt.optional('groupLog')?.recent(groupId, 1)[0]
    return { state, decision: decideOpener({ settings: initiativeFor(cfg, groupId), state, lastMessageAt: last?.at, now: this.rt.clock.now(), tz: resolveTimeZone(cfg.reminders.timezone) }) }
  }

  /** The groups to look at: those with a record, those noted now, those with their own settings. */
  private candidates (cfg: Config): Set<string> {
    const out = new Set(this.seen)
    for (const r of this.store.values()) out.add(r.id)
    for (const id of Object.keys(cfg.groups)) out.add(id)
    return out
  }

  /** One check of every known group; openers go out one after another. */
  private async checkAll (): Promise<void> {
    const log = this.rt.optional('groupLog')
    if (!log) return
    for (const groupId of this.candidates(this.rt.config.get())) {
      if (this.closed) return
      const cfg = this.rt.config.get()
      if (groupEntry(cfg, groupId)?.enabled === false) continue
      const settings = initiativeFor(cfg, groupId)
      if (!settings.enabled) continue
      const now = this.rt.clock.now()
      let state = this.store.get(groupId)
      if (state?.pendingAt !== undefined) {
        const settled = settleOpener(state, log.recent(groupId, cfg.groupLog.maxMessages), settings.answerWindowMinutes, now)
        if (settled) await this.store.put((state = settled))
      }
      // the account-risk guard (lib/guard) pauses what the bot says on its own while the group is guarded
      if (this.rt.optional('guard')?.pausesProactive(groupId)) continue
      const tz = resolveTimeZone(cfg.reminders.timezone)
      const decision = decideOpener({ settings, state, lastMessageAt: log.recent(groupId, 1)[0]?.at, now, tz })
      if (decision.open) await this.open(groupId, state ?? fresh(groupId), settings.quietHours * HOUR_MS, tz)
    }
  }

  private async open (groupId: string, state: GroupState, quietMs: number, tz: string): Promise<void> {
    const rt = this.rt
    let s: HostSession
    // the group's chat with no event at hand (lib/host/session.ts), through the account that saw it
    try { s = chatSession({ groupId, userId: '' }, state.botId) } catch (err) {
      rt.log.warn('Openers after silence: the host has no account for the group yet', { groupId, error: errorText(err) })
      return
    }
    // several instances (Redis): one opener per quiet spell, README.md "Several instances"
    if (rt.shared) {
      const lock = await rt.shared.lock(`initiative:${groupId}`, quietMs).catch((err: unknown) => {
        rt.log.warn('Openers after silence: no lock (Redis)', { groupId, error: errorText(err) })
        return undefined
      })
      if (!lock) return
    }
    // the try counts before the model is asked: a restart meanwhile does not ask again at once
    await this.store.put({ ...state, lastTriedAt: rt.clock.now() })
    if (await this.turn(s, groupId)) await this.store.put(countOpener(this.store.get(groupId) ?? state, tz, rt.clock.now()))
  }

  /** One model turn for an opener; true when it went out. Never throws. */
  private async turn (s: HostSession, groupId: string): Promise<boolean> {
    const rt = this.rt
    const log = rt.optional('groupLog')
    const entries = log?.recent(groupId, LOG_ENTRIES) ?? []
    const lang = rt.config.get().language
    const passages = await this.passages(groupId, entries)
    const input = t(lang, 'initiative.prompt', {
      log: logLines(entries, { self: t(lang, 'proactive.self'), image: t(lang, 'proactive.image') }),
      knowledge: passages ? t(lang, 'initiative.knowledge', { passages }) : ''
    })
    // the group log context (lib/grouplog/context.ts) leaves out what the prompt already holds
    const shown = entries.flatMap((e) => (e.messageId ? [e.messageId] : []))
    const scope: ChatScope = {
      userId: PARTICIPANT,
      groupId,
      botId: s.botId,
      isMaster: false,
      via: 'bot',
      conversationId: conversationIdOf(PARTICIPANT, groupId),
      ...(shown.length ? { messageIds: shown } : {})
    }
    let sent = false
    try {
      // the caps are this turn's limit: no user's chat rate limit is spent on it
      await rt.need('conversations').pipeline.admitted(scope, input, {
        toolsEnabled: false,
        onAnswer: async (answer, media) => {
          const said = proactiveAnswer(answer)
          sent = said !== undefined && await sayUnasked(rt, s, said, media) !== undefined
        }
      })
    } catch (err) {
      rt.log.warn('Openers after silence: the turn failed', { groupId, error: errorText(err) })
    }
    return sent
  }

  /** A few passages of the knowledge bases bound to the group (groups.<id>.knowledge) matching its recent talk; '' without. */
  private async passages (groupId: string, entries: readonly GroupLogEntry[]): Promise<string> {
    const kb = this.rt.optional('knowledge')
    const baseIds = groupEntry(this.rt.config.get(), groupId)?.knowledge ?? []
    if (!kb || baseIds.length === 0) return ''
    const query = entries.filter((e) => !e.fromBot).slice(-10).map((e) => e.text).join(' ').slice(0, 500)
    try {
      const hits = await kb.search(query || ' ', { baseIds, limit: PASSAGES })
      return hits.map((h) => `《${h.title}》 ${h.text.length > PASSAGE_CHARS ? `${h.text.slice(0, PASSAGE_CHARS)}…` : h.text}`.replace(/\s*\n\s*/g, ' ')).join('\n')
    } catch (err) {
      this.rt.log.warn('Openers after silence: no knowledge passages', { groupId, error: errorText(err) })
      return ''
    }
  }
}
