// The image a user sent with a drawing request (a needImage preset such as 手办化), as bytes for the
// images edit API. Accepted: http(s) URLs (what the hosts put in e.img), data: URLs and the hosts'
// base64:// form. Never local paths: the source comes from a chat message.
// A URL goes through the outbound fetcher (lib/web/outbound.ts): public addresses only, redirects checked.
import { AppError, errorText } from '../core/errors.js'
import { outboundFetch, type OutboundAccess } from '../web/outbound.js'

const MAX_INPUT_IMAGE_BYTES = 20 * 1024 * 1024
const DOWNLOAD_TIMEOUT_MS = 60_000

export interface InputImage { data: Buffer; type: string; name: string }

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' }

/** The image type from its first bytes (a URL's content-type may be missing or generic). */
function sniff (b: Buffer): string | undefined {
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg'
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif'
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp'
  return undefined
}

const tooLarge = (): AppError => new AppError('INVALID_ARGS', `The image is larger than ${MAX_INPUT_IMAGE_BYTES / 1048576} MB`)

function image (data: Buffer, declared?: string): InputImage {
  if (data.length === 0) throw new AppError('INVALID_ARGS', 'The image is empty')
  if (data.length > MAX_INPUT_IMAGE_BYTES) throw tooLarge()
  const type = sniff(data) ?? (declared?.startsWith('image/') ? declared : 'image/png')
  return { data, type, name: `input.${EXT[type] ?? 'png'}` }
}

export async function loadInputImage (src: string, signal: AbortSignal | undefined, access: OutboundAccess): Promise<InputImage> {
  const dataUrl = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(src)
  if (dataUrl) {
    const body = dataUrl[3] ?? ''
    return image(dataUrl[2] ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body), 'utf8'), dataUrl[1])
  }
  if (src.startsWith('base64://')) return image(Buffer.from(src.slice('base64://'.length), 'base64'))
  if (!/^https?:\/\//i.test(src)) throw new AppError('INVALID_ARGS', 'Unsupported image source (http(s), data: or base64:// only)')
  let res
  try {
    res = await outboundFetch(src, { maxBytes: MAX_INPUT_IMAGE_BYTES, tooLarge, timeoutMs: DOWNLOAD_TIMEOUT_MS, ...(signal ? { signal } : {}) }, access)
  } catch (err) {
    if (signal?.aborted) throw err
    if (err instanceof AppError && err.code === 'INVALID_ARGS') throw err
    throw new AppError('INVALID_ARGS', `Could not download the image: ${errorText(err)}`)
  }
  if (!res.ok) throw new AppError('INVALID_ARGS', `Could not download the image: HTTP ${res.status}`)
  return image(res.body, res.contentType || undefined)
}
