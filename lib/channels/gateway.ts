// The model gateway (ModelGateway of lib/chat/contracts.ts): the only way any domain calls a model.
// Picks the channel, rotates its keys with failover to the next key on 401/403/429/5xx within the
// same request, cools a failing key down, enforces the channel's timeout and, for streams, an idle
// timeout (the openai client's own timeout stops at the response headers), and records every request.
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { ChatMessage, ImageRequest, ModelGateway, ModelRequest, ModelResponse, ToolCallRequest, Usage } from '../chat/contracts.js'
import { channelSchema, type ChannelConfig } from '../config/schema.js'
import { AppError, errorText } from '../core/errors.js'
import { redact } from '../core/redact.js'
import type { Runtime } from '../runtime.js'
import { monthKey } from '../stats/cost.js'
import { buildClient, openaiModule, type TemplateContext } from './client.js'
import { AnswerTooLarge } from './fetch.js'
import { loadInputImage } from './image-input.js'
import { outboundAccess } from '../web/outbound.js'
import { jsonBodyOptions } from './request-body.js'
import { channelKeys, KeyPool, type ChannelKey, type KeyInfo } from './keys.js'
import type { ChannelService } from './service.js'

export interface CallOptions {
  /** Use only this key: no rotation, no failover (batch tests). */
  pinKey?: ChannelKey | undefined
  /** false: not recorded in statistics (quick test). */
  record?: boolean
  /** Allow a disabled named channel (test panel: test a channel before enabling it). */
  anyState?: boolean
}

export interface GatewayResponse extends ModelResponse { keyInfo: KeyInfo | null }

/**
 * Why one attempt failed, and what to do next. The message is redacted here: it becomes the answer,
 * the channel's lastError, the stats entry and the log line, and upstreams may echo the key in it.
 */
type FailureKind = 'key' | 'connection' | 'timeout' | 'model' | 'abort'
class Failure extends Error {
  constructor (readonly kind: FailureKind, message: string, readonly status?: number) { super(redact(message)) }
}

/** Usage with the prompt tokens the provider served from its cache (priced apart: lib/stats/cost.ts). */
type MeteredUsage = Usage & { cachedTokens?: number }

const ZERO: MeteredUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 }

export class ChannelGateway implements ModelGateway {
  readonly keys: KeyPool

  constructor (private readonly rt: Runtime, private readonly channels: ChannelService) {
    this.keys = new KeyPool(rt.clock)
  }

  complete (req: ModelRequest): Promise<ModelResponse> { return this.call(req) }

  stream (req: ModelRequest, onDelta: (text: string) => void): Promise<ModelResponse> { return this.call(req, onDelta) }

  /** complete/stream with options; the answer also says which key answered. */
  async call (req: ModelRequest, onDelta?: (text: string) => void, opts: CallOptions = {}): Promise<GatewayResponse> {
    const candidates = this.channels.candidates(req.channel, req.model, opts.anyState)
    let streamed = false
    const delta = onDelta ? (t: string): void => { streamed = true; onDelta(t) } : undefined
    let last: AppError | undefined
    for (const ch of candidates) {
      try {
        return await this.onChannel(ch, req, delta, opts)
      } catch (err) {
        // Another channel is tried only when none was named and no text reached the caller yet.
        if (!(err instanceof AppError) || req.channel || streamed || err.code === 'INVALID_ARGS') throw err
        if ((err as AppError & { abort?: boolean }).abort) throw err
        last = err
      }
    }
    throw last ?? new AppError('CHANNEL_UNAVAILABLE', 'No available channels')
  }

