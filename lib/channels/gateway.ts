// The model gateway (ModelGateway of lib/chat/contracts.ts): the only way any domain calls a model.
// Picks the channel, rotates its keys with failover to the next key on 401/403/429/5xx within the
// same request, cools a failing key down, enforces the channel's timeout and, for streams, an idle
// timeout (the openai client's own timeout stops at the response headers), and records every request.
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { ChatMessage, ImageRequest, ModelGateway, ModelRequest, ModelResponse } from '../chat/contracts.js'
import { stripReasoning } from '../chat/reasoning.js'
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
import { profileOf, type ProviderProfile, type ReasoningBack } from './profiles.js'
import { estimateUsage, toUsage, ZERO, type MeteredUsage } from './usage.js'
import { readWhole, StreamReader, UpstreamError, type WireAnswer } from './wire.js'

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
  /** `retryAfterMs`: the provider's Retry-After, when it sent one (the channel is tried again after it) */
  constructor (readonly kind: FailureKind, message: string, readonly status?: number, readonly retryAfterMs?: number) { super(redact(message)) }
}

export class ChannelGateway implements ModelGateway {
  readonly keys: KeyPool
  private readonly profilesSaid = new Set<string>()

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
      const all = this.channels.preview(req.channel, req.model)
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
      if (record) this.record(ch, model, req.source, req.scope, value.usage, started, undefined, res.toolCalls.length > 0)
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
    const profile = this.profileFor(ch)
    return this.guarded(ch, req.signal, streaming, async (signal, arm) => {
      const ctx: TemplateContext = { model, userId: req.scope?.userId, groupId: req.scope?.groupId, nickname: req.scope?.nickname }
      const { client, extraBody } = await buildClient(ch, key, ctx, this.rt.clock.now(), ch.timeoutMs + 1000)
      const back = profile.reasoningBack(model)
      const body = {
        model,
        messages: withCacheMarkers(req.messages.map((m) => toOpenAIMessage(m, back)), profile.cacheMarkers(model)),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
        ...(req.topP !== undefined ? { top_p: req.topP } : {}),
        ...(req.frequencyPenalty !== undefined ? { frequency_penalty: req.frequencyPenalty } : {}),
        ...(req.presencePenalty !== undefined ? { presence_penalty: req.presencePenalty } : {}),
        ...(req.tools?.length ? { tools: req.tools.map(toOpenAITool) } : {}),
        ...extraBody
      }
      if (!onDelta) {
        const r: unknown = await client.chat.completions.create({ ...body, stream: false }, { signal, ...jsonBodyOptions({ ...body, stream: false }) })
        return await this.answerOf(readWhole(r, profile), model, req)
      }
      const streamed = { ...body, stream: true as const, ...(profile.streamUsage ? { stream_options: { include_usage: true } } : {}) }
      const stream = await client.chat.completions.create(streamed, { signal, ...jsonBodyOptions(streamed) })
      arm()
      const reader = new StreamReader(profile)
      let sent = false
      let answer: WireAnswer
      try {
        for await (const chunk of stream as AsyncIterable<unknown>) {
          arm()
          const text = reader.push(chunk)
          if (text) { sent = true; onDelta(text) }
        }
        const tail = reader.end()
        if (tail) { sent = true; onDelta(tail) }
        answer = reader.result()
      } catch (err) {
        // a read that broke off (the socket closed, undici's "terminated") is the channel's failure
        const e = err instanceof UpstreamError || signal.aborted || (openaiModule && err instanceof openaiModule.APIError)
          ? err
          : new Failure('connection', `The provider's stream broke off: ${errorText(err)}`)
        // Text already reached the caller: no key failover (it would repeat the text).
        throw sent ? Object.assign(e as object, { streamed: true }) : e
      }
      return await this.answerOf(answer, model, req)
    })
  }

  /** The answer as the chat gets it: the text without reasoning, the usage (estimated when none came). */
  private async answerOf (a: WireAnswer, model: string, req: ModelRequest): Promise<Omit<ModelResponse, 'channel' | 'latencyMs' | 'usage'> & { usage: MeteredUsage }> {
    // a closing tag with no opening one (the reasoning went to a field, a stray `</think>` stayed): lib/chat/reasoning.ts
    const content = stripReasoning(a.content)
    const usage = toUsage(a.usage) ?? await estimateUsage(req.messages, req.tools, a)
    return {
      content,
      ...(a.reasoning ? { reasoning: a.reasoning } : {}),
      ...(usage.estimated ? { usageEstimated: true } : {}),
      toolCalls: a.toolCalls,
      usage,
      model: a.model || model,
      finishReason: a.finishReason ?? 'stop'
    }
  }

  /** The channel's provider profile; a guessed one is logged once per channel and base URL. */
  private profileFor (ch: ChannelConfig): ProviderProfile {
    const { profile, guessed } = profileOf(ch)
    const said = `${ch.name}\n${ch.baseUrl}\n${profile.name}`
    if (guessed && !this.profilesSaid.has(said)) {
      this.profilesSaid.add(said)
      this.rt.log.info(`Channel ${ch.name}: provider profile ${profile.name} (guessed from the base URL; set channels[].profile to choose)`, { channel: ch.name, profile: profile.name })
    }
    return profile
  }

  private fail (ch: ChannelConfig, model: string, source: ModelRequest['source'], scope: ModelRequest['scope'], started: number, err: unknown, record: boolean, health = true): AppError {
    if (err instanceof AppError) return err
    const f = toFailure(err, this.rt.clock.now())
    if (record) this.record(ch, model, source, scope, ZERO, started, f.message)
    if (health && (f.kind === 'key' || f.kind === 'connection' || f.kind === 'timeout')) this.channels.markError(ch, f.message, f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {})
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
      ...(usage.estimated ? { estimated: true } : {}),
      month: monthKey(now, this.rt.config.get().pricing.timezone),
      latencyMs: now - started,
      success: error === undefined,
      ...(error !== undefined ? { error } : {}),
      ...(toolRound ? { toolRound } : {})
    })
  }
}

