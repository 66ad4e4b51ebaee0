// A provider's refusal (HTTP 4xx/5xx) in the one shape the openai client reads its words from,
// `{"error":{"message":…}}`: Gemini sends `[{"error":{…}}]`, SiliconFlow `{"code":20012,"message":…}`,
// and a wrong base URL gets a web server's HTML page. Without this the owner would read "429 status
// code (no body)" or a page of raw HTML instead of the provider's own message.
import { errorText } from '../core/errors.js'
import { readStart } from '../core/read-body.js'
import { errorIn } from './wire.js'

const MAX_TEXT = 64 * 1024

export async function normalizeErrorBody (res: Response): Promise<Response> {
  if (res.ok || res.status < 400) return res
  const json = (error: Record<string, unknown>): Response => {
    const headers = new Headers(res.headers)
    headers.set('content-type', 'application/json')
    headers.delete('content-length')
    headers.delete('content-encoding')
    return new Response(JSON.stringify({ error }), { status: res.status, statusText: res.statusText, headers })
  }
  let text: string
  try {
    // the start is enough to read the words; the rest of a streamed body is not read (one without end
    // included); a whole answer's (fetch.ts) was read already, within the fetcher's limit
    text = res.body ? (await readStart(res, MAX_TEXT)).body.toString('utf8') : (await res.text()).slice(0, MAX_TEXT)
  } catch (err) {
    // the fetcher refused the body (fetch.ts): the refusal stands, with why its words are missing
    return json({ message: errorText(err) })
  }  let body: unknown
  try { body = JSON.parse(text) } catch { body = undefined }
  const first = Array.isArray(body) ? body[0] as unknown : body
  if (first && typeof first === 'object') {
    const o = first as Record<string, unknown>
    if (o.error && typeof o.error === 'object') return json(o.error as Record<string, unknown>)
    if (typeof o.message === 'string') return json({ message: o.message, ...(o.code !== undefined ? { code: o.code } : {}) })
  }
  if (/^\s*</.test(text) || /text\/html/i.test(res.headers.get('content-type') ?? '')) {
    return json({ message: `HTTP ${res.status}: the server answered with a web page, not the API (check the base URL)` })
  }
  // not JSON (or cut): its start, so a message stays a line
  return json({ message: `HTTP ${res.status}: ${text.slice(0, 200)}` })
}

/**
 * A 200 labelled JSON to a request for a stream: relays answer a refusal that way
 * (`{"error":{"message":"insufficient balance"}}`), which the client would read as a stream with no
 * events, an empty answer. Such an error becomes the refusal it is (its code's status, else 502); any
 * other body goes on as the stream it is (its first bytes put back in front).
 */
export async function streamErrorBody (res: Response): Promise<Response> {
  if (!res.body || !/json/i.test(res.headers.get('content-type') ?? '') || /event-stream/i.test(res.headers.get('content-type') ?? '')) return res
  const reader = res.body.getReader()
  const first = await reader.read()
  const head = first.value ? new TextDecoder().decode(first.value) : ''
  if (/^\s*[[{]/.test(head)) {
    const parts = [head]
    let size = head.length
    for (let r = await reader.read(); !r.done && size < MAX_TEXT; r = await reader.read()) {
      const t = new TextDecoder().decode(r.value)
      parts.push(t)
      size += t.length
    }
    await reader.cancel().catch(() => undefined)
    const text = parts.join('')
    let body: unknown
    try { body = JSON.parse(text) } catch { body = undefined }
    const err = errorIn(body)
    if (err) {
      const headers = new Headers(res.headers)
      headers.delete('content-length')
      headers.delete('content-encoding')
      return new Response(JSON.stringify({ error: { message: err.message } }), { status: err.status ?? 502, headers })
    }
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers })
  }
  const rest = new ReadableStream<Uint8Array>({
    start (c) { if (first.value) c.enqueue(first.value); if (first.done) c.close() },
    async pull (c) {
      const r = await reader.read()
      if (r.done) c.close()
      else c.enqueue(r.value)
    },
    async cancel (reason) { await reader.cancel(reason) }
  })
  return new Response(rest, { status: res.status, statusText: res.statusText, headers: res.headers })
}