  /** OpenAI images API through a channel (drawing). */
  async generateImages (req: ImageRequest): Promise<string[]> {
    let ch: ChannelConfig
    if (req.api) {
      // an image API entry of the drawing config: a one-off channel with the channel defaults
      ch = channelSchema.parse({ name: req.api.name, baseUrl: req.api.baseUrl, apiKey: req.api.apiKey ?? '', model: req.model ?? '' })
    } else {
      const all = this.channels.candidates(req.channel, req.model)
      ch = req.channel ? all[0] as ChannelConfig : (all.find((c) => c.image.enabled) ?? all[0] as ChannelConfig)
    }
    const model = req.model || ch.image.model || ch.model
    const started = this.rt.clock.now()
    try {
      const input = req.image ? await loadInputImage(req.image, req.signal, outboundAccess(this.rt.config.get())) : undefined
      const urls = await this.withKeys(ch, {}, async (key) => this.guarded(ch, req.signal, false, async (signal) => {
        const { client } = await buildClient(ch, key, { model }, this.rt.clock.now(), ch.timeoutMs + 1000)
        const size = req.size ? { size: req.size as '1024x1024' } : {}
        const r = input && openaiModule
          ? await client.images.edit({ model, prompt: req.prompt, n: req.n ?? 1, image: await openaiModule.toFile(input.data, input.name, { type: input.type }), ...size }, { signal })
          : await client.images.generate({ model, prompt: req.prompt, n: req.n ?? 1, ...size }, { signal })
        return (r.data ?? []).map((d) => d.url ?? (d.b64_json ? `data:image/png;base64,${d.b64_json}` : '')).filter(Boolean)
      }))
      this.record(ch, model, 'image', undefined, ZERO, started, undefined)
      if (!req.api) this.channels.markOk(ch) // an image API entry is no channel: no channel status
      return urls.value
    } catch (err) {
      throw this.fail(ch, model, 'image', undefined, started, err, true, !req.api)
    }
  }

  /** The provider's model list (GET /models), with key failover. */
  async listModels (ch: ChannelConfig): Promise<string[]> {
    try {
      const r = await this.withKeys(ch, {}, (key) => this.guarded(ch, undefined, false, async (signal) => {
        const { client } = await buildClient(ch, key, { model: ch.model }, this.rt.clock.now(), ch.timeoutMs + 1000)
        const ids: string[] = []
        for await (const m of client.models.list({ signal })) ids.push(m.id)
        return ids
      }))
      return r.value.sort()
    } catch (err) {
      const f = toFailure(err)
      throw toAppError(ch, f)
    }
  }

  private async onChannel (ch: ChannelConfig, req: ModelRequest, onDelta: ((t: string) => void) | undefined, opts: CallOptions): Promise<GatewayResponse> {
    const model = req.model || ch.model || ch.models[0] || ''
    if (!model) throw new AppError('CHANNEL_UNAVAILABLE', `Channel ${ch.name} has no model configured`)
    const started = this.rt.clock.now()
    const record = opts.record !== false
    try {
      const { value, key } = await this.withKeys(ch, opts, (k) => this.attempt(ch, k, model, req, onDelta))
      // A relay may echo the key in an answer too: the text that is kept (conversations, test results) is redacted.
      const res: GatewayResponse = { ...value, content: redact(value.content), channel: ch.name, latencyMs: this.rt.clock.now() - started, keyInfo: key ? { name: key.name, index: key.index } : null }
      // a round that only asks for tools is no answer to the user (the stats' responses count answers)
      if (record) this.record(ch, model, req.source, req.scope, res.usage, started, undefined, res.toolCalls.length > 0)
      this.channels.markOk(ch)
      return res
    } catch (err) {
      throw this.fail(ch, model, req.source, req.scope, started, err, record)
    }
  }

  /** Runs `fn` with the channel's keys in rotation order, failing over to the next key on key errors. */
  private async withKeys<T>(ch: ChannelConfig, opts: CallOptions, fn: (key: ChannelKey | undefined) => Promise<T>): Promise<{ value: T; key: ChannelKey | undefined }> {
    const keys: Array<ChannelKey | undefined> = opts.pinKey ? [opts.pinKey] : this.keys.order(ch.name, channelKeys(ch))
    if (keys.length === 0) keys.push(undefined)
    let last: unknown
    for (const key of keys) {
      try {
        return { value: await fn(key), key }
      } catch (err) {
        last = err
        const f = toFailure(err)
        if (f.kind !== 'key') throw err
        if (key) {
          this.keys.cooldown(ch.name, key, ch.keyCooldownMs)
          this.rt.log.warn(`Channel ${ch.name}: key ${key.name} failed (${f.status ?? ''}), cooling down for ${ch.keyCooldownMs} ms`)
        }
        if ((err as { streamed?: boolean }).streamed) throw err
      }
    }
    throw last
  }

