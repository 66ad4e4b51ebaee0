// Proactive replies ("伪人", README.md): apps/chat.ts hands over each group message its trigger left
// unanswered; when decide.ts says so, the bot joins in through the chat pipeline with the recent group
// log as context, and says nothing when the model answers "[skip]". One instance per runtime.
import { errorText } from '../core/errors.js'
import { proactiveFor, groupEntry } from '../config/group-settings.js'
import type { ChatScope } from '../chat/contracts.js'
import { looksLikeCommand } from '../chat/trigger.js'
import { conversationIdOf } from '../chat/store.js'
import type { HostSession } from '../host/session.js'
import { t } from '../i18n.js'
import type { Runtime } from '../runtime.js'
import { ProactiveCounters } from './counters.js'
import { ACTIVITY_WINDOW_MS, decideProactive, type ProactiveDecision } from './decide.js'
import { logLines, proactiveAnswer, PROACTIVE_LOG_ENTRIES } from './prompt.js'
import { sayUnasked } from './unasked.js'

/**
 * The participant a proactive turn is stored under (conversation `group:<id>:proactive`, statistics,
 * memories): the turn answers the group as a whole, so it is no one user's turn.
 */
const PROACTIVE_USER = 'proactive'

export class ProactiveReplies {
  readonly counters = new ProactiveCounters()
  private readonly pending = new Set<Promise<void>>()

  constructor (private readonly rt: Runtime, private readonly random: () => number = () => Math.random()) {}

  /**
   * Considers joining in after a group message nobody asked the bot about. Decides at once (so the
   * caps hold for messages arriving meanwhile) and answers in the background: the host's other
   * plugins get the message without waiting for the model. Never throws.
   */
  consider (s: HostSession): ProactiveDecision | undefined {
    const groupId = s.groupId
    if (!groupId || s.self) return undefined
    const rt = this.rt
    const cfg = rt.config.get()
    // other plugins' commands are not conversation
    if (looksLikeCommand(s.text, cfg.commandPrefix)) return undefined
    if (groupEntry(cfg, groupId)?.enabled === false) return undefined
    const settings = proactiveFor(cfg, groupId)
    if (!settings.enabled) return { join: false, reason: 'disabled' }
    // the account-risk guard (lib/guard) pauses proactive replies while the group is guarded
    if (rt.optional('guard')?.pausesProactive(groupId)) return { join: false, reason: 'guarded' }
    const log = rt.optional('groupLog')
    if (!log) return undefined
    const now = rt.clock.now()
    const decision = decideProactive({
      settings, counters: this.counters.get(groupId), now, activity: log.countSince(groupId, now - ACTIVITY_WINDOW_MS), random: this.random()
    })
    if (!decision.join) return decision
    const entries = log.recent(groupId, PROACTIVE_LOG_ENTRIES)
    if (!entries.length) return undefined
    this.counters.count(groupId, now)
    const lang = cfg.language
    const input = t(lang, 'proactive.prompt', {
      log: logLines(entries, { self: t(lang, 'proactive.self'), image: t(lang, 'proactive.image') })
    })
    // the group log context (lib/grouplog/context.ts) leaves out what the prompt already holds
    const shown = entries.flatMap((e) => (e.messageId ? [e.messageId] : []))
    const turn = this.answer(s, input, shown).finally(() => this.pending.delete(turn))
    this.pending.add(turn)
    return decision
  }

  /** Resolves when every proactive turn started so far has finished (tests, stop). */
  async idle (): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending])
  }

  private async answer (s: HostSession, input: string, shown: string[]): Promise<void> {
    const groupId = s.groupId as string
    const scope: ChatScope = {
      userId: PROACTIVE_USER,
      groupId,
      ...(s.groupName ? { groupName: s.groupName } : {}),
      botId: s.botId,
      ...(s.botName ? { botName: s.botName } : {}),
      isMaster: false,
      via: 'bot',
      conversationId: conversationIdOf(PROACTIVE_USER, groupId),
      ...(shown.length ? { messageIds: shown } : {})
    }
    try {
      // the caps are this turn's limit: no user's chat rate limit is spent on it
      await this.rt.need('conversations').pipeline.admitted(scope, input, {
        toolsEnabled: false,
        onAnswer: async (answer, media) => {
          const said = proactiveAnswer(answer)
          if (said) await sayUnasked(this.rt, s, said, media)
        }
      })
    } catch (err) {
      this.rt.log.warn('Proactive reply failed', { groupId, error: errorText(err) })
    }
  }
}
