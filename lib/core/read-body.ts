// Reading the body of an answer from a server the plugin does not control (a speech or moderation
// endpoint, a search provider, an image link, a custom tool's URL): never past a limit, so a server
// that sends without end cannot fill the bot's memory (README, Security model). The channels' own
// fetch reads with undici and keeps its limit in lib/channels/fetch.ts.

/**
 * The whole body, or `tooLarge()` once it passes `max` bytes: at once when its Content-Length says
 * so, else when the bytes read pass it (the stream is cancelled, the connection closed).
 */
export async function readLimited (res: Response, max: number, tooLarge: () => Error): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0)
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body.cancel().catch(() => undefined)
    throw tooLarge()
  }
  const { body, truncated } = await readUpTo(res.body, max)
  if (truncated) throw tooLarge()
  return body
}

/** The first `max` bytes of the body (all of it when shorter); the rest is not read. */
export async function readStart (res: Response, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  return res.body ? await readUpTo(res.body, max) : { body: Buffer.alloc(0), truncated: false }
}

/** The start of an error answer as text, for a message: a few hundred characters, never more read. */
export async function errorDetail (res: Response, chars = 200): Promise<string> {
  const { body, truncated } = await readStart(res, chars * 4).catch(() => ({ body: Buffer.alloc(0), truncated: false }))
  const text = body.toString('utf8')
  // a cut through a character decodes as U+FFFD at the end
  return (truncated ? text.replace(/\uFFFD+$/, '') : text).slice(0, chars)
}

async function readUpTo (stream: ReadableStream<Uint8Array>, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { body: Buffer.concat(chunks, size), truncated: false }
    const room = max - size
    if (value.length > room) {
      if (room > 0) chunks.push(value.subarray(0, room))
      await reader.cancel().catch(() => undefined)
      return { body: Buffer.concat(chunks, max), truncated: true }
    }
    chunks.push(value)
    size += value.length
  }
}
