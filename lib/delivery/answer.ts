// The delivery of one answer in a chat, from the moment the bot starts working on it: the thinking
// notice (when the model is slow), then the answer in the form the chat's delivery settings ask for
// (deliveryFor: a group's overrides over `delivery`). apps/chat.ts and apps/poke.ts create one per turn;
// a streamed answer (stream.ts) sends its pieces through it too.
import { join } from 'node:path'
import { deliveryFor } from '../config/group-settings.js'
import type { DeliverySettings } from '../config/schema.js'
import { errorText } from '../core/errors.js'
import { botNickname, renderImage, segment } from '../host/port.js'
import type { HostSession } from '../host/session.js'
import type { Seg } from '../host/types.js'
import { t } from '../i18n.js'
import type { Runtime } from '../runtime.js'
import type { Media } from './media.js'
import { planDelivery } from './plan.js'
import { sendPlan, type Outlet, type SendOptions } from './send.js'
import { ttsFor } from '../tts/voice.js'

export interface DeliveryOptions {
  /** sent when nothing is left of the answer (it held only reasoning); nothing is sent when absent */
  emptyText?: string
  /** false: never quote (a poke has no message to quote) */
  quote?: boolean
  /** false: no thinking notice for this answer */
  thinkingNotice?: boolean
}

// "why not as asked" is told once per runtime and reason, not for every answer
const warned = new WeakMap<Runtime, Set<string>>()
function warnOnce (rt: Runtime, reason: string, fields: Record<string, unknown>): void {
  let seen = warned.get(rt)
  if (!seen) warned.set(rt, (seen = new Set()))
  const key = `${reason}:${String(fields.reason ?? '')}`
  if (seen.has(key)) return
  seen.add(key)
  rt.log.warn(reason, fields)
}

let renders = 0

function outletOf (rt: Runtime, s: HostSession): Outlet {
  const seg = segment()
  const file = seg.file?.bind(seg)
  return {
    isGroup: s.isGroup,
    botId: s.botId,
    botName: s.botName || botNickname(s.botId) || 'Lingxi',
    // a guarded chat's pace (lib/guard) is kept by every send (lib/host/port.ts watchedSend)
    reply: (msg, quote, opts) => s.reply(msg, quote, opts),
    forward: (nodes) => s.chat.forward(nodes),
    render: async (text): Promise<Seg | { failed: string }> => {
      const data = {
        tplFile: join(rt.paths.pluginDir, 'lib', 'delivery', 'answer.html'),
        // a few page files in turn: answers rendered at the same time do not overwrite each other's page
        saveId: `answer-${renders++ % 8}`,
        text
      }
      const r = await renderImage('lingxi-plugin/answer', data)
      if ('image' in r) return r.image
      if (r.error !== undefined) rt.log.debug('Host renderer error', { error: errorText(r.error) })
      return { failed: r.failed === 'none' ? 'the host has no renderer' : 'the host renderer gave no image' }
    },
    image: (src) => seg.image(src),
    ...(file ? { file: (src: string, name?: string) => file(src, name) } : {})
  }
}

export class AnswerDelivery {
  private timer: NodeJS.Timeout | undefined
  /** the chat's delivery settings (a group's over the global ones) */
  readonly settings: DeliverySettings
  /** the thinking notice went out */
  noticeSent = false

  constructor (private readonly rt: Runtime, private readonly s: HostSession, private readonly opts: DeliveryOptions = {}) {
    const cfg = rt.config.get()
    this.settings = deliveryFor(cfg, s.groupId)
    const ms = this.settings.thinkingNoticeMs
    if (ms > 0 && opts.thinkingNotice !== false) {
      const text = this.settings.thinkingNoticeText.trim() || t(cfg.language, 'delivery.thinking')
      this.timer = rt.clock.setTimeout(() => { this.timer = undefined; void this.notice(text) }, ms)
    }
  }

  private async notice (text: string): Promise<void> {
    try {
      this.noticeSent = true
      await this.s.reply(text, this.quote())
    } catch (err) {
      this.rt.log.warn('Could not send the thinking notice', { error: errorText(err) })
    }
  }

