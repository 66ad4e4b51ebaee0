// Category `media`: speak, a voice message in the current QQ chat (lib/tts: the speech endpoint, the
// chat's voice and the preset's voice fields). For when the user asks to hear the bot; while text to
// speech is off here (tts.mode off, no endpoint) it answers so. Medium risk: speech costs money.
import { errorText } from '../../core/errors.js'
import { sendGroup, sendPrivate } from '../../host/port.js'
import type { Runtime } from '../../runtime.js'
import { SpeechWithheld } from '../../tts/service.js'
import { inQqChat, str, text, type BuiltinTool } from './util.js'

/** Longest text one voice message speaks (a minute or so of speech). */
const MAX_CHARS = 500

export function speakTool (rt: Runtime): BuiltinTool {
  return {
    name: 'speak',
    description: '用语音消息把一段话说给当前会话听（用户想听你说话、要语音回复时使用）(send a voice message saying the text in the current chat, when the user wants to hear you)',
    category: 'media',
    risk: 'medium',
    dangerous: false,
    offeredIn: inQqChat,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: `what to say, plain spoken words (at most ${MAX_CHARS} characters)` } },
      required: ['text']
    },
    execute: async (args, ctx) => {
      const body = str(args.text)
      if (!body) return text('text is required', true)
      if (!inQqChat(ctx.scope)) return text('Only available in a QQ chat', true)
      const tts = rt.optional('tts')
      const scope = { userId: ctx.scope.userId, ...(ctx.scope.groupId ? { groupId: ctx.scope.groupId } : {}) }
      if (!tts?.available(scope.groupId)) return text('Voice messages are turned off here (tts)', true)
      let record
      try {
        record = await tts.record(scope, body.slice(0, MAX_CHARS))
      } catch (err) {
        // the output moderation withheld the text (lib/tts checks it before synthesis)
        if (err instanceof SpeechWithheld) return text('The text was withheld by moderation; nothing was sent. Do not repeat it', true)
        tts.failed(err)
        return text(`The voice message could not be made (${errorText(err)}); answer in text instead`, true)
      }
      const r = scope.groupId ? await sendGroup(scope.groupId, record, ctx.scope.botId) : await sendPrivate(scope.userId, record, ctx.scope.botId)
      if (!r || r.error) return text('The voice message could not be sent', true)
      return text('The voice message was sent; do not repeat its words in your answer')
    }
  }
}
