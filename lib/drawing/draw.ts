// Runs one drawing: the preset's prompt with the user's text, through the model gateway's images API,
// bounded by image.timeout and image.maxImages.
import { AppError } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import { renderTemplate } from '../templates/placeholders.js'
import type { ImagePreset } from './types.js'

export function promptFor (preset: ImagePreset, input: string): string {
  const hasSlot = /\{\{\s*input\s*\}\}/.test(preset.prompt)
  const p = renderTemplate(preset.prompt, { input }).trim()
  return hasSlot || !input ? p : `${p}\n${input}`
}

export async function drawImages (rt: Runtime, preset: ImagePreset, input: string, image?: string): Promise<string[]> {
  const cfg = rt.config.get().image
  const gen = rt.chat.models?.generateImages?.bind(rt.chat.models)
  if (!gen) throw new AppError('SERVICE_UNAVAILABLE', 'No image model is available')
  const prompt = promptFor(preset, input)
  if (!prompt) throw new AppError('INVALID_ARGS', 'Nothing to draw')
  const signal = AbortSignal.timeout(cfg.timeout)
  try {
    const urls = await gen({ prompt, n: cfg.maxImages, signal, ...(cfg.model ? { model: cfg.model } : {}), ...(image ? { image } : {}) })
    return urls.slice(0, cfg.maxImages)
  } catch (err) {
    if (signal.aborted) throw new AppError('TIMEOUT', `Drawing timed out after ${cfg.timeout} ms`)
    throw err
  }
}

/** A data: URL as a Buffer (hosts send buffers), other URLs unchanged. */
export function imageSource (url: string): string | Buffer {
  const m = /^data:[^;,]+;base64,(.*)$/s.exec(url)
  return m?.[1] !== undefined ? Buffer.from(m[1], 'base64') : url
}
