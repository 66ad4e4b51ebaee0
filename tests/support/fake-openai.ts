// A fake OpenAI-compatible server on 127.0.0.1 for tests and benchmarks: models list, chat
// completions with and without streaming, tool calls, usage, images, audio transcriptions, errors, slow,
// stalled and broken-off streams, streams of given chunks (a sentence every N ms: `chunks`, the
// `sentences-<ms>` models).
import { userText } from './user-text.js'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { writeWithoutEnd } from './endless.js'

export interface Behavior {
  /** HTTP error status to answer with (401, 429, 500...). */
  status?: number
  /** Extra headers of a chat answer, e.g. `{ 'Retry-After': '30' }` with a 429. */
  headers?: Record<string, string>
  errorMessage?: string
  content?: string
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> | string }>
  /** Delay before the response headers. */
  delayMs?: number
  /** Streaming: delay between chunks. */
  chunkDelayMs?: number
  /** Streaming: the content chunks as given (a sentence each, say) instead of 8-character slices of `content`. */
  chunks?: string[]
  /** Streaming: stop sending (but keep the connection open) after this many content chunks. */
  stallAfterChunks?: number
  /** Streaming: close the connection mid-answer after this many content chunks (a relay that broke off). */
  breakAfterChunks?: number
  /** `prompt_tokens_details.cached_tokens`: prompt tokens served from the provider's cache (cost tests) */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } }
  /** Fail (with `status`, default 401) with an error message that echoes the request's headers (redaction tests). */
  echoRequest?: boolean
  /**
   * A broken relay: the answer never ends (a JSON body, or content chunks of a stream, and with
   * `status` an error's body), sent as fast as the client reads until it closes the connection.
   * The bytes sent are counted in the request's `sentBytes`.
   */
  endless?: boolean
}

/** One request the fake server received (`fake.requests`). @public (for tests that type them) */
export interface RecordedRequest {
  path: string
  method: string
  headers: IncomingMessage['headers']
  body: any
  time: number
  /** what an `endless` answer sent before the client closed the connection */
  sentBytes?: number
  /** the answer was sent to its end (a stream's last chunk written) */
  ended?: boolean
}

export interface FakeOpenAI {
  /** Base URL including /v1 (what a channel's baseUrl holds). */
  url: string
  requests: RecordedRequest[]
  models: string[]
  /** Keys accepted (empty: any key). */
  validKeys: string[]
  /** Behaviors consumed in order by the next chat requests, before `respond`. */
  enqueue(...b: Behavior[]): void
  /** Decides the behavior per request when the queue is empty (default: echo the last user message). */
  respond: (body: any, req: RecordedRequest) => Behavior
  chatRequests(): RecordedRequest[]
  /** The names of the tools offered in chat request `index` (an index of chatRequests(), -1: the last). */
  offeredTools(index?: number): string[]
  /**
   * A relay that echoes secrets: while true, the models list, every chat request without a queued
   * behavior and any other path fail with an error text holding the request's Authorization header
   * (raw and URL-encoded) and all its headers.
   */
  echoErrors: boolean
  reset(): void
  close(): Promise<void>
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** An answer without end (Behavior.endless), written as fast as the client reads, until it closes the connection. */
async function flood (res: ServerResponse, rec: RecordedRequest, status: number, stream: boolean): Promise<void> {
  res.writeHead(status, { 'Content-Type': stream ? 'text/event-stream' : 'application/json' })
  const piece = 'x'.repeat(64 * 1024)
  const chunk = Buffer.from(stream
    ? `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`
    : piece)
  if (!stream) res.write('{"choices":[{"index":0,"message":{"role":"assistant","content":"')
  rec.sentBytes = await writeWithoutEnd(res, chunk)
}

function lastUser (body: any): string {
  const msgs: Array<{ role: string; content: unknown }> = Array.isArray(body?.messages) ? body.messages : []
  // the user's own text, as a model answers to it: not the time stamp and notes around it
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]?.role === 'user') return typeof msgs[i]?.content === 'string' ? userText(msgs[i]?.content as string) : JSON.stringify(msgs[i]?.content)
  return ''
}

