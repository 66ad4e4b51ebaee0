// Images for a model that cannot see (channels[].vision false): each is described first by a channel
// that can (input.captionChannel, else the first enabled channel with vision; model input.captionModel,
// else that channel's default) through the model gateway, and the description goes into the text.
// A failed description is logged and the image is only marked, so the turn goes on.
import { chatScopeOf } from '../chat/scope.js'
import { stripReasoning } from '../chat/reasoning.js'
import { errorText } from '../core/errors.js'
import type { InputContext } from './context.js'

/** Images described per turn (each is one model request); the rest are only marked. */
const MAX_CAPTIONS = 4
const CAPTION_TIMEOUT_MS = 30_000
const CAPTION_MAX_TOKENS = 300
const MAX_CAPTION_CHARS = 400

/**
 * Whether the channel the chat pipeline asks first can see images. The pipeline names no channel: the
 * gateway takes the best candidate for the preset's model (lib/channels/README.md, "Channel choice").
 */
export async function chatChannelSees (ctx: InputContext): Promise<boolean> {
  const channels = ctx.rt.optional('channels')
  if (!channels) return true
  let model: string | undefined
  try {
    model = (await ctx.rt.chat.presets?.resolve(chatScopeOf(ctx.s)))?.model || undefined
  } catch { model = undefined }
  try {
    return channels.service.preview(undefined, model)[0]?.vision !== false
  } catch {
    return true // no channel at all: the pipeline answers that
  }
}

/** The channel that describes images: the configured one, else the first enabled channel with vision. */
function captionChannelName (ctx: InputContext): string | undefined {
  const named = ctx.rt.config.get().input.captionChannel
  if (named) return named
  return ctx.rt.optional('channels')?.service.list().find((c) => c.enabled && c.vision !== false)?.name
}

/** One text marker per image: `[图片: <description>]`, or `[图片]` when it could not be described. */
export async function captionImages (ctx: InputContext, images: string[]): Promise<string[]> {
  const { rt, s, tr } = ctx
  const models = rt.optional('models')
  const channel = captionChannelName(ctx)
  const model = rt.config.get().input.captionModel
  if (!models || !channel) {
    if (images.length) rt.log.warn('Images for a model without vision, but no channel to describe them (input.captionChannel)', { userId: s.userId })
    return images.map(() => tr('chat.imageOnly'))
  }
  const describe = async (src: string): Promise<string> => {
    try {
      const res = await models.complete({
        channel,
        ...(model ? { model } : {}),
        messages: [{ role: 'user', content: tr('input.captionPrompt'), images: [src] }],
        maxTokens: CAPTION_MAX_TOKENS,
        source: 'other',
        scope: { userId: s.userId, ...(s.groupId ? { groupId: s.groupId } : {}), ...(s.nickname ? { nickname: s.nickname } : {}) },
        signal: AbortSignal.timeout(CAPTION_TIMEOUT_MS)
      })
      const caption = stripReasoning(res.content).replace(/\s+/g, ' ').trim().slice(0, MAX_CAPTION_CHARS)
      return caption ? tr('input.imageCaption', { caption }) : tr('chat.imageOnly')
    } catch (err) {
      rt.log.warn('Could not describe an image for a model without vision', { userId: s.userId, channel, error: errorText(err) })
      return tr('chat.imageOnly')
    }
  }
  return await Promise.all(images.map(async (src, i) => (i < MAX_CAPTIONS ? await describe(src) : tr('chat.imageOnly'))))
}
