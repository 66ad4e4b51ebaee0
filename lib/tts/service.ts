// The tts service: speaks a text in a chat's voice (voice.ts) through the speech endpoint (speech.ts)
// and makes it a QQ voice record. Used by lib/delivery (an answer spoken when tts.mode is always and it
// is short), the speak tool (lib/tools/builtin/speak.ts) and the voice command (apps/tts.ts).
// The text passes the output moderation before it is synthesised: a voice record is media, which the
// outbound gate (lib/governance/outbound.ts) lets through unread.
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

/** The text was withheld by the output moderation: nothing is synthesised, nothing should be sent. */
export class SpeechWithheld extends AppError {
  constructor () { super('FORBIDDEN', 'The text was withheld by moderation; nothing was spoken') }
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

  /**
   * The text spoken in the chat's voice, as a record segment: the text as the output moderation lets
   * it out (the gate's own check, `gateText`: masked parts are spoken as masked). Throws SpeechWithheld
   * when it is withheld, an AppError when it cannot be spoken.
   */
  async record (scope: SpeakScope, text: string): Promise<Seg> {
    const settings = ttsFor(this.rt.config.get(), scope.groupId)
    if (settings.mode === 'off') throw new AppError('SERVICE_UNAVAILABLE', 'Text to speech is off (tts.mode)')
    const gov = this.rt.optional('governance')
    const said = gov ? gov.gateText({ userId: scope.userId, groupId: scope.groupId }, text) : text
    if (said === undefined) throw new SpeechWithheld()
    const audio = await synthesize(settings, said, voiceFor(this.rt, settings, scope), this.rt.clock)
    return recordSegment(audio)
  }

  /**
   * lib/delivery's hook: with tts.mode `always`, an answer of at most maxChars characters goes out as
   * a voice record. True when it was sent (or withheld by moderation: then nothing is said, the text
   * would be withheld too); false leaves the answer to be sent as text (a failed synthesis too: logged,
   * as a warning once per reason).
   */
  async speakAnswer (target: SpeakTarget, text: string): Promise<boolean> {
    const settings = ttsFor(this.rt.config.get(), target.groupId)
    if (settings.mode !== 'always' || !settings.baseUrl || !text.trim() || [...text.trim()].length > settings.maxChars) return false
    let seg: Seg
    try {
      seg = await this.record(target, text)
    } catch (err) {
      if (err instanceof SpeechWithheld) return true
      this.failed(err)
      return false
    }
    await target.reply(seg)
    return true
  }

  /** Logs a failed synthesis: a warning the first time for each reason, then at debug level. */
  failed (err: unknown): void {
    // withheld is no failure: the moderation logged it
    if (err instanceof SpeechWithheld) return
    const code = err instanceof AppError ? err.code : 'ERROR'
    const fields = { code, error: errorText(err) }
    if (this.warned.has(code)) { this.rt.log.debug('Speech failed; sent as text', fields); return }
    this.warned.add(code)
    this.rt.log.warn('Speech failed; the answer is sent as text (told once per reason)', fields)
  }
}