/** What an echoing relay says: the Authorization header raw and URL-encoded, then every header. */
function echoText (req: IncomingMessage): string {
  const auth = String(req.headers.authorization ?? '')
  return `Invalid request: received Authorization "${auth}" (${encodeURIComponent(auth)}), headers ${JSON.stringify(req.headers)}`
}

/** What a `sentences-<ms>` model streams: eight sentences of 32-40 characters (each a piece of its own
 * at the default delivery.streamMinChars of 30). */
export const SENTENCES = [
  '这是流式回答的第一句话，用来测试第一条消息究竟多快能够发出去。',
  '第二句话紧接着就来了，模型此时还在继续认真地写着后面的内容呢。',
  '第三句话说明分段发送是按照句子和段落的自然边界切开的，不会乱切。',
  '第四句话之后，剩下的内容会在模型写完以后合成一条消息一起发出。',
  '第五句话：比最短字数还短的片段会先等着，和下一段合在一起再发。',
  '第六句话讲的是模型的思考过程永远不会被发到任何一个聊天里去。',
  '第七句话说明快到结尾了，这个回答马上就要全部写完了，请再等等。',
  '第八句话是最后一句，到了这里模型才算真正写完了整个回答的内容。'
]

export function defaultBehavior (body: any): Behavior {
  const model = String(body?.model ?? '')
  if (model.startsWith('fail-')) return { status: Number(model.slice(5)) || 500 }
  if (model.startsWith('slow-')) return { delayMs: Number(model.slice(5)) || 100, content: `slow reply from ${model}` }
  if (model === 'stall') return { content: 'this stream stalls forever', stallAfterChunks: 1 }
  // `sentences-800`: a streamed answer of SENTENCES, one sentence every 800 ms (the first after 800 ms)
  if (model.startsWith('sentences-')) return { chunks: [...SENTENCES], chunkDelayMs: Number(model.slice(10)) || 800 }
  return { content: `echo: ${lastUser(body)}` }
}