  private quote (): boolean {
    return this.opts.quote !== false && this.settings.quote
  }

  /** The answer came (or the turn ended without one): no notice after this. */
  stop (): void {
    if (this.timer) this.rt.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  /** The settings in effect now: under account risk (lib/guard) long answers go as forwards and never
   * sentence by sentence. */
  private effective (): DeliverySettings {
    return this.rt.optional('guard')?.deliveryUnderRisk(this.settings, this.s.groupId) ?? this.settings
  }

  /** Whether the chat is guarded now (lib/guard: deliveryUnderRisk gives the settings themselves when not). */
  guarded (): boolean {
    return this.effective() !== this.settings
  }

  /**
   * Whether this answer may be streamed (README "Streamed answers"): delivery.stream `on`, or `private` in
   * a private chat; never in a guarded chat (several messages in a row are what risk control watches), nor
   * with tts.mode always (the answer may go out as a voice record).
   */
  streams (): boolean {
    const mode = this.settings.stream
    if (mode === 'off' || (mode === 'private' && this.s.isGroup)) return false
    const tts = ttsFor(this.rt.config.get(), this.s.groupId)
    if (this.rt.optional('tts') && tts.mode === 'always' && tts.baseUrl) return false
    return !this.guarded()
  }

  /** One piece of a streamed answer as one message: markdown per the settings, images found in it as
   * segments; `first`: with the quote / @ of the answer. False when nothing was left to send. */
  async piece (text: string, first: boolean): Promise<boolean> {
    this.stop()
    const d = this.effective()
    const plan = planDelivery(text, { ...d, longAnswer: 'off', splitSentences: false })
    if (!plan.text && !plan.media.length) return false
    await sendPlan(outletOf(this.rt, this.s), plan, this.sendOptions(d, first))
    return true
  }

  /** The rest of a streamed answer after its pieces, as one message without quote or @; as a long
   * answer (delivery.longAnswer: forward or image) when the streamed text passed longAnswerChars. */
  async rest (text: string, media: readonly Media[], streamedChars: number): Promise<void> {
    this.stop()
    const d = this.effective()
    const long = d.longAnswer !== 'off' && streamedChars > d.longAnswerChars
    const plan = planDelivery(text, { ...d, longAnswerChars: long ? 0 : Number.MAX_SAFE_INTEGER, splitSentences: false }, media)
    if (!plan.text && !plan.media.length) return
    await sendPlan(outletOf(this.rt, this.s), plan, this.sendOptions(d, false))
  }

  private sendOptions (d: DeliverySettings, first: boolean): SendOptions {
    return {
      quote: first && this.quote(),
      atSender: first && d.atSender,
      sentenceDelayMs: d.sentenceDelayMs,
      clock: this.rt.clock,
      warn: (reason, fields) => warnOnce(this.rt, reason, fields)
    }
  }

  /** A short text of the bot's own while it works (a tool round's preface), sent like the thinking notice. */
  async aside (text: string): Promise<void> {
    this.stop()
    this.noticeSent = true
    await this.s.reply(text, this.quote())
  }

  /** Sends the model's answer and the media its tools returned. */
  async answer (response: string, media: readonly Media[] = []): Promise<void> {
    this.stop()
    const d = this.effective()
    let plan = planDelivery(response, d, media)
    if (!plan.text && !plan.media.length) {
      if (this.opts.emptyText) await this.s.reply(this.opts.emptyText, this.quote())
      return
    }
    // lib/tts: with tts.mode always a short answer goes out as a voice record (text when speech fails)
    if (plan.text && await this.rt.optional('tts')?.speakAnswer(this.s, plan.text)) {
      if (!plan.media.length) return
      plan = { mode: 'single', text: '', parts: [], media: plan.media }
    }
    await sendPlan(outletOf(this.rt, this.s), plan, this.sendOptions(d, true))
  }
}

/** Starts the delivery of an answer in the chat of `e` (its thinking notice timer runs from now). */
export function startDelivery (rt: Runtime, s: HostSession, opts?: DeliveryOptions): AnswerDelivery {
  return new AnswerDelivery(rt, s, opts)
}
