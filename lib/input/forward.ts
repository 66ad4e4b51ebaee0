// Forwarded chat bundles: a `forward` segment (its id is fetched through the host port) or `node`
// segments carried in the message itself, expanded to at most `input.forwardMaxMessages` messages,
// one "name: text" line each. A bundle inside a bundle is not expanded (it shows as a marker).
import { errorText } from '../core/errors.js'
import type { Seg } from '../host/types.js'
import type { InputContext } from './context.js'
import { messageSegments, render, senderOf, type Labels } from './segments.js'

/** Characters of one forwarded message given to the model. */
const MAX_LINE_CHARS = 500

/** The bundles of a message: the fetched `forward` ids and the inline `node` segments. */
function bundlesOf (segs: Seg[]): { ids: Array<string | number>; nodes: unknown[] } {
  const ids: Array<string | number> = []
  const nodes: unknown[] = []
  for (const seg of segs) {
    if (seg.type === 'forward') {
      const id = seg.id ?? seg.resid
      if (typeof id === 'string' || typeof id === 'number') ids.push(id)
      else if (Array.isArray(seg.content)) nodes.push(...(seg.content as unknown[]))
    } else if (seg.type === 'node') {
      // the standalone and icqq-style `{type:'node', data:[nodes]}`, or one OneBot node `{name, uin, content}`
      if (Array.isArray(seg.data)) nodes.push(...(seg.data as unknown[]))
      else nodes.push(seg)
    }
  }
  return { ids, nodes }
}

export function hasBundle (segs: Seg[]): boolean {
  return segs.some((s) => s.type === 'forward' || s.type === 'node')
}

/** The block of forwarded messages ('' when there is none); their images go to `images`. */
export async function forwardBlock (ctx: InputContext, segs: Seg[], max: number, labels: Labels, images: string[], maxImages: number): Promise<string> {
  if (max <= 0 || !hasBundle(segs)) return ''
  const { ids, nodes } = bundlesOf(segs)
  const messages: unknown[] = [...nodes]
  for (const id of ids) {
    if (messages.length >= max) break
    try {
      messages.push(...await ctx.s.chat.forwarded(id))
    } catch (err) {
      ctx.rt.log.warn('Could not fetch a forwarded bundle', { userId: ctx.s.userId, error: errorText(err) })
    }
  }
  const lines: string[] = []
  for (const m of messages.slice(0, max)) {
    const had = images.length
    let text = render(messageSegments(m), labels, images, maxImages)
    if (!text && images.length > had) text = labels.image
    if (!text) continue
    if (text.length > MAX_LINE_CHARS) text = `${text.slice(0, MAX_LINE_CHARS)}…`
    lines.push(`${senderOf(m).name}: ${text}`)
  }
  if (!lines.length) return ''
  return [ctx.tr('input.forwardHeader', { count: lines.length }), ...lines].join('\n')
}
