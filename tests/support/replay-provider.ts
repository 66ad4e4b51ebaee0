// A replay model server on 127.0.0.1 for the provider fixture suite (tests/providers): it serves a
// scripted list of recorded-style exchanges, byte for byte as a provider would send them (SSE comments,
// blank keep-alive lines, error frames, a connection cut mid-stream), and records every request.
// fake-openai.ts synthesises answers; this one only replays, so a fixture is the wire format itself.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One scripted answer to a POST …/chat/completions. */
export interface Exchange {
  /** HTTP status (default 200) */
  status?: number
  headers?: Record<string, string>
  /** a whole answer: the JSON body (an object, or e.g. Gemini's error array) */
  body?: unknown
  /**
   * a stream: raw SSE lines, each written followed by a blank line ('data: {...}', ': OPENROUTER
   * PROCESSING', 'data: [DONE]'); an empty string writes one bare newline (a blank keep-alive line).
   */
  sse?: string[]
  /** cut the connection after the SSE lines (or half-way through the JSON body) without ending it */
  truncate?: boolean
  /** what the exchange stands for (assertion messages) */
  note?: string
}

export interface ReplayRequest {
  path: string
  method: string
  headers: IncomingMessage['headers']
  /** the parsed JSON body (the raw text when it is no JSON) */
  body: any
  /** the script position served (-1: the fallback) */
  served: number
}

export interface ReplayProvider {
  /** base URL including /v1 (a channel's baseUrl) */
  url: string
  requests: ReplayRequest[]
  models: string[]
  /** queues exchanges, served in order by the next chat requests */
  play(...ex: Exchange[]): void
  /** the exchange when the script is empty (default: a 500 saying so, so a stray request shows) */
  fallback: (body: any) => Exchange
  /** exchanges not yet served */
  pending(): number
  chatRequests(): ReplayRequest[]
  reset(): void
  close(): Promise<void>
}

/** `data: <json>`: one SSE payload line. */
export const data = (obj: unknown): string => `data: ${JSON.stringify(obj)}`
export const DONE = 'data: [DONE]'

/** A plain OpenAI-shaped answer to `body` (streamed when it asks for a stream): a backup channel's reply. */
export function plainAnswer (text: string, body: any, usage = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 }): Exchange {
  const model = String(body?.model ?? 'backup')
  if (!body?.stream) {
    return { body: { id: 'chatcmpl-backup', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage } }
  }
  const chunk = (delta: unknown, finish: string | null = null): string => data({ id: 'chatcmpl-backup', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })
  return { sse: [chunk({ role: 'assistant', content: '' }), chunk({ content: text }), chunk({}, 'stop'), data({ id: 'chatcmpl-backup', object: 'chat.completion.chunk', created: 0, model, choices: [], usage }), DONE] }
}

const exhausted = (): Exchange => ({ status: 500, body: { error: { message: 'replay script exhausted', type: 'replay' } } })

export async function startReplayProvider (opts: { models?: string[] } = {}): Promise<ReplayProvider> {
  const script: Exchange[] = []
  const sockets = new Set<Socket>()
  const rp: ReplayProvider = {
    url: '',
    requests: [],
    models: opts.models ?? ['replay-model'],
    play: (...ex) => { script.push(...ex) },
    fallback: exhausted,
    pending: () => script.length,
    chatRequests: () => rp.requests.filter((r) => r.path.split('?')[0]?.endsWith('/chat/completions')),
    reset: () => { script.length = 0; rp.requests.length = 0; rp.fallback = exhausted },
    close: () => new Promise((resolve) => { server.close(() => resolve()); for (const s of sockets) s.destroy() })
  }
  let served = 0

  const server: Server = createServer((req, res) => { void handle(req, res) })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })

  async function handle (req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    let body: any = {}
    try { body = raw ? JSON.parse(raw) : {} } catch { body = raw }
    const path = (req.url ?? '').split('?')[0] ?? ''
    const rec: ReplayRequest = { path: req.url ?? '', method: req.method ?? '', headers: req.headers, body, served: -1 }
    rp.requests.push(rec)
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: rp.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'replay' })) }))
      return
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'not found' } }))
      return
    }
    const next = script.shift()
    if (next) rec.served = served++
    serve(res, next ?? rp.fallback(body))
  }

  function serve (res: ServerResponse, ex: Exchange): void {
    const status = ex.status ?? 200
    if (ex.sse) {
      res.writeHead(status, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', ...ex.headers })
      // one write per line, chunked as providers send them
      const lines = ex.sse.map((line) => (line === '' ? '\n' : `${line}\n\n`))
      const last = ex.truncate ? lines.pop() ?? '' : ''
      for (const l of lines) res.write(l)
      // a cut connection: the socket closes, once the lines are out, with the chunked body unfinished
      // (the client got the headers and the lines, then no clean end)
      if (ex.truncate) { cut(res, last); return }
      res.end()
      return
    }
    const text = JSON.stringify(ex.body ?? {})
    res.writeHead(status, { 'Content-Type': 'application/json', ...ex.headers })
    if (ex.truncate) { cut(res, text.slice(0, Math.floor(text.length / 2))); return }
    res.end(text)
  }

  /** Writes `text` and destroys the socket once it is flushed (a destroy right away would drop it). */
  function cut (res: ServerResponse, text: string): void {
    res.write(text, () => { setImmediate(() => res.socket?.destroy()) })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  rp.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return rp
}