function toFailure (err: unknown, now = Date.now()): Failure {
  if (err instanceof Failure) return err
  // read up to its limit (fetch.ts), thrown by the read or by the client around it: the channel is broken
  const tooLarge = err instanceof AnswerTooLarge ? err : (err as { cause?: unknown } | null)?.cause
  if (tooLarge instanceof AnswerTooLarge) return new Failure('connection', `Channel answer refused: ${tooLarge.message}`)
  // an error in a 200's body or frame (wire.ts); an empty or cut-off answer is the channel's failure
  if (err instanceof UpstreamError) return err.empty ? new Failure('connection', err.message) : new Failure(kindOf(err.status), err.message, err.status)
  // Errors of the openai client can only exist once it was loaded by buildClient.
  if (!openaiModule) return new Failure('model', errorText(err))
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openaiModule
  if (err instanceof APIUserAbortError) return new Failure('abort', 'Request aborted')
  if (err instanceof APIConnectionTimeoutError) return new Failure('timeout', 'Model request timed out')
  if (err instanceof APIConnectionError) return new Failure('connection', `Channel unreachable: ${err.message}`)
  if (err instanceof APIError) {
    // no status: an error frame in a 200 stream (OpenRouter), the provider's own words in it
    if (err.status === undefined) {
      const e = err.error as { message?: unknown; code?: unknown } | undefined
      const status = typeof e?.code === 'number' && e.code >= 400 && e.code <= 599 ? e.code : undefined
      return new Failure(kindOf(status), typeof e?.message === 'string' && e.message ? e.message : err.message, status)
    }
    return new Failure(kindOf(err.status), err.message, err.status, retryAfterMs(err.headers, now))
  }
  return new Failure('model', errorText(err))
}

