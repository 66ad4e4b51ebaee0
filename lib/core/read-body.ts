// Reading a body never past a limit, so a peer that sends without end cannot fill the bot's memory
// (README, Security model): answers of servers the plugin does not control (a speech or moderation
// endpoint, a search provider; the outbound fetcher's pages, images and custom tools' URLs) and the
// bodies our own /mcp endpoint receives. `readCapped` is the one loop; the rest wrap it.
// The channels' own fetch reads with undici and keeps its limit in lib/channels/fetch.ts.
import { AppError } from './errors.js'

/**
 * The whole body, or `tooLarge()` once it passes `max` bytes: at once when its Content-Length says
 * so, else when the bytes read pass it (the stream is cancelled, the connection closed).
 */
export async function readLimited (res: Response, max: number, tooLarge: () => Error = () => tooLargeError(max)): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0)
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body.cancel().catch(() => undefined)
    throw tooLarge()
  }
  const { body, truncated } = await readCapped(res.body, max)
  if (truncated) throw tooLarge()
  return body
}

/** The error past a limit when the caller names none. */
export const tooLargeError = (max: number): AppError => new AppError('PAYLOAD_TOO_LARGE', `The answer is larger than ${max} bytes`)

/** The first `max` bytes of the body (all of it when shorter); the rest is not read. */
export async function readStart (res: Response, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  return res.body ? await readCapped(res.body, max) : { body: Buffer.alloc(0), truncated: false }
}

/** The start of an error answer as text, for a message: a few hundred characters, never more read. */
export async function errorDetail (res: Response, chars = 200): Promise<string> {
  const { body, truncated } = await readStart(res, chars * 4).catch(() => ({ body: Buffer.alloc(0), truncated: false }))
  const text = body.toString('utf8')
  // a cut through a character decodes as U+FFFD at the end
  return (truncated ? text.replace(/\uFFFD+$/, '') : text).slice(0, chars)
}

/**
 * The first `max` bytes of a stream (a web stream or a Node one: all when shorter), `truncated` when
 * there was more. Past `max` the rest is not read: `stop()` runs (a Node stream that errors when
 * destroyed gets its listener there), then leaving the loop cancels or destroys the stream.
 */
export async function readCapped (source: AsyncIterable<Uint8Array>, max: number, stop?: () => void): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  try {
    for await (const chunk of source) {
      const room = max - size
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room))
        size = max
        truncated = true
        stop?.()
        break
      }
      chunks.push(chunk)
      size += chunk.length
    }
  } catch (err) {
    // a stream that fails while it is closed after the limit: what was read stands
    if (!truncated) throw err
  }
  return { body: Buffer.concat(chunks, size), truncated }
}
