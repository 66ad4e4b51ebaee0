// What the chat handler (apps/chat.ts) logs: every group message before the trigger decision (also
// those not addressed to the bot; other plugins' commands are noise and left out) and the bot's
// answers. Synchronous: nothing on the path of ordinary chatter waits for the disk.
import { stripReasoning } from '../chat/reasoning.js'
import { looksLikeCommand } from '../chat/trigger.js'
import type { HostSession } from '../host/session.js'
import type { Runtime } from '../runtime.js'

/** Logs a message seen in a group (not the bot's own, not a command unless the bot is called by the prefix). */
export function recordGroupMessage (rt: Runtime, s: HostSession): void {
  if (!s.groupId || s.self || s.kind !== 'message') return
  const log = rt.optional('groupLog')
  if (!log) return
  const cfg = rt.config.get()
  const text = s.text.trim()
  if (!text && !s.images.length) return
  const prefix = cfg.trigger.prefix.trim()
  if (looksLikeCommand(text, cfg.commandPrefix) && !(prefix && text.startsWith(prefix))) return
  log.record(s.groupId, {
    at: rt.clock.now(),
    userId: s.userId,
    ...(s.nickname ? { nickname: s.nickname } : {}),
    text,
    ...(s.images.length ? { images: s.images.length } : {}),
    ...(s.messageId ? { messageId: s.messageId } : {})
  })
}

/** Logs the bot's answer in a group (its reasoning never). */
export function recordBotAnswer (rt: Runtime, s: HostSession, answer: string): void {
  if (!s.groupId) return
  const text = stripReasoning(answer).trim()
  if (!text) return
  rt.optional('groupLog')?.record(s.groupId, {
    at: rt.clock.now(),
    userId: s.botId,
    ...(s.botName ? { nickname: s.botName } : {}),
    text,
    fromBot: true
  })
}
