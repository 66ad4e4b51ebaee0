// What the model gets of a QQ message (the input step, step.ts): the user's text, then the quoted message,
// forwarded bundles and a voice message's transcript, read through the chat handle of the host port
// (lib/host/session.ts); images go to the model as they are, or as descriptions when the chat channel
// cannot see (caption.ts). Runs only once the trigger rules said the bot answers, so ordinary chatter
// costs nothing beyond the segment scan of `hasReadableContent`.
import { errorText } from '../core/errors.js'
import type { HostSession } from '../host/session.js'
import type { Seg } from '../host/types.js'
import type { TaintSource } from '../chat/contracts.js'
import type { TextKey } from '../i18n.js'
import { captionImages, chatChannelSees } from './caption.js'
import type { InputContext } from './context.js'
import { forwardBlock, hasBundle } from './forward.js'
import { admitCostlyRead } from './limit.js'
import { quotedLine } from './quoted.js'
import { flat, type Labels } from './segments.js'
import { transcribe } from './transcribe.js'
import { outboundAccess } from '../web/outbound.js'

/** Images given to the model in one turn (the message's own first, then quoted and forwarded ones). */
const MAX_IMAGES = 6

/** What the model gets: the user turn's text and image sources; or the event was handled (or passed on) here. */
type ReadInput = { text: string; images: string[]; taint: TaintSource[] } | { handled: boolean }

const voiceOf = (s: Pick<HostSession, 'segments'>): Seg | undefined => s.segments.find((m) => m.type === 'record')

/** Whether a message holds anything the bot could read: text, images, a voice message or a forwarded bundle. */
export function hasReadableContent (s: Pick<HostSession, 'text' | 'images' | 'segments'>): boolean {
  return s.text.trim() !== '' || s.images.length > 0 || s.segments.some((m) => m.type === 'record' || m.type === 'forward' || m.type === 'node')
}

/** The text the trigger rules see for a message without text (an image, a voice message, a bundle). */
export function placeholderText (s: Pick<HostSession, 'text' | 'images' | 'segments'>, tr: (key: TextKey) => string): string {
  if (s.text) return s.text
  if (s.images.length) return tr('chat.imageOnly')
  if (voiceOf(s)) return tr('input.voice')
  return hasBundle(s.segments) ? tr('input.forward') : ''
}

/**
 * The user turn for the turn the trigger rules and the burst step left (`turn.text`: the prefix
 * removed; for a message without text, its placeholder first). A voice message that cannot be read is
 * passed on when transcription is off, and answered with a short notice when transcription failed.
 */
export async function readInput (ctx: InputContext, turn: { text: string; images: string[] }): Promise<ReadInput> {
  const { rt, s, tr } = ctx
  const cfg = rt.config.get().input
  const labels: Labels = { image: tr('chat.imageOnly'), voice: tr('input.voice'), forward: tr('input.forward') }
  const segs = s.segments.map(flat).filter((x): x is Seg => x !== undefined)
  const images = turn.images.slice(0, MAX_IMAGES)
  // a message without text stands in the turn as its placeholder: that is not the user's text
  const placeholder = s.text.trim() ? '' : placeholderText(s, tr)
  let own = placeholder && turn.text.startsWith(placeholder) ? turn.text.slice(placeholder.length).trim() : turn.text

  const voice = segs.find((m) => m.type === 'record')
  const hear = voice !== undefined && !s.text.trim() && cfg.transcription.baseUrl !== ''
  let sees: boolean | undefined
  const canSee = async (): Promise<boolean> => (sees ??= await chatChannelSees(ctx))
  const describe = images.length > 0 && !await canSee()
  if ((hear || describe) && !admitCostlyRead(rt, s.userId)) {
    await s.reply(tr('chat.rateLimited'), s.isGroup)
    return { handled: true }
  }
  if (voice && hear) {
    let heard = ''
    try {
      heard = await transcribe(cfg.transcription, voice, outboundAccess(rt.config.get()))
    } catch (err) {
      rt.log.warn('Voice message not transcribed', { userId: s.userId, error: errorText(err) })
    }
    if (!heard) {
      await s.reply(tr('input.voiceFailed'), s.isGroup)
      return { handled: true }
    }
    own = [heard, own].filter((p) => p !== '').join('\n')
  }

  const quote = cfg.quoted && s.chat.quotes ? await quotedLine(ctx, labels, images, MAX_IMAGES) : { line: '', byAsker: true }
  const quoted = quote.line
  const forwarded = await forwardBlock(ctx, segs, cfg.forwardMaxMessages, labels, images, MAX_IMAGES)
  // words the asker did not write: the approval policy asks them to confirm what a tool would do with them
  const taint: TaintSource[] = []
  if (quoted && !quote.byAsker) taint.push('quoted')
  if (forwarded) taint.push('forwarded')
  let captions: string[] = []
  let given = images
  // images of the quoted message or a bundle are described too
  if (images.length && !await canSee()) {
    captions = await captionImages(ctx, images)
    given = []
  }
  const body = [quoted, forwarded, own, ...captions].filter((p) => p !== '').join('\n')
  if (body) return { text: body, images: given, taint }
  // nothing but the placeholder: its images alone, else nothing could be read (a voice message while
  // transcription is off): passed on, the model is not asked
  return given.length ? { text: labels.image, images: given, taint } : { handled: false }
}
