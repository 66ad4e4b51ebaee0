// Category `media`: draw_image, the drawing domain (lib/drawing: the `image` config, its presets and its
// image API entries with failover) as a tool the model can call. The images go to the chat as image
// segments with the answer (the chat pipeline keeps a tool's image results for lib/delivery).
// Medium risk: a drawing costs money (approvalMode manual asks the master). Offered only while drawing
// is on (image.enabled, off by default): the model is not tempted to promise a picture it cannot make.
import { AppError, errorText } from '../../core/errors.js'
import { drawImages } from '../../drawing/draw.js'
import type { ImagePreset } from '../../drawing/types.js'
import type { ToolResult } from '../../chat/contracts.js'
import type { Runtime } from '../../runtime.js'
import { outboundAccess, outboundFetch } from '../../web/outbound.js'
import { str, text, type BuiltinTool } from './util.js'

/** An image the API gave as a link is fetched (bounded) so it goes to QQ as the image itself. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024
const FETCH_TIMEOUT_MS = 30_000
const SIZE = /^\d{2,5}x\d{2,5}$/

/** The prompt as the user's words: no preset text around it. */
const PLAIN: ImagePreset = { uid: 'draw_image', keywords: [], needImage: false, prompt: '{{input}}' }

function sniff (data: Buffer): string {
  if (data.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return 'image/png'
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg'
  if (data.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif'
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp'
  return 'image/png'
}

/** A link the drawing API answered with: through the outbound fetcher (public addresses only, redirects checked). */
async function download (rt: Runtime, url: string): Promise<Buffer> {
  const res = await outboundFetch(url, { maxBytes: MAX_IMAGE_BYTES, tooLarge: () => new Error('larger than 10 MB'), timeoutMs: FETCH_TIMEOUT_MS }, outboundAccess(rt.config.get()))
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  return res.body
}

/** One drawn image as a tool image part, or, when a link cannot be fetched, the link to show. */
async function imagePart (rt: Runtime, url: string): Promise<ToolResult['content'][number]> {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url)
  if (m?.[2] !== undefined) return { type: 'image', data: m[2], mimeType: m[1] ?? 'image/png' }
  try {
    const data = await download(rt, url)
    return { type: 'image', data: data.toString('base64'), mimeType: sniff(data) }
  } catch (err) {
    return { type: 'text', text: `An image could not be fetched (${errorText(err)}); show it to the user as ![image](${url})` }
  }
}

/** A drawing preset named by the model: its uid, name or one of its keywords. */
function findPreset (rt: Runtime, name: string): ImagePreset | undefined {
  const all = rt.need('drawing').all()
  const n = name.trim().replace(/^[#＃]/, '').toLowerCase()
  for (const list of [all.custom, all.remote.presets, all.builtin]) {
    const hit = list.find((p) => p.uid.toLowerCase() === n || p.name?.toLowerCase() === n || p.keywords.some((k) => k.toLowerCase() === n))
    if (hit) return hit
  }
  return undefined
}

const drawingOn = (rt: Runtime): boolean => rt.config.get().image.enabled && rt.optional('drawing') !== undefined

export function drawTool (rt: Runtime): BuiltinTool {
  return {
    name: 'draw_image',
    description: '根据描述画一张图，图片会随你的回答发给用户 (draw a picture from a description; the image is sent to the user with your answer). Write the prompt in detail; optional size such as 1024x1024 and a drawing preset by name or keyword',
    category: 'media',
    risk: 'medium',
    dangerous: false,
    offeredIn: () => drawingOn(rt),
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'what to draw, in detail' },
        size: { type: 'string', description: 'image size, e.g. 1024x1024 (optional)' },
        preset: { type: 'string', description: 'a drawing preset (its name or keyword) whose style wraps the prompt (optional)' }
      },
      required: ['prompt']
    },
    execute: async (args) => {
      const prompt = str(args.prompt)
      if (!prompt) return text('prompt is required', true)
      if (!drawingOn(rt)) return text('Drawing is turned off (image.enabled)', true)
      const size = str(args.size)
      if (size && !SIZE.test(size)) return text('size must look like 1024x1024', true)
      const presetName = str(args.preset)
      const preset = presetName ? findPreset(rt, presetName) : PLAIN
      if (!preset) return text(`No drawing preset "${presetName ?? ''}"`, true)
      if (preset.needImage) return text(`The preset "${presetName ?? ''}" needs the user's image; it cannot be used here`, true)
      let urls: string[]
      try {
        urls = await drawImages(rt, preset, prompt, undefined, size)
      } catch (err) {
        const timeout = err instanceof AppError && err.code === 'TIMEOUT'
        rt.log.warn('draw_image failed', { preset: preset.uid, error: errorText(err) })
        return text(timeout ? 'Drawing timed out' : `Drawing failed: ${errorText(err)}`, true)
      }
      if (!urls.length) return text('No image came back; try another description', true)
      const parts = await Promise.all(urls.map((u) => imagePart(rt, u)))
      return { content: [...parts, { type: 'text', text: `Drew ${urls.length} image(s) for: ${prompt.slice(0, 200)}` }], isError: false }
    }
  }
}
