// Reads a Server-Sent Events response frame by frame (tests of every SSE route).
export interface SseFrame { event: string; data: string; comment?: string; json<T = any>(): T }

/** Opens `url` and yields frames as they arrive; `close()` aborts the request. */
export function sseClient (url: string, init: RequestInit = {}): { frames: AsyncGenerator<SseFrame>; response: Promise<Response>; close(): void } {
  const ctrl = new AbortController()
  const response = fetch(url, { ...init, signal: ctrl.signal })
  async function * frames (): AsyncGenerator<SseFrame> {
    const res = await response
    if (!res.body) return
    const decoder = new TextDecoder()
    let buf = ''
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true })
        let i: number
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const raw = buf.slice(0, i)
          buf = buf.slice(i + 2)
          yield parseFrame(raw)
        }
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err
    }
  }
  return { frames: frames(), response, close: () => { ctrl.abort() } }
}

export function parseFrame (raw: string): SseFrame {
  let event = 'message'
  const data: string[] = []
  let comment: string | undefined
  for (const line of raw.split('\n')) {
    if (line.startsWith(':')) comment = line.slice(1).trim()
    else if (line.startsWith('event:')) event = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  const text = data.join('\n')
  return { event: comment !== undefined && data.length === 0 ? 'comment' : event, data: text, ...(comment !== undefined ? { comment } : {}), json: () => JSON.parse(text) }
}
