// The small calls the chat path makes (apps/chat.ts, apps/draw.ts, apps/game.ts, event reactions and
// proactive replies): each asks the governance service and sends its refusal text when there is one.
// Without the service (a trimmed start-up) everything passes.
import { errorText } from '../core/errors.js'
import type { HostSession } from '../host/session.js'
import type { Runtime } from '../runtime.js'
import type { Refusal } from './service.js'
import type { Feature } from './schema.js'

async function tell (rt: Runtime, s: HostSession, r: Refusal): Promise<void> {
  if (r.reply === undefined) return
  try {
    await s.reply(r.reply, s.isGroup)
  } catch (err) {
    rt.log.warn('Could not send a refusal', { userId: s.userId, error: errorText(err) })
  }
}

/**
 * Before a chat turn: access and quotas (the message is counted). False when refused (the user got
 * the refusal text or silence); else whether the user may use tools in this turn.
 */
export async function admitChat (rt: Runtime, s: HostSession): Promise<false | { tools: boolean }> {
  const gov = rt.optional('governance')
  if (!gov) return { tools: true }
  const a = await gov.admit(s, 'chat')
  if (!a.ok) {
    rt.log.debug('Chat message refused', { userId: s.userId, groupId: s.groupId, reason: a.reason })
    await tell(rt, s, a)
    return false
  }
  return { tools: gov.access(s, 'tools').ok }
}

/** Access to a feature (drawing, game): false when refused (refusal text or silence sent). */
export async function admitFeature (rt: Runtime, s: HostSession, feature: Feature): Promise<boolean> {
  const a = await rt.optional('governance')?.admit(s, feature)
  if (!a || a.ok) return true
  await tell(rt, s, a)
  return false
}

/** Whether the bot may speak on its own here (proactive replies, event reactions): the group and the user are not refused. */
export function mayReact (rt: Runtime, s: HostSession): boolean {
  const gov = rt.optional('governance')
  if (!gov) return true
  return s.userId ? gov.access(s, 'chat').ok : gov.groupAllowed(s.groupId)
}

/** The user's message before the model gets it: the text to send on (maybe masked), or undefined when refused (notice sent). */
export async function moderateInput (rt: Runtime, s: HostSession, text: string): Promise<string | undefined> {
  const gov = rt.optional('governance')
  if (!gov) return text
  const m = await gov.moderate(s, text, 'input')
  if (m.ok) return m.text
  await tell(rt, s, m)
  return undefined
}

/**
 * The model's answer before it goes out: the text to deliver (maybe masked), or undefined when it
 * must not be sent (the refusal notice goes instead, unless `quiet`: proactive lines and event
 * remarks nobody asked for are just dropped).
 */
export async function moderateAnswer (rt: Runtime, s: Pick<HostSession, 'userId' | 'groupId' | 'isGroup' | 'reply'>, text: string, quiet = false): Promise<string | undefined> {
  const gov = rt.optional('governance')
  if (!gov) return text
  const m = await gov.moderate(s, text, 'output')
  if (m.ok) return m.text
  if (!quiet && m.reply !== undefined) {
    try { await s.reply(m.reply, s.isGroup) } catch (err) { rt.log.warn('Could not send a refusal', { userId: s.userId, error: errorText(err) }) }
  }
  return undefined
}

/** After a chat turn: the tokens it used count against the quotas. */
export function recordTurnTokens (rt: Runtime, s: HostSession, usage: { totalTokens: number } | undefined): void {
  // not awaited: the answer is out already; Redis trouble falls back inside (lib/governance/quota.ts)
  if (usage) void rt.optional('governance')?.recordTokens(s, usage.totalTokens)
}
