// Runs one drawing: the preset's prompt with the user's text (and the user's image for presets that
// need one), through the model gateway's images API, bounded by image.timeout and image.maxImages.
// The image API entries of the drawing config (image.apis), when any is enabled, are tried in order
// (the next one when one fails); without entries the channels with images enabled draw.
import { AppError } from '../core/errors.js'
import type { ImageRequest } from '../chat/contracts.js'
import type { Runtime } from '../runtime.js'
import { renderTemplate } from '../templates/placeholders.js'
import type { ImagePreset } from './types.js'

function promptFor (preset: ImagePreset, input: string): string {
  const hasSlot = /\{\{\s*input\s*\}\}/.test(preset.prompt)
  const p = renderTemplate(preset.prompt, { input }).trim()
  return hasSlot || !input ? p : `${p}\n${input}`
}

export async function drawImages (rt: Runtime, preset: ImagePreset, input: string, image?: string, size?: string): Promise<string[]> {
  const cfg = rt.config.get().image
  const models = rt.optional('models')
  const gen = models?.generateImages?.bind(models)
  if (!gen) throw new AppError('SERVICE_UNAVAILABLE', 'No image model is available')
  const prompt = promptFor(preset, input)
  if (!prompt) throw new AppError('INVALID_ARGS', 'Nothing to draw')
  const signal = AbortSignal.timeout(cfg.timeout)
  const base: ImageRequest = { prompt, n: cfg.maxImages, signal, ...(cfg.model ? { model: cfg.model } : {}), ...(image ? { image } : {}), ...(size ? { size } : {}) }
  const attempts: ImageRequest[] = imageApis(cfg.apis).map(({ api, model }) => ({ ...base, api, ...(model ? { model } : {}) }))
  let last: unknown
  for (const req of attempts.length ? attempts : [base]) {
    try {
      return (await gen(req)).slice(0, cfg.maxImages)
    } catch (err) {
      if (signal.aborted) throw new AppError('TIMEOUT', `Drawing timed out after ${cfg.timeout} ms`)
      last = err
    }
  }
  throw last
}

/** The enabled, usable entries of image.apis (stored loosely: each is checked here). */
function imageApis (entries: Array<Record<string, unknown>>): Array<{ api: NonNullable<ImageRequest['api']>; model?: string }> {
  const out: Array<{ api: NonNullable<ImageRequest['api']>; model?: string }> = []
  entries.forEach((e, i) => {
    if (e.enabled === false || typeof e.baseUrl !== 'string' || !/^https?:\/\//i.test(e.baseUrl)) return
    const label = typeof e.name === 'string' ? e.name.replace(/[^\w\-.\u4e00-\u9fff]+/g, '-').slice(0, 50) : ''
    const model = Array.isArray(e.models) && typeof e.models[0] === 'string' ? e.models[0] : undefined
    out.push({
      api: { name: `image-api-${label || i + 1}`, baseUrl: e.baseUrl, ...(typeof e.apiKey === 'string' ? { apiKey: e.apiKey } : {}) },
      ...(model ? { model } : {})
    })
  })
  return out
}

/** A data: URL as a Buffer (hosts send buffers), other URLs unchanged. */
export function imageSource (url: string): string | Buffer {
  const m = /^data:[^;,]+;base64,(.*)$/s.exec(url)
  return m?.[1] !== undefined ? Buffer.from(m[1], 'base64') : url
}