export async function startFakeOpenAI (opts: { models?: string[]; validKeys?: string[] } = {}): Promise<FakeOpenAI> {
  const queue: Behavior[] = []
  const sockets = new Set<Socket>()
  const fake: FakeOpenAI = {
    url: '',
    requests: [],
    models: opts.models ?? ['gpt-4o-mini', 'gpt-4o', 'deepseek-chat'],
    validKeys: opts.validKeys ?? [],
    enqueue: (...b) => { queue.push(...b) },
    respond: defaultBehavior,
    chatRequests: () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')),
    offeredTools: (index = -1) => ((fake.chatRequests().at(index)?.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name),
    echoErrors: false,
    reset: () => { queue.length = 0; fake.requests.length = 0; fake.respond = defaultBehavior; fake.echoErrors = false },
    close: () => new Promise((resolve) => { server.close(() => resolve()); for (const s of sockets) s.destroy() })
  }

  const server: Server = createServer((req, res) => { void handle(req, res) })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })

  async function handle (req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const bytes = Buffer.concat(chunks)
    const raw = bytes.toString('utf8')
    let body: any = {}
    try { body = raw ? JSON.parse(raw) : {} } catch { body = raw }
    if (String(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
      // images/edits: the fields, and each file as {name, type, size, head (first bytes, hex)}
      const form = await new Response(bytes, { headers: { 'content-type': String(req.headers['content-type']) } }).formData()
      body = {}
      for (const [k, v] of form.entries()) {
        body[k] = typeof v === 'string' ? v : { name: v.name, type: v.type, size: v.size, head: Buffer.from(await v.arrayBuffer()).subarray(0, 8).toString('hex') }
      }
    }
    const rec: RecordedRequest = { path: req.url ?? '', method: req.method ?? '', headers: req.headers, body, time: Date.now() }
    fake.requests.push(rec)
    const auth = String(req.headers.authorization ?? '')
    const key = auth.replace(/^Bearer\s+/i, '')
    const json = (status: number, obj: unknown, headers: Record<string, string> = {}): void => { res.writeHead(status, { 'Content-Type': 'application/json', ...headers }); res.end(JSON.stringify(obj)) }
    if (fake.validKeys.length && !fake.validKeys.includes(key)) {
      json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }); return
    }
    const path = (req.url ?? '').split('?')[0] ?? ''
    const echo = (status: number): void => json(status, { error: { message: echoText(req), type: 'echo' } })
    const isChat = req.method === 'POST' && path.endsWith('/chat/completions')
    if (fake.echoErrors && !(isChat && queue.length)) { echo(path.endsWith('/models') || isChat ? 401 : 500); return }
    if (req.method === 'GET' && path.endsWith('/models')) {
      json(200, { object: 'list', data: fake.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) }); return
    }
    if (req.method === 'POST' && (path.endsWith('/images/generations') || path.endsWith('/images/edits'))) {
      const b = queue.shift() ?? fake.respond(body, rec)
      if (b.delayMs) await sleep(b.delayMs)
      if (b.status) { json(b.status, { error: { message: b.errorMessage ?? `fake error ${b.status}` } }); return }
      const n = Math.max(1, Number(body?.n ?? 1))
      json(200, { created: 0, data: Array.from({ length: n }, () => ({ b64_json: Buffer.from('fake-png').toString('base64') })) }); return
    }
    if (req.method === 'POST' && path.endsWith('/audio/transcriptions')) {
      // speech to text (multipart: file, model): the next queued behavior's content, else a fixed text
      const b = queue.shift() ?? { content: `fake transcript (${String(body?.file?.size ?? 0)} bytes)` }
      if (b.delayMs) await sleep(b.delayMs)
      if (b.echoRequest) { echo(b.status ?? 401); return }
      if (b.status) { json(b.status, { error: { message: b.errorMessage ?? `fake error ${b.status}` } }); return }
      json(200, { text: b.content ?? '' }); return
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) { json(404, { error: { message: 'not found' } }); return }

    const b = queue.shift() ?? fake.respond(body, rec)
    if (b.delayMs) await sleep(b.delayMs)
    if (b.echoRequest) { echo(b.status ?? 401); return }
    if (b.endless) { await flood(res, rec, b.status ?? 200, body?.stream && !b.status); return }
    if (b.status) { json(b.status, { error: { message: b.errorMessage ?? `fake error ${b.status}`, type: 'fake' } }, b.headers); return }
    const model = String(body?.model ?? 'fake')
    const content = b.content ?? b.chunks?.join('') ?? ''
    const usage = b.usage ?? { prompt_tokens: Math.ceil(JSON.stringify(body?.messages ?? '').length / 4), completion_tokens: Math.max(1, Math.ceil(content.length / 4)) }
    const toolCalls = (b.toolCalls ?? []).map((t, i) => ({ id: `call_${Date.now()}_${i}`, type: 'function', function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments) } }))
    const finish = toolCalls.length ? 'tool_calls' : 'stop'
    const totalUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }
    if (!body?.stream) {
      json(200, { id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: toolCalls.length ? null : content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: finish }], usage: totalUsage })
      rec.ended = true
      return
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' })
    const send = (obj: unknown): void => { res.write(`data: ${JSON.stringify(obj)}\n\n`) }
    const chunk = (delta: unknown, finishReason: string | null = null): void => send({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })
    chunk({ role: 'assistant', content: '' })
    const parts = b.chunks ?? content.match(/.{1,8}/gsu) ?? []
    let sent = 0
    for (const p of parts) {
      if (b.stallAfterChunks !== undefined && sent >= b.stallAfterChunks) return // keep the socket open, send nothing more
      if (b.breakAfterChunks !== undefined && sent >= b.breakAfterChunks) { res.destroy(); return }
      if (b.chunkDelayMs) await sleep(b.chunkDelayMs)
      if (res.destroyed) return
      chunk({ content: p })
      sent++
    }
    if (b.stallAfterChunks !== undefined && sent >= b.stallAfterChunks) return
    toolCalls.forEach((tc, i) => {
      chunk({ tool_calls: [{ index: i, id: tc.id, type: 'function', function: { name: tc.function.name, arguments: '' } }] })
      chunk({ tool_calls: [{ index: i, function: { arguments: tc.function.arguments } }] })
    })
    chunk({}, finish)
    if (body?.stream_options?.include_usage) send({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: totalUsage })
    res.write('data: [DONE]\n\n')
    rec.ended = true
    res.end()
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return fake
}