/**
 * A request the provider refused as such (bad parameters, unknown model: another key or channel would
 * answer the same) is the model's error; every other failure (keys, balance, limits, the provider down,
 * an error it reported without a status) is the channel's: the next key, then the next channel.
 */
function kindOf (status: number | undefined): FailureKind {
  return status === 400 || status === 404 || status === 409 || status === 413 || status === 422 ? 'model' : 'key'
}

/**
 * The provider's wait before the next try, in ms (at most a day): OpenAI's `retry-after-ms`, else
 * Retry-After in seconds or as an HTTP date (one already past: 0); undefined when absent or unreadable.
 */
function retryAfterMs (headers: { get(name: string): string | null } | undefined, now: number): number | undefined {
  const precise = Number(headers?.get('retry-after-ms') ?? NaN)
  if (Number.isFinite(precise) && precise >= 0) return Math.min(precise, 86_400_000)
  const v = headers?.get('retry-after')?.trim()
  if (!v) return undefined
  const ms = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 86_400_000) : undefined
}

function toAppError (ch: ChannelConfig, f: Failure): AppError {
  switch (f.kind) {
    case 'timeout': return new AppError('TIMEOUT', `Channel ${ch.name}: ${f.message}`)
    case 'connection': return new AppError('CHANNEL_UNAVAILABLE', `Channel ${ch.name}: ${f.message}`)
    case 'abort': return new AppError('MODEL_ERROR', 'Request aborted')
    default: return new AppError('MODEL_ERROR', `Channel ${ch.name}: ${f.message}`)
  }
}

/**
 * A message as the provider gets it. An assistant message that made tool calls carries its calls' own
 * provider fields back (Gemini's thought signature) and, where the profile says, its reasoning
 * (`reasoning_content`, or the `<think>` block it came in); no other message ever carries reasoning.
 */
function toOpenAIMessage (m: ChatMessage, back: ReasoningBack): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content }
  if (m.role === 'assistant') {
    if (!m.toolCalls?.length) return { role: 'assistant', content: m.content }
    const reasoning = m.reasoning && back ? m.reasoning : ''
    const content = reasoning && back === 'think' ? `<think>${reasoning}</think>\n${m.content}` : m.content
    const msg = {
      role: 'assistant' as const,
      content: content || null,
      tool_calls: m.toolCalls.map((t) => ({ ...t.extra, id: t.id, type: 'function' as const, function: { name: t.name, arguments: t.arguments } })),
      ...(reasoning && back === 'field' ? { reasoning_content: reasoning } : {})
    }
    return msg
  }
  if (m.role === 'system') return { role: 'system', content: m.content }
  const content = m.images?.length
    ? [{ type: 'text' as const, text: m.content }, ...m.images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))]
    : m.content
  return m.name ? { role: 'user', content, name: m.name } : { role: 'user', content }
}

/** A text part with Anthropic's cache marker (not in the OpenAI SDK's types; relayed as is). */
interface MarkedText { type: 'text'; text: string; cache_control: { type: 'ephemeral' } }

/**
 * Marks where the request's stable start ends (lib/chat/README.md, "Request layout") for models that cache
 * only marked blocks: the system message, and the previous turn's user message (what follows it changes
 * little; a provider looks back from a marker for the longest cached start). Two of the four allowed.
 */
function withCacheMarkers (messages: ChatCompletionMessageParam[], on: boolean): ChatCompletionMessageParam[] {
  if (!on) return messages
  const users = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []))
  const marked = new Set([messages.findIndex((m) => m.role === 'system'), users.length >= 2 ? users[users.length - 2] : -1])
  return messages.map((m, i) => {
    if (!marked.has(i) || (m.role !== 'system' && m.role !== 'user') || typeof m.content !== 'string' || !m.content) return m
    const part: MarkedText = { type: 'text', text: m.content, cache_control: { type: 'ephemeral' } }
    return m.role === 'system' ? { ...m, content: [part] } : { ...m, content: [part] }
  })
}

function toOpenAITool (t: { name: string; description: string; parameters: Record<string, unknown> }): ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }
}
