// Chat: the catch-all handler. Decides with the trigger rules (lib/chat/trigger.ts) whether to answer,
// then answers through the chat pipeline. It runs after every finite priority (the hosts' built-ins:
// Miao's 添加 at 50000, the game plugins, every other plugin's commands), and command-looking messages
// are never chat unless the bot is called by the prefix, so TRSS's `#添加` (priority Infinity, where
// the order of ties is the import order) still gets its commands (README, "Bot commands").
import { AppError, errorText } from '../lib/core/errors.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { sessionOf } from '../lib/host/session.js'
import { decideTrigger } from '../lib/chat/trigger.js'
import { chatTurnOf } from '../lib/chat/scope.js'
import { takeBurst } from '../lib/chat/burst.js'
import { ToolListRefused } from '../lib/chat/service.js'
import { recordBotAnswer, recordGroupMessage } from '../lib/grouplog/record.js'
import type { TextKey } from '../lib/i18n.js'
import { hasReadableContent, placeholderText, readInput } from '../lib/input/index.js'
import { startDelivery } from '../lib/delivery/answer.js'
import { streamAnswer } from '../lib/delivery/stream.js'
import type { Media } from '../lib/delivery/media.js'
import { admitChat, moderateAnswer, moderateInput, mayReact, recordTurnTokens } from '../lib/governance/gate.js'
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
    // before the runtime is asked for: most messages stop here
    const pre = sessionOf(e)
    if (pre.self || !hasReadableContent(pre)) return false
    const ctx = await contextOf(e)
    const { rt, s, tr } = ctx
    const cfg = rt.config.get()
    const text = placeholderText(s, tr)
    recordGroupMessage(rt, s) // every group message, addressed or not (lib/grouplog)
    const decision = decideTrigger(cfg, { isGroup: s.isGroup, ...(s.groupId ? { groupId: s.groupId } : {}), atBot: s.atBot, text, commandPrefix: cfg.commandPrefix })
    // a user's messages close together are one turn (lib/chat/burst.ts): later pieces are done here
    const turn = await takeBurst(rt.need('conversations').bursts, cfg, s, text, decision)
    if (turn === 'merged') return true
    if (!turn) {
      // not for the bot (nor a piece of a burst): maybe it joins in on its own (lib/proactive)
      if (s.isGroup && mayReact(rt, s)) rt.optional('proactive')?.consider(s, e)
      return false
    }
    // who may use the bot and how much (lib/governance): refused before anything is read or asked
    const gate = await admitChat(rt, s)
    if (!gate) return true
    // what the model gets: quoted message, forwarded bundles, voice transcript, image captions (lib/input)
    const read = await readInput(ctx, e, turn)
    if ('handled' in read) return read.handled
    Object.assign(turn, read)
    const allowed = await moderateInput(rt, s, turn.text) // banned words: masked, or no answer
    if (allowed === undefined) return true
    turn.text = allowed
    let answered = false
    // lib/delivery: the thinking notice (timer from now), then the answer in the form QQ shows well;
    // streamed in pieces where delivery.stream says so (README "Streamed answers"), each piece moderated
    const delivery = startDelivery(rt, e, s, { emptyText: tr('chat.empty') })
    const streamed = streamAnswer(rt, delivery, { moderate: async (piece) => await moderateAnswer(rt, s, piece) })
    const onAnswer = async (answer: string, media?: Media[]): Promise<void> => {
      await streamed?.idle()
      // a withheld piece was told already (and nothing more goes out)
      const response = streamed?.withheld ? undefined : await moderateAnswer(rt, s, answer)
      if (response === undefined) { answered = true; await streamed?.cancel(); return }
      recordBotAnswer(rt, s, response)
      answered = true
      await (streamed ? streamed.finish(response, media) : delivery.answer(response, media))
    }
    try {
      const chat = rt.need('conversations').pipeline
      if (!chat) throw new AppError('CHANNEL_UNAVAILABLE', 'Chat is not available')
      const { scope, input } = chatTurnOf(s, cfg, turn)
      const result = await chat.reply(scope, input, { ...(turn.images.length ? { images: turn.images } : {}), ...(read.taint.length ? { taint: read.taint } : {}), ...(gate.tools ? {} : { toolsEnabled: false }), ...(streamed ? { onDelta: streamed.onDelta, onEvent: streamed.onEvent } : {}), onAnswer })
      recordTurnTokens(rt, s, result.usage)
    } catch (err) {
      delivery.stop()
      await streamed?.cancel()
      // after the answer (or a piece of it) went out, the user gets no second, error message
      if (answered || streamed?.spoke === true) rt.log.error('Chat turn answered but not completed', { userId: s.userId }, err)
      else await fail(ctx, err)
    } finally {
      delivery.stop()
    }
    return true
  }
}

async function fail ({ rt, s, say }: BotContext, err: unknown): Promise<void> {
  const code = err instanceof AppError ? err.code : undefined
  rt.log.warn('Chat reply failed', { userId: s.userId, code, error: errorText(err) })
  const key: TextKey = code === 'RATE_LIMITED' ? 'chat.rateLimited'
    : code === 'CHANNEL_UNAVAILABLE' ? 'chat.noChannel'
      : code === 'TIMEOUT' ? 'chat.timeout'
        : err instanceof ToolListRefused ? 'chat.toolsRefused'
          : code === 'MODEL_ERROR' ? 'chat.modelError' : 'error.generic'
  try {
    await say(key, {}, s.isGroup)
  } catch (sendErr) {
    rt.log.warn('Could not send the chat error reply', { error: errorText(sendErr) })
  }
}