  /**
   * Runs one request under an AbortController that the caller's signal, the channel timeout and
   * (after the headers of a stream) the idle timer abort. `arm` resets the idle timer.
   */
  private async guarded<T>(ch: ChannelConfig, outer: AbortSignal | undefined, streaming: boolean, fn: (signal: AbortSignal, arm: () => void) => Promise<T>): Promise<T> {
    if (outer?.aborted) throw new Failure('abort', 'Request aborted')
    const ac = new AbortController()
    let reason: 'timeout' | 'idle' | undefined
    const clock = this.rt.clock
    let timer: NodeJS.Timeout | undefined = clock.setTimeout(() => { reason = 'timeout'; ac.abort() }, ch.timeoutMs)
    const arm = (): void => {
      if (timer) clock.clearTimeout(timer)
      timer = clock.setTimeout(() => { reason = 'idle'; ac.abort() }, ch.idleTimeoutMs)
    }
    const onAbort = (): void => { ac.abort() }
    outer?.addEventListener('abort', onAbort, { once: true })
    try {
      const value = await fn(ac.signal, streaming ? arm : () => {})
      if (reason || outer?.aborted) throw new Error('aborted')
      return value
    } catch (err) {
      if (reason === 'timeout') throw new Failure('timeout', `Model request timed out after ${ch.timeoutMs} ms`)
      if (reason === 'idle') throw Object.assign(new Failure('timeout', `Model stream stalled: no data for ${ch.idleTimeoutMs} ms`), { streamed: true })
      if (outer?.aborted) throw new Failure('abort', 'Request aborted')
      throw err
    } finally {
      if (timer) clock.clearTimeout(timer)
      outer?.removeEventListener('abort', onAbort)
    }
  }

  private attempt (ch: ChannelConfig, key: ChannelKey | undefined, model: string, req: ModelRequest, onDelta: ((t: string) => void) | undefined): Promise<Omit<ModelResponse, 'channel' | 'latencyMs' | 'usage'> & { usage: MeteredUsage }> {
    const streaming = Boolean(onDelta)
    return this.guarded(ch, req.signal, streaming, async (signal, arm) => {
      const ctx: TemplateContext = { model, userId: req.scope?.userId, groupId: req.scope?.groupId, nickname: req.scope?.nickname }
      const { client, extraBody } = await buildClient(ch, key, ctx, this.rt.clock.now(), ch.timeoutMs + 1000)
      const body = {
        model,
        messages: req.messages.map(toOpenAIMessage),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
        ...(req.topP !== undefined ? { top_p: req.topP } : {}),
        ...(req.frequencyPenalty !== undefined ? { frequency_penalty: req.frequencyPenalty } : {}),
        ...(req.presencePenalty !== undefined ? { presence_penalty: req.presencePenalty } : {}),
        ...(req.tools?.length ? { tools: req.tools.map(toOpenAITool) } : {}),
        ...extraBody
      }
      if (!onDelta) {
        const r = await client.chat.completions.create({ ...body, stream: false }, { signal, ...jsonBodyOptions({ ...body, stream: false }) })
        const choice = r.choices[0]
        return {
          content: choice?.message.content ?? '',
          toolCalls: (choice?.message.tool_calls ?? []).flatMap((t) => (t.type === 'function' ? [{ id: t.id, name: t.function.name, arguments: t.function.arguments }] : [])),
          usage: toUsage(r.usage),
          model: r.model || model,
          finishReason: choice?.finish_reason ?? 'stop'
        }
      }
      const streamed = { ...body, stream: true as const, stream_options: { include_usage: true } }
      const stream = await client.chat.completions.create(streamed, { signal, ...jsonBodyOptions(streamed) })
      arm()
      let content = ''
      let finishReason = 'stop'
      let usage = ZERO
      let answeredModel = model
      const calls = new Map<number, ToolCallRequest>()
      let sent = false
      try {
        for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
          arm()
          if (chunk.model) answeredModel = chunk.model
          if (chunk.usage) usage = toUsage(chunk.usage)
          const choice = chunk.choices[0]
          if (!choice) continue
          if (choice.finish_reason) finishReason = choice.finish_reason
          const text = choice.delta.content
          if (text) { content += text; sent = true; onDelta(text) }
          for (const tc of choice.delta.tool_calls ?? []) {
            const cur = calls.get(tc.index) ?? { id: '', name: '', arguments: '' }
            if (tc.id) cur.id = tc.id
            if (tc.function?.name) cur.name = tc.function.name
            if (tc.function?.arguments) cur.arguments += tc.function.arguments
            calls.set(tc.index, cur)
          }
        }
      } catch (err) {
        // Text already reached the caller: no key failover (it would repeat the text).
        throw sent ? Object.assign(err as object, { streamed: true }) : err
      }
      return { content, toolCalls: [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c), usage, model: answeredModel, finishReason }
    })
  }

  private fail (ch: ChannelConfig, model: string, source: ModelRequest['source'], scope: ModelRequest['scope'], started: number, err: unknown, record: boolean, health = true): AppError {
    if (err instanceof AppError) return err
    const f = toFailure(err)
    if (record) this.record(ch, model, source, scope, ZERO, started, f.message)
    if (health && (f.kind === 'key' || f.kind === 'connection' || f.kind === 'timeout')) this.channels.markError(ch, f.message)
    if (f.kind !== 'abort') this.rt.log.warn(`Model request on channel ${ch.name} failed: ${f.message}`, { channel: ch.name, model })
    const e = toAppError(ch, f)
    if (f.kind === 'abort') Object.assign(e, { abort: true })
    return e
  }

  private record (ch: ChannelConfig, model: string, source: ModelRequest['source'], scope: ModelRequest['scope'], usage: MeteredUsage, started: number, error: string | undefined, toolRound = false): void {
    const now = this.rt.clock.now()
    this.rt.stats.recordModelRequest({
      source,
      channelId: this.channels.idOf(ch),
      channelName: ch.name,
      model,
      ...(scope?.userId ? { userId: scope.userId } : {}),
      ...(scope?.nickname ? { nickname: scope.nickname } : {}),
      ...(scope?.groupId ? { groupId: scope.groupId } : {}),
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      ...(usage.cachedTokens ? { cachedTokens: usage.cachedTokens } : {}),
      month: monthKey(now, this.rt.config.get().pricing.timezone),
      latencyMs: now - started,
      success: error === undefined,
      ...(error !== undefined ? { error } : {}),
      ...(toolRound ? { toolRound } : {})
    })
  }
}

