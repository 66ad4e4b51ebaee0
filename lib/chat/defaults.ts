// What the bot would use for a message of a scope, before it is sent (the dashboard's chat page starts
// from it): the preset the pipeline resolves, the channel the gateway would try first for the preset's
// model (lib/channels/service.ts candidates) and the model that channel would be asked for.
import { AppError } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import type { ChatScope } from './contracts.js'
import type { ChatPipeline } from './service.js'

interface ChatDefaults { preset: { id: string; name: string }; channel: string; model: string }

export async function chatDefaults (rt: Runtime, pipeline: ChatPipeline, scope: ChatScope): Promise<ChatDefaults> {
  const preset = await pipeline.preset(scope)
  let first
  try {
    first = rt.optional('channels')?.service.preview(undefined, preset.model)[0]
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'CHANNEL_UNAVAILABLE')) throw err // no usable channel: none chosen
  }
  return {
    preset: { id: preset.id, name: preset.name },
    channel: first?.name ?? '',
    model: first ? preset.model || first.model || first.models[0] || '' : ''
  }
}
