// The tts service: speaks a text in a chat's voice (voice.ts) through the speech endpoint (speech.ts)
// and makes it a QQ voice record. Used by lib/delivery (an answer spoken when tts.mode is always and it
// is short), the speak tool (lib/tools/builtin/speak.ts) and the voice command (apps/tts.ts).
import { AppError, errorText } from '../core/errors.js'
import { segment } from '../host/port.js'
import type { HostSegments, Seg, Sendable } from '../host/types.js'
import type { Runtime } from '../runtime.js'
import { synthesize } from './speech.js'
import { ttsFor, voiceFor, type SpeakScope } from './voice.js'

/** The chat an answer goes to (lib/host/session.ts HostSession has these). */
export interface SpeakTarget extends SpeakScope {
  reply(msg: Sendable): Promise<unknown>
}

/** A voice record of the host: its own segment.record where it has one (Miao, TRSS), else the plain
 * OneBot shape. The audio goes as base64:// (both hosts' protocol layers take it). */
function recordSegment (audio: Buffer): Seg {
  const file = `base64://${audio.toString('base64')}`
  const seg = segment() as HostSegments & { record?: (file: string) => Seg }
  return typeof seg.record === 'function' ? seg.record(file) : { type: 'record', file }
}

export class TtsService {
  /** failure reasons already logged as warnings (later ones go to debug): "logged once" */
  private readonly warned = new Set<string>()

  constructor (private readonly rt: Runtime) {}

  /** Speech can be asked for in this chat (mode not off and an endpoint set). */
  available (groupId?: string): boolean {
    const t = ttsFor(this.rt.config.get(), groupId)
    return t.mode !== 'off' && t.baseUrl !== ''
  }

  /** The text spoken in the chat's voice, as a record segment. Throws an AppError when it cannot. */
  async record (scope: SpeakScope, text: string): Promise<Seg> {
    const settings = ttsFor(this.rt.config.get(), scope.groupId)
    if (settings.mode === 'off') throw new AppError('SERVICE_UNAVAILABLE', 'Text to speech is off (tts.mode)')
    const audio = await synthesize(settings, text, voiceFor(this.rt, settings, scope), this.rt.clock)
    return recordSegment(audio)
  }

  /**
   * lib/delivery's hook: with tts.mode `always`, an answer of at most maxChars characters goes out as
   * a voice record. True when it was sent; false leaves the answer to be sent as text (a failed
   * synthesis too: logged, as a warning once per reason).
   */
  async speakAnswer (target: SpeakTarget, text: string): Promise<boolean> {
    const settings = ttsFor(this.rt.config.get(), target.groupId)
    if (settings.mode !== 'always' || !settings.baseUrl || !text.trim() || [...text.trim()].length > settings.maxChars) return false
    let seg: Seg
    try {
      seg = await this.record(target, text)
    } catch (err) {
      this.failed(err)
      return false
    }
    await target.reply(seg)
    return true
  }

  /** Logs a failed synthesis: a warning the first time for each reason, then at debug level. */
  failed (err: unknown): void {
    const code = err instanceof AppError ? err.code : 'ERROR'
    const fields = { code, error: errorText(err) }
    if (this.warned.has(code)) { this.rt.log.debug('Speech failed; sent as text', fields); return }
    this.warned.add(code)
    this.rt.log.warn('Speech failed; the answer is sent as text (told once per reason)', fields)
  }
}
