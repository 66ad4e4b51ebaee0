// Reading a provider's chat answer, whole or streamed, into one shape whatever the provider's dialect
// (profiles.ts): the text without reasoning, the reasoning apart (a reasoning field, or `<think>` in the
// text), tool calls (indexed fragments, or whole calls without `index` as Gemini and some relays send),
// usage from any chunk, and errors wherever they come (a 200 whose body is an error, an error frame in
// the stream, an empty or cut-off answer): thrown as UpstreamError, classified by the gateway like any
// failed request.
import type { ToolCallRequest } from '../chat/contracts.js'
import type { ProviderProfile } from './profiles.js'
import { ThinkSplitter } from './think-split.js'

/** A provider's error said in a body or a stream frame (HTTP 200), or an answer that is no answer. */
export class UpstreamError extends Error {
  override name = 'UpstreamError'
  /** the status the provider's error code names (a number code such as 429, 402), else undefined */
  constructor (message: string, readonly status?: number, readonly empty = false) { super(message) }
}

export interface RawUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number } | null
  /** DeepSeek */
  prompt_cache_hit_tokens?: number
  /** legacy Moonshot */
  cached_tokens?: number
}

export interface WireAnswer {
  content: string
  reasoning: string
  toolCalls: ToolCallRequest[]
  usage: RawUsage | undefined
  model: string | undefined
  finishReason: string | undefined
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The error a body or frame carries (`{error:{…}}`, Gemini's `[{error:{…}}]`, SiliconFlow's `{code, message}` without choices), if any. */
export function errorIn (body: unknown): UpstreamError | undefined {
  const first = Array.isArray(body) ? body[0] : body
  if (!isObj(first)) return undefined
  const e = first.error
  if (isObj(e) || typeof e === 'string') {
    const message = isObj(e) ? str(e.message) || str(e.msg) || JSON.stringify(e).slice(0, 300) : e
    const code = isObj(e) ? e.code ?? e.status : undefined
    return new UpstreamError(message || 'the provider answered with an error', statusOf(code))
  }
  if (!('choices' in first) && typeof first.code === 'number' && first.code !== 0 && typeof first.message === 'string') {
    return new UpstreamError(first.message, statusOf(first.code))
  }
  return undefined
}

/** An error code that is an HTTP status (429, "429"); provider codes such as 1113 or 20012 are not. */
function statusOf (code: unknown): number | undefined {
  const n = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : NaN
  return n >= 400 && n <= 599 ? n : undefined
}

/** The reasoning a message or delta carries in the profile's fields. */
function reasoningOf (m: Obj, profile: ProviderProfile): string {
  for (const f of profile.reasoningFields) {
    const v = m[f]
    if (typeof v === 'string' && v) return v
  }
  return ''
}

/** A call's provider fields to echo back unchanged (Gemini 3's `extra_content` with the thought signature). */
function extraOf (tc: Obj): Record<string, unknown> | undefined {
  return isObj(tc.extra_content) ? { extra_content: tc.extra_content } : undefined
}

/** A whole (not streamed) answer. */
export function readWhole (body: unknown, profile: ProviderProfile): WireAnswer {
  const err = errorIn(body)
  if (err) throw err
  const b = isObj(body) ? body : {}
  const choice = Array.isArray(b.choices) && isObj(b.choices[0]) ? b.choices[0] : undefined
  const msg = choice && isObj(choice.message) ? choice.message : undefined
  if (!msg) throw new UpstreamError('the provider answered without a message (no choices)', undefined, true)
  const split = new ThinkSplitter()
  const text = split.push(str(msg.content)) + split.end()
  const toolCalls: ToolCallRequest[] = []
  for (const tc of Array.isArray(msg.tool_calls) ? msg.tool_calls : []) {
    if (!isObj(tc) || (tc.type !== undefined && tc.type !== 'function') || !isObj(tc.function)) continue
    const extra = extraOf(tc)
    toolCalls.push({ id: str(tc.id), name: str(tc.function.name), arguments: str(tc.function.arguments), ...(extra ? { extra } : {}) })
  }
  const reasoning = [reasoningOf(msg, profile), split.reasoning].filter(Boolean).join('\n')
  return { content: text, reasoning, toolCalls: withIds(toolCalls), usage: isObj(b.usage) ? b.usage as RawUsage : undefined, model: str(b.model) || undefined, finishReason: str(choice?.finish_reason) || undefined }
}

/** A streamed answer, chunk by chunk; `text` of each push is what may be shown as it comes. */
export class StreamReader {
  private content = ''
  private reasoning = ''
  private readonly split = new ThinkSplitter()
  /** calls by the provider's index, or by arrival when the provider sends none */
  private readonly calls: Array<ToolCallRequest & { key: string }> = []
  private usage: RawUsage | undefined
  private model: string | undefined
  private finish: string | undefined
  private chunks = 0

