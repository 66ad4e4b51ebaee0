// Chat: the catch-all handler. Decides with the trigger rules (spec 2.7) whether to answer, then
// answers through the chat pipeline. It runs after every finite priority (the hosts' built-ins: Miao's
// 添加 at 50000, the game plugins, every other plugin's commands), and command-looking messages are
// never chat unless the bot is called by the prefix, so TRSS's `#添加` (priority Infinity, where
// the order of ties is the import order) still gets its commands (README, "Bot commands").
import { AppError } from '../lib/core/errors.js'
import { ensureStarted } from '../lib/lifecycle.js'
import { isSelfMessage, pluginBase, type HostEvent } from '../lib/host/port.js'
import { decideTrigger } from '../lib/chat/trigger.js'
import { conversationIdOf } from '../lib/chat/store.js'
import type { ChatScope } from '../lib/chat/contracts.js'
import type { Runtime } from '../lib/runtime.js'
import { t, type TextKey } from '../lib/i18n.js'

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
    if (isSelfMessage(e)) return false
    const text = e.msg ?? ''
    const images = e.img ?? []
    if (!text.trim() && !images.length) return false
    const { rt } = await ensureStarted()
    const isGroup = e.isGroup === true || e.message_type === 'group' || e.group_id !== undefined
    const groupId = isGroup && e.group_id !== undefined ? String(e.group_id) : undefined
    const atBot = e.atBot === true || e.hasAlias === true || (e.at !== undefined && String(e.at) === String(e.self_id))
    const cfg = rt.config.get()
    const decision = decideTrigger(cfg, { isGroup, ...(groupId ? { groupId } : {}), atBot, text: text || (images.length ? '[图片]' : ''), commandPrefix: cfg.commandPrefix })
    if (!decision.triggered) return false
    const scope = scopeOf(e, groupId)
    let answered = false
    const onAnswer = async (response: string): Promise<void> => {
      answered = true
      await e.reply(response.trim() || t(rt.config.get().language, 'chat.empty'), isGroup)
    }
    try {
      const chat = rt.chat.chat
      if (!chat) throw new AppError('CHANNEL_UNAVAILABLE', 'Chat is not available')
      await chat.reply(scope, decision.text, { ...(images.length ? { images } : {}), onAnswer })
    } catch (err) {
      // after the answer went out (the turn could not be saved) the user gets no second, error message
      if (answered) rt.log.error('Chat turn answered but not completed', { userId: String(e.user_id) }, err)
      else await this.fail(rt, e, err, isGroup)
    }
    return true
  }

  private async fail (rt: Runtime, e: HostEvent, err: unknown, quote: boolean): Promise<void> {
    const code = err instanceof AppError ? err.code : undefined
    rt.log.warn('Chat reply failed', { userId: String(e.user_id), code, error: err instanceof Error ? err.message : String(err) })
    const key: TextKey = code === 'RATE_LIMITED' ? 'chat.rateLimited'
      : code === 'CHANNEL_UNAVAILABLE' ? 'chat.noChannel'
        : code === 'TIMEOUT' ? 'chat.timeout'
          : code === 'MODEL_ERROR' ? 'chat.modelError' : 'error.generic'
    try {
      await e.reply(t(rt.config.get().language, key), quote)
    } catch (sendErr) {
      rt.log.warn('Could not send the chat error reply', { error: sendErr instanceof Error ? sendErr.message : String(sendErr) })
    }
  }
}

/** The chat scope of an event's sender (also used for notices, whose sender may be missing). */
export function scopeOf (e: HostEvent, groupId: string | undefined): ChatScope {
  const userId = String(e.user_id)
  const nickname = e.sender?.card || e.sender?.nickname
  const botName = e.bot?.nickname
  return {
    userId,
    ...(groupId ? { groupId } : {}),
    ...(nickname ? { nickname } : {}),
    ...(e.group_name ? { groupName: e.group_name } : {}),
    botId: String(e.self_id),
    ...(botName ? { botName } : {}),
    isMaster: e.isMaster === true,
    via: 'bot',
    conversationId: conversationIdOf(userId, groupId)
  }
}
