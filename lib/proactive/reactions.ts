// Reactions to group events (apps/join.ts, apps/recall.ts): with the event type's probability
// (eventProbabilityFor: groups.<id>.events, tools.eventProbabilities, tools.eventProbability), the
// event is described to the chat pipeline as a short input in the user's conversation and the answer
// goes to the chat. Never for the bot's own actions; a failure is only logged (no error message).
import { errorText } from '../core/errors.js'
import { chatScopeOf } from '../chat/scope.js'
import { eventProbabilityFor, groupEntry, type EventKind } from '../config/group-settings.js'
import { recordBotAnswer } from '../grouplog/record.js'
import type { HostSession } from '../host/session.js'
import { startDelivery } from '../delivery/answer.js'
import { stripReasoning } from '../chat/reasoning.js'
import type { Runtime } from '../runtime.js'
import { mayReact, moderateAnswer } from '../governance/gate.js'

export interface Reaction {
  kind: EventKind
  /** what the model is told happened, e.g. "(name recalled a message)" */
  input: string
  /** text that must never reach the chat (a recalled message's content): an answer holding it is dropped */
  secret?: string
  /** group log messages the model must not be shown (the recalled one) */
  hide?: string[]
}

/** Whether to react to this event here: not the bot's own doing, group on, and the probability drawn. */
export function shouldReact (rt: Runtime, s: HostSession, kind: EventKind, random: () => number = Math.random): boolean {
  if (s.self || (s.operatorId !== undefined && s.operatorId === s.botId)) return false
  const cfg = rt.config.get()
  if (s.groupId && groupEntry(cfg, s.groupId)?.enabled === false) return false
  if (!mayReact(rt, s)) return false // access lists (lib/governance)
  // random() is in [0, 1): probability 1 always reacts and 0 never
  return random() < eventProbabilityFor(cfg, kind, s.groupId)
}

/** Answers the event through the chat pipeline; true when an answer was sent. Never throws. */
export async function react (rt: Runtime, s: HostSession, r: Reaction): Promise<boolean> {
  try {
    let sent = false
    // the group's shared conversation when it has one; the group log context leaves `hide` out
    const scope = { ...chatScopeOf(s, rt.config.get()), ...(r.hide?.length ? { messageIds: r.hide } : {}) }
    await rt.need('conversations').pipeline.reply(scope, r.input, {
      toolsEnabled: false,
      onAnswer: async (answer, media) => {
        const said = stripReasoning(answer).trim()
        if (!said && !media?.length) return
        const text = said ? await moderateAnswer(rt, s, said, true) : said // banned words: masked, or dropped
        if (text === undefined) return
        if (r.secret && leaks(text, r.secret)) {
          rt.log.warn('A reaction repeated a recalled message; not sent', { kind: r.kind, userId: s.userId })
          return
        }
        recordBotAnswer(rt, s, text)
        // as chat answers go out (lib/delivery); a notice has no message to quote
        await startDelivery(rt, s, { quote: false, thinkingNotice: false }).answer(text, media)
        sent = true
      }
    })
    return sent
  } catch (err) {
    rt.log.warn('No reaction to an event', { kind: r.kind, userId: s.userId, error: errorText(err) })
    return false
  }
}

/** The text of a recalled group message, when the group log kept it (only to keep it out of answers). */
export function recalledText (rt: Runtime, s: HostSession): string | undefined {
  if (!s.groupId || !s.recalledId) return undefined
  const entry = rt.optional('groupLog')?.recent(s.groupId, rt.config.get().groupLog.maxMessages).find((e) => e.messageId === s.recalledId)
  return entry?.text.trim() || undefined
}

/** The answer holds the secret (4 characters or more), or for a longer one a good part of it. */
function leaks (answer: string, secret: string): boolean {
  const a = answer.replace(/\s+/g, '')
  const x = secret.replace(/\s+/g, '')
  // a very short message ("ok", "好的") cannot be told apart from an ordinary word of a remark
  if (x.length < 4) return false
  if (a.includes(x)) return true
  if (x.length < 8) return false
  // any 8-character piece of a long secret counts: a model quoting part of it still repeats it
  for (let i = 0; i + 8 <= x.length; i++) if (a.includes(x.slice(i, i + 8))) return true
  return false
}