function toFailure (err: unknown): Failure {
  if (err instanceof Failure) return err
  // read up to its limit (fetch.ts), thrown by the read or by the client around it: the channel is broken
  const tooLarge = err instanceof AnswerTooLarge ? err : (err as { cause?: unknown } | null)?.cause
  if (tooLarge instanceof AnswerTooLarge) return new Failure('connection', `Channel answer refused: ${tooLarge.message}`)
  // Errors of the openai client can only exist once it was loaded by buildClient.
  if (!openaiModule) return new Failure('model', errorText(err))
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openaiModule
  if (err instanceof APIUserAbortError) return new Failure('abort', 'Request aborted')
  if (err instanceof APIConnectionTimeoutError) return new Failure('timeout', 'Model request timed out')
  if (err instanceof APIConnectionError) return new Failure('connection', `Channel unreachable: ${err.message}`)
  if (err instanceof APIError) {
    const s = err.status ?? 0
    const kind: FailureKind = s === 401 || s === 403 || s === 429 || s >= 500 ? 'key' : 'model'
    return new Failure(kind, err.message, s)
  }
  return new Failure('model', errorText(err))
}

function toAppError (ch: ChannelConfig, f: Failure): AppError {
  switch (f.kind) {
    case 'timeout': return new AppError('TIMEOUT', `Channel ${ch.name}: ${f.message}`)
    case 'connection': return new AppError('CHANNEL_UNAVAILABLE', `Channel ${ch.name}: ${f.message}`)
    case 'abort': return new AppError('MODEL_ERROR', 'Request aborted')
    default: return new AppError('MODEL_ERROR', `Channel ${ch.name}: ${f.message}`)
  }
}

function toUsage (u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } } | null | undefined): MeteredUsage {
  const promptTokens = u?.prompt_tokens ?? 0
  const completionTokens = u?.completion_tokens ?? 0
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0
  return { promptTokens, completionTokens, totalTokens: u?.total_tokens ?? promptTokens + completionTokens, ...(cached > 0 ? { cachedTokens: cached } : {}) }
}

function toOpenAIMessage (m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content }
  if (m.role === 'assistant') {
    return m.toolCalls?.length
      ? { role: 'assistant', content: m.content || null, tool_calls: m.toolCalls.map((t) => ({ id: t.id, type: 'function' as const, function: { name: t.name, arguments: t.arguments } })) }
      : { role: 'assistant', content: m.content }
  }
  if (m.role === 'system') return { role: 'system', content: m.content }
  const content = m.images?.length
    ? [{ type: 'text' as const, text: m.content }, ...m.images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))]
    : m.content
  return m.name ? { role: 'user', content, name: m.name } : { role: 'user', content }
}

function toOpenAITool (t: { name: string; description: string; parameters: Record<string, unknown> }): ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }
}
