// `#lx语音 <text>` (`#lx say <text>`): the bot says the text as a voice message (lib/tts: the chat's
// voice, the preset's voice fields). Works while tts.mode is request or always; when the speech fails
// the text goes out as text. Counts against the user's chat rate limit (speech costs money).
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { admitCostlyRead } from '../lib/input/limit.js'
import { SpeechWithheld } from '../lib/tts/service.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

const MAX_CHARS = 500

export class LingxiTts extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-tts',
      dsc: '灵犀语音',
      event: 'message',
      priority: 50,
      // `#lx语音你好` needs no space (Chinese), `#lx say hello` does
      rule: [{ reg: commandPattern('(语音[\\s\\S]*|say(\\s+[\\s\\S]*)?)'), fnc: 'speak' }]
    })
  }

  async speak (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const head = commandPattern('(语音|say)', '').exec(s.text.trim())
    const text = s.text.trim().slice(head?.[0].length ?? 0).trim()
    if (!text) { await say('tts.usage', {}, true); return true }
    const tts = rt.optional('tts')
    if (!tts?.available(s.groupId)) { await say('tts.off', {}, true); return true }
    if (!admitCostlyRead(rt, s.userId)) { await say('chat.rateLimited', {}, true); return true }
    try {
      await s.reply(await tts.record(s, text.slice(0, MAX_CHARS)))
    } catch (err) {
      if (err instanceof SpeechWithheld) return true // the output moderation withheld it (and logged the hit once)
      tts.failed(err)
      await s.reply(text.slice(0, MAX_CHARS))
    }
    return true
  }
}
