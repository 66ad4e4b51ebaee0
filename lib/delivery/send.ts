// Sends a planned answer (plan.ts) into the chat through an Outlet: the chat's reply, the host's
// forward messages, renderer and segments. Kept apart from the host so the order of sends, the pauses
// and the fallbacks are one piece of code for every host.
import type { Clock } from '../core/clock.js'
import type { ForwardNode, ReplyOpts, Seg, Sendable } from '../host/types.js'
import type { Media } from './media.js'
import type { DeliveryPlan } from './plan.js'
import { sentenceDelay } from './split.js'

export interface Outlet {
  isGroup: boolean
  /** the bot as the forward nodes show it */
  botId: string
  botName: string
  reply(msg: Sendable, quote?: boolean, opts?: ReplyOpts): Promise<unknown>
  forward(nodes: ForwardNode[]): Promise<Sendable | undefined>
  /** an image of the text, or why there is none */
  render(text: string): Promise<Seg | { failed: string }>
  image(src: string): Seg
  /** absent where the host has no file segment (Miao): files then go as their links */
  file?: (src: string, name?: string) => Seg
}

export interface SendOptions {
  quote: boolean
  atSender: boolean
  sentenceDelayMs: number
  clock: Pick<Clock, 'setTimeout'>
  /** told once per reason why an answer did not go out in the form asked for */
  warn(reason: string, fields: Record<string, unknown>): void
}

const sleep = (clock: SendOptions['clock'], ms: number): Promise<void> =>
  ms > 0 ? new Promise((resolve) => { clock.setTimeout(resolve, ms) }) : Promise.resolve()

function mediaSegments (out: Outlet, media: readonly Media[]): { images: Seg[]; files: Seg[]; fileLines: string[] } {
  const images: Seg[] = []
  const files: Seg[] = []
  const fileLines: string[] = []
  for (const m of media) {
    if (m.kind === 'image') images.push(out.image(m.src))
    else if (out.file) files.push(out.file(m.src, m.name))
    else fileLines.push(m.name && m.name !== m.src ? `${m.name} (${m.src})` : m.src)
  }
  return { images, files, fileLines }
}

const withImages = (text: string, images: Seg[]): Sendable => (images.length ? (text ? [text, ...images] : images) : text)

export async function sendPlan (out: Outlet, plan: DeliveryPlan, o: SendOptions): Promise<void> {
  const quote = o.quote && out.isGroup
  const opts: ReplyOpts = o.atSender && out.isGroup ? { at: true } : {}
  const { images, files, fileLines } = mediaSegments(out, plan.media)
  const text = fileLines.length ? [plan.text, ...fileLines].filter(Boolean).join('\n') : plan.text

  if (plan.mode === 'image') {
    const shot = await out.render(text)
    if ('type' in shot) {
      await out.reply([shot, ...images], quote, opts)
      for (const f of files) await out.reply(f)
      return
    }
    o.warn('The answer could not be rendered as an image; sent as a forward message', { reason: shot.failed })
  }

  if (plan.mode === 'forward' || plan.mode === 'image') {
    const parts = fileLines.length ? [...plan.parts, fileLines.join('\n')] : plan.parts
    const nodes: ForwardNode[] = parts.map((p) => ({ message: p, nickname: out.botName, user_id: out.botId }))
    if (images.length) nodes.push({ message: images, nickname: out.botName, user_id: out.botId })
    const fwd = await out.forward(nodes)
    if (fwd !== undefined) {
      // neither quote nor @ on a forward: TRSS would send them as a message of their own
      await out.reply(fwd)
    } else {
      o.warn('The host has no forward messages; the long answer was sent as it is', {})
      await out.reply(withImages(text, images), quote, opts)
    }
  } else if (plan.mode === 'sentences') {
    const parts = fileLines.length ? [...plan.parts, fileLines.join('\n')] : plan.parts
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string
      await sleep(o.clock, sentenceDelay(part, o.sentenceDelayMs))
      // the first sentence quotes and mentions; the rest follow as plain messages
      const last = i === parts.length - 1
      await out.reply(last ? withImages(part, images) : part, i === 0 && quote, i === 0 ? opts : {})
    }
  } else if (text || images.length) {
    await out.reply(withImages(text, images), quote, opts)
  }
  for (const f of files) await out.reply(f)
}
