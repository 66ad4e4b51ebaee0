// Chat: the catch-all handler. A message for the bot goes through the named steps of a chat turn
// (lib/chat/steps.ts; lib/chat/README.md "The turn, step by step": group log, trigger, burst, admission,
// input, moderation, scope, rate limit, delivery, reply, accounting; join-in for messages not for the bot),
// each declared by its domain. It runs after every finite priority (the hosts' built-ins: Miao's 添加 at
// 50000, the game plugins, every other plugin's commands), and command-looking messages are never chat
// unless the bot is called by the prefix, so TRSS's `#添加` (priority Infinity, where the order of ties
// is the import order) still gets its commands (README, "Bot commands").
import { AppError, errorText } from '../lib/core/errors.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { sessionOf } from '../lib/host/session.js'
import { ToolListRefused } from '../lib/chat/service.js'
import { newTurn, runTurn } from '../lib/chat/steps.js'
import type { TextKey } from '../lib/i18n.js'
import { hasReadableContent, placeholderText } from '../lib/input/read.js'
import { contextOf, type BotContext } from './context.js'

/** Lower runs first in both hosts: the last finite priority (Infinity would tie with TRSS's 添加). */
const CHAT_PRIORITY = Number.MAX_SAFE_INTEGER

export class LingxiChat extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-chat',
      dsc: '灵犀对话',
      event: 'message',
      priority: CHAT_PRIORITY,
      rule: [{ reg: '^[\\s\\S]*$', fnc: 'chat', log: false }]
    })
  }

  async chat (e: HostEvent): Promise<boolean> {
    // before the runtime is asked for: most messages stop here (the view is kept for contextOf)
    const pre = sessionOf(e)
    if (pre.self || !hasReadableContent(pre)) return false
    const ctx = await contextOf(e)
    const { rt, s, tr } = ctx
    if (!rt.optional('conversations')) return false // chat did not start: the message is the other plugins'
    // a message without text stands in the turn as its placeholder (an image, a voice message, a bundle)
    const turn = newTurn('qq', placeholderText(s, tr), { host: { session: s, tr } })
    try {
      return await runTurn(rt.chat.steps, turn) === 'done'
    } catch (err) {
      if (turn.answered) rt.log.error('Chat turn answered but not completed', { userId: s.userId }, err)
      else await fail(ctx, err)
      return true
    }
  }
}

async function fail ({ rt, s, say }: BotContext, err: unknown): Promise<void> {
  const code = err instanceof AppError ? err.code : undefined
  rt.log.warn('Chat reply failed', { userId: s.userId, code, error: errorText(err) })
  const key: TextKey = code === 'RATE_LIMITED' ? 'chat.rateLimited'
    // "add a channel" only when there is none to use; a listed one that failed gets the true reply
    : code === 'CHANNEL_UNAVAILABLE' ? (rt.optional('channels')?.service.list().some((c) => c.enabled) ? 'chat.channelDown' : 'chat.noChannel')
      : code === 'TIMEOUT' ? 'chat.timeout'
        : err instanceof ToolListRefused ? 'chat.toolsRefused'
          : code === 'MODEL_ERROR' ? 'chat.modelError' : 'error.generic'
  try {
    await say(key, {}, s.isGroup)
  } catch (sendErr) {
    rt.log.warn('Could not send the chat error reply', { error: errorText(sendErr) })
  }
}