  constructor (private readonly profile: ProviderProfile) {}

  /** Reads one chunk; gives the answer text it adds (reasoning left out), or throws the error it carries. */
  push (chunk: unknown): string {
    const err = errorIn(chunk)
    if (err) throw err
    if (!isObj(chunk)) return ''
    this.chunks++
    if (typeof chunk.model === 'string' && chunk.model) this.model = chunk.model
    if (isObj(chunk.usage)) this.usage = chunk.usage as RawUsage // any chunk; the last one wins
    const choice = Array.isArray(chunk.choices) && isObj(chunk.choices[0]) ? chunk.choices[0] : undefined
    if (!choice) return ''
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) this.finish = choice.finish_reason
    const delta = isObj(choice.delta) ? choice.delta : isObj(choice.message) ? choice.message : undefined
    if (!delta) return ''
    this.reasoning += reasoningOf(delta, this.profile)
    for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) if (isObj(tc)) this.addCall(tc)
    const text = this.split.push(str(delta.content))
    this.content += text
    return text
  }

  /** The stream ended: the text held back for a possible tag, to be shown now. */
  end (): string {
    const tail = this.split.end()
    this.content += tail
    return tail
  }

  /**
   * The answer once the stream ended (after `end`). A stream that said nothing at all, or ended without a
   * finish reason and without text or calls, was cut off or empty: an error, never an empty answer
   * counted as success.
   */
  result (): WireAnswer {
    const toolCalls = withIds(this.calls.map(({ key: _key, ...c }) => c))
    if (this.chunks === 0) throw new UpstreamError('the provider sent no answer (empty stream)', undefined, true)
    if (!this.content.trim() && toolCalls.length === 0 && !this.finish) throw new UpstreamError('the provider\'s stream ended before any answer', undefined, true)
    const reasoning = [this.reasoning, this.split.reasoning].filter(Boolean).join('\n')
    return { content: this.content, reasoning, toolCalls, usage: this.usage, model: this.model, finishReason: this.finish }
  }

  private addCall (tc: Obj): void {
    const fn = isObj(tc.function) ? tc.function : {}
    const name = str(fn.name)
    const args = str(fn.arguments)
    const id = str(tc.id)
    let cur: (ToolCallRequest & { key: string }) | undefined
    if (typeof tc.index === 'number') {
      // by index (need not start at 0: new-api's Claude bridge)
      const key = `i${tc.index}`
      cur = this.calls.find((c) => c.key === key)
      if (!cur) this.calls.push(cur = { key, id: '', name: '', arguments: '' })
    } else {
      // no index (Gemini, some relays): a delta with a name, or with an id other than the last call's, starts a call
      const last = this.calls.at(-1)
      const starts = !last || name !== '' || (id !== '' && last.id !== '' && id !== last.id)
      if (starts) this.calls.push(cur = { key: `n${this.calls.length}`, id: '', name: '', arguments: '' })
      else cur = last
    }
    if (id) cur.id = id // may come only with the first delta (Qwen)
    if (name) cur.name = name
    if (args) cur.arguments += args
    const extra = extraOf(tc)
    if (extra) cur.extra = { ...cur.extra, ...extra }
  }
}

/** Calls without an id (Gemini may send empty ones) get one: the tool results must name their call. */
function withIds (calls: ToolCallRequest[]): ToolCallRequest[] {
  calls.forEach((c, i) => { if (!c.id) c.id = `call_${i}_${c.name || 'tool'}` })
  return calls
}
