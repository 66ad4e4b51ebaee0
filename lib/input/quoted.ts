// The quoted (replied-to) message: fetched through the host port, given to the model as one line
// before the user's text, its images added to the turn's images.
import { errorText } from '../core/errors.js'
import type { InputContext } from './context.js'
import { messageSegments, render, senderOf, type Labels } from './segments.js'

/** Characters of the quoted text given to the model (a quoted essay need not be repeated whole). */
const MAX_QUOTED_CHARS = 1000

/** The line for the quoted message ('' when there is none or it could not be fetched). */
export async function quotedLine (ctx: InputContext, labels: Labels, images: string[], maxImages: number): Promise<{ line: string; byAsker: boolean }> {
  const line = await quotedText(ctx, labels, images, maxImages)
  return line ? { line: line.text, byAsker: line.authorId !== undefined && line.authorId === ctx.s.userId } : { line: '', byAsker: true }
}

/** The quoted message's line and its author's id (when the host says). */
async function quotedText (ctx: InputContext, labels: Labels, images: string[], maxImages: number): Promise<{ text: string; authorId: string | undefined } | undefined> {
  const { rt, s, tr } = ctx
  let msg: unknown
  try {
    msg = await s.chat.quoted()
  } catch (err) {
    rt.log.warn('Could not fetch the quoted message', { userId: s.userId, error: errorText(err) })
    return undefined
  }
  if (!msg) return undefined
  const had = images.length
  let text = render(messageSegments(msg), labels, images, maxImages)
  if (!text && images.length === had) return undefined
  if (!text) text = labels.image
  if (text.length > MAX_QUOTED_CHARS) text = `${text.slice(0, MAX_QUOTED_CHARS)}…`
  const who = senderOf(msg)
  const line = who.id !== undefined && who.id === s.botId
    ? tr('input.quotedSelf', { text })
    : tr('input.quoted', { name: who.name, text })
  return { text: line, authorId: who.id }
}
