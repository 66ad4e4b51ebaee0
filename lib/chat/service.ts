// The chat pipeline (ChatService.reply): rate limit, per-conversation serialisation, preset, the
// request laid out stable parts first (README.md of this folder, "Request layout": system prompt with the
// conversation's sections, history with each message's stored note, then the new message with its note
// and this turn's sections), context window, model call with the tool loop, storage, observers and
// statistics.
import { AppError, errorText } from '../core/errors.js'
import type { RateLimiter } from '../core/rate-limit.js'
import type { Runtime } from '../runtime.js'
import { planContext } from './context.js'
import { PROMPT_SLOTS, SLOT_PLACE, type ChatMessage, type ChatScope, type ChatService, type ModelGateway, type ModelRequest, type ModelResponse, type ResolvedPreset, type ToolCallRequest, type TurnContext, type TurnEvent, type Usage, type ApprovalState } from './contracts.js'
import { KeyedQueue } from './queue.js'
import { TurnDeadline } from './deadline.js'
import type { ConversationStore } from './store.js'
import { ContextSummarizer } from './summary.js'
import { MAX_MEDIA, type Media } from '../delivery/media.js'
import { PrefixMemory, type PrefixReuse } from './prefix.js'
import { timeStamp, turnNote, userContent } from './turn-note.js'
import { isSharedConversation } from './scope.js'

export type ReplyOptions = NonNullable<Parameters<ChatService['reply']>[2]>
export type ReplyResult = Awaited<ReturnType<ChatService['reply']>>

/** In-memory state of a conversation that had a turn since start-up (GET /api/context/list). */
export interface ActiveContext {
  conversationId: string
  userId: string
  groupId: string
  turns: number
  processing: boolean
  lastActiveAt: number
}

/** What a turn's model calls report to: the streamed text, the turn's events, each model answer. */
interface TurnHooks {
  onDelta?: (t: string) => void
  onEvent: (ev: TurnEvent) => void
  onAnswered: (res: ModelResponse, prefix: PrefixReuse) => void
}

/** A turn's contributed sections by where they go (SLOT_PLACE). */
interface Sections { system: string[]; note: string[]; turn: string[]; noteTainted: boolean }

const DEFAULT_PROMPT = '你是灵犀，一个友好、乐于助人的 AI 助手。请简洁、准确地回答。'
const MAX_TOOL_RESULT_CHARS = 20000

export class ChatPipeline implements ChatService {
  private readonly queue = new KeyedQueue()
  private readonly limiter: RateLimiter
  private readonly active = new Map<string, ActiveContext>()
  /** images the tools of a turn returned: sent with the answer (lib/delivery), not only described to the model */
  private readonly toolMedia = new WeakMap<TurnContext, Media[]>()
  /** how much of each conversation's previous request the next one starts with (the why record) */
  private readonly prefixes = new PrefixMemory()
  readonly summarizer: ContextSummarizer

  constructor (private readonly rt: Runtime, private readonly conversations: ConversationStore) {
    // counted across instances when they share Redis (lib/storage/README.md, "Redis")
    this.limiter = rt.rateLimiter('chat', () => rt.config.get().chat.userRateLimitPerMinute, 60_000)
    this.summarizer = new ContextSummarizer(rt, conversations)
  }

  async reply (scope: ChatScope, input: string, opts: ReplyOptions = {}): Promise<ReplyResult> {
    await this.admit(scope)
    return await this.admitted(scope, input, opts)
  }

  /** Counts a message against the user's rate limit; throws RATE_LIMITED when over it. */
  async admit (scope: Pick<ChatScope, 'userId'>): Promise<void> {
    const { ok, retryAfterMs } = await this.limiter.admit(scope.userId)
    if (!ok) {
      const s = Math.ceil(retryAfterMs / 1000)
      throw new AppError('RATE_LIMITED', `Too many requests; try again in ${s} s`)
    }
  }

  /** reply() for a message that already passed admit() (a stream checks before its first frame). */
  async admitted (scope: ChatScope, input: string, opts: ReplyOptions = {}): Promise<ReplyResult> {
    return await this.queue.run(scope.conversationId, async () => await this.turn(scope, input, opts))
  }

  contexts (): ActiveContext[] {
    return [...this.active.values()].sort((a, b) => b.lastActiveAt - a.lastActiveAt)
  }

  /** Forgets the "why" records (lib/why) of one conversation, or of all: they go with the conversation. */
  async forgetRecords (conversationId?: string): Promise<void> {
    const why = this.rt.optional('why')
    if (why) await (conversationId === undefined ? why.store.clear() : why.store.forget(conversationId))
  }

  /** Runs `fn` once the conversation's turns queued before it have ended (a clear then covers them too). */
  afterTurns<T> (conversationId: string, fn: () => Promise<T>): Promise<T> { return this.queue.run(conversationId, fn) }

  /** Forgets a conversation's in-memory context; true when there was one. */
  forget (conversationId: string): boolean {
    this.prefixes.forget(conversationId)
    return this.active.delete(conversationId)
  }

  /** Resets every in-memory state: queues, rate counters, active contexts. */
  reset (): void {
    this.queue.reset()
    this.limiter.reset()
    this.active.clear()
    this.prefixes.forget()
  }

  private async turn (scope: ChatScope, input: string, opts: ReplyOptions): Promise<ReplyResult> {
    const rt = this.rt
    const models = rt.optional('models')
    if (!models) throw new AppError('CHANNEL_UNAVAILABLE', 'No model channel is available')
    const ctx = this.touch(scope)
    ctx.processing = true
    let deadline: TurnDeadline | undefined
    try {
      const preset = await this.preset(scope, opts.presetId)
      // the answer's "why" record (lib/why): the contributors note into it, the model calls and events below
      const whys = rt.optional('why')
      const why = whys?.begin(scope, preset, input)
      const turn: TurnContext = { scope, preset, input, taint: new Set(opts.taint), ...(opts.onlyTools ? { onlyTools: new Set(opts.onlyTools) } : {}), ...(opts.images?.length ? { images: opts.images } : {}), ...(why ? { trace: why } : {}) }
      const cfg = rt.config.get()
      // the turn's deadline (chat.timeoutSeconds), paused while a call waits for a person; cleared when the turn ends
      const limit = deadline = new TurnDeadline(rt.clock, cfg.chat.timeoutSeconds * 1000)
      const hooks: TurnHooks = {
        ...(opts.onDelta ? { onDelta: opts.onDelta } : {}),
        onEvent: (ev) => {
          limit.follow(ev)
          why?.event(ev)
          try { opts.onEvent?.(ev) } catch (err) { rt.log.warn('A turn event listener failed', { error: errorText(err) }) }
        },
        onAnswered: (res, prefix) => why?.answered(res, prefix)
      }
      const stored = this.conversations.get(scope.conversationId)
      const last = stored?.messages[stored.messages.length - 1]
      if (last?.role === 'assistant') turn.previous = { at: last.timestamp, answer: last.content }
      const sections = opts.systemPromptOverride === undefined ? await this.sections(turn) : { system: [], note: [], turn: [], noteTainted: false }
      const systemPrompt = opts.systemPromptOverride ?? [preset.systemPrompt, ...sections.system].filter((p) => p.trim()).join('\n\n')
      // the note heads the message and is stored with it: later turns replay it unchanged
      const note = turnNote(sections.note, timeStamp(rt.clock.now(), cfg.chat.turnTime, cfg.language), isSharedConversation(scope) ? undefined : scope.nickname || scope.userId)
      const plan = planContext(cfg.context, systemPrompt, stored?.messages ?? [], userContent(input, note, sections.turn), stored?.summary)
      // others' words replayed from earlier notes (the group's messages) still reach the model
      if (plan.window.some((m) => m.foreign)) turn.taint?.add('groupLog')
      const messages = plan.messages
      // the last few turns before this message: which tools are relevant (lib/tools/select.ts)
      turn.recent = plan.window.slice(-6).map((m) => m.content).join('\n')
      const asked = messages[messages.length - 1]
      if (asked && opts.images?.length) asked.images = opts.images
      const signal = opts.signal ? AbortSignal.any([opts.signal, limit.signal]) : limit.signal
      const base: Omit<ModelRequest, 'messages'> = {
        source: 'chat',
        signal,
        scope: { userId: scope.userId, ...(scope.groupId ? { groupId: scope.groupId } : {}), ...(scope.nickname ? { nickname: scope.nickname } : {}) },
        ...sampling(preset, opts),
        ...(opts.channel ? { channel: opts.channel } : {}),
        ...(opts.model ? { model: opts.model } : {})
      }
      const toolsOn = (opts.toolsEnabled ?? preset.tools.enabled) && cfg.tools.enabled && rt.chat.tools !== undefined
      const { content, usage } = await this.complete(models, base, messages, turn, toolsOn, hooks).catch(async (err: unknown) => {
        // A model without vision refuses image parts (400): ask again with the images as text links.
        if (!(asked?.images && err instanceof AppError && err.code === 'MODEL_ERROR')) throw err
        rt.log.warn('The model refused the images; sent as links instead', { model: base.model ?? '' })
        asked.content = withImages(asked.content, asked.images)
        delete asked.images
        return await this.complete(models, base, messages, turn, toolsOn, hooks)
      }).catch((err: unknown) => {
        if (limit.signal.aborted && !opts.signal?.aborted) throw new AppError('TIMEOUT', `No answer within chat.timeoutSeconds (${cfg.chat.timeoutSeconds} s)`)
        throw err
      }).finally(() => { limit.clear() })
      const now = rt.clock.now()
      // The history in memory is updated at once; the answer goes out while the journal line is synced
      // (a bot reply need not wait for the disk; the next turn and the API still wait for both).
      const persisted = this.conversations.append({ id: scope.conversationId, userId: scope.userId, ...(scope.groupId ? { groupId: scope.groupId } : {}) },
        [{ role: 'user', content: input, timestamp: now, ...(note ? { note } : {}), ...(sections.noteTainted ? { foreign: true as const } : {}) }, { role: 'assistant', content, timestamp: now }])
      // counted before the answer goes out: a host may end the process as soon as the user has it
      rt.stats.recordMessage({ userId: scope.userId, ...(scope.nickname ? { nickname: scope.nickname } : {}), ...(scope.groupId ? { groupId: scope.groupId } : {}) })
      await Promise.all([persisted, opts.onAnswer?.(content, this.toolMedia.get(turn)), why && whys?.keep(why, usage, now)])
      this.summarizer.afterTurn(scope.conversationId, plan.dropped)
      ctx.turns++
      this.observe(turn, { user: input, assistant: content })
      return { response: content, usage, conversationId: scope.conversationId, ...(why ? { whyId: why.id } : {}) }
    } finally {
      deadline?.clear()
      ctx.processing = false
      ctx.lastActiveAt = rt.clock.now()
    }
  }

  /** Model call(s): with tools, up to tools.maxRounds rounds of tool calls, then a final answer. */
  private async complete (models: ModelGateway, base: Omit<ModelRequest, 'messages'>, messages: ChatMessage[], turn: TurnContext, toolsOn: boolean, hooks: TurnHooks): Promise<{ content: string; usage: Usage }> {
    const usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 }
    const tools = toolsOn ? this.rt.chat.tools : undefined
    const definitions = tools ? await tools.definitionsFor(turn) : []
    const maxRounds = this.rt.config.get().tools.maxRounds
    for (let round = 0; ; round++) {
      const offer = tools && definitions.length && round < maxRounds
      const req: ModelRequest = { ...base, messages, ...(offer ? { tools: definitions } : {}) }
      const prefix = this.prefixes.observe(turn.scope.conversationId, messages, offer ? definitions : undefined)
      const res = await call(models, req, hooks.onDelta).catch((err: unknown) => {
        throw offer && err instanceof AppError && err.code === 'MODEL_ERROR' && refusesToolList(err.message) ? new ToolListRefused(err) : err
      })
      addUsage(usage, res.usage)
      hooks.onAnswered(res, prefix)
      if (!offer || !tools || !res.toolCalls.length) return { content: res.content, usage }
      // the reasoning rides along for the provider's send-back rule (lib/channels/profiles.ts); it is never stored
      messages.push({ role: 'assistant', content: res.content, toolCalls: res.toolCalls, ...(res.reasoning ? { reasoning: res.reasoning } : {}) })
      const results = await Promise.all(res.toolCalls.map(async (c) => await this.tracedTool(c, turn, hooks.onEvent)))
      res.toolCalls.forEach((c, i) => messages.push({ role: 'tool', toolCallId: c.id, name: c.name, content: results[i] ?? '' }))
    }
  }

  /** A tool call with its events: called, approval asked and answered, result. */
  private async tracedTool (c: ToolCallRequest, turn: TurnContext, onEvent: (ev: TurnEvent) => void): Promise<string> {
    onEvent({ type: 'tool_call', id: c.id, name: c.name, arguments: c.arguments })
    const started = performance.now()
    const result = await this.runTool(c, turn, (state) => onEvent({ type: 'tool_approval', id: c.id, name: c.name, state }))
    onEvent({ type: 'tool_result', id: c.id, name: c.name, result, isError: result.startsWith('Error: '), durationMs: Math.round(performance.now() - started) })
    return result
  }

  private async runTool (c: ToolCallRequest, turn: TurnContext, onApproval: (state: ApprovalState) => void): Promise<string> {
    const tools = this.rt.chat.tools
    if (!tools) return 'Error: tools are not available'
    let args: Record<string, unknown>
    try {
      const parsed: unknown = c.arguments.trim() ? JSON.parse(c.arguments) : {}
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'Error: tool arguments must be a JSON object'
      args = parsed as Record<string, unknown>
    } catch {
      return 'Error: tool arguments are not valid JSON'
    }
    try {
      const r = await tools.execute(c.name, args, { ...turn, toolCall: { id: c.id, onApproval } })
      const text = r.content.map((p) => p.type === 'text' ? p.text : `[image ${p.mimeType}${this.keepImage(turn, p.data) ? ': sent to the user with your answer' : ''}]`).join('\n')
      return (r.isError ? `Error: ${text}` : text).slice(0, MAX_TOOL_RESULT_CHARS)
    } catch (err) {
      this.rt.log.warn('Tool call failed', { tool: c.name, error: errorText(err) })
      return `Error: ${errorText(err)}`
    }
  }

  /** Keeps a tool's image for the answer; false past MAX_MEDIA. */
  private keepImage (turn: TurnContext, base64: string): boolean {
    let list = this.toolMedia.get(turn)
    if (!list) this.toolMedia.set(turn, (list = []))
    if (list.length >= MAX_MEDIA) return false
    list.push({ kind: 'image', src: `base64://${base64}` })
    return true
  }

  /** The preset a turn of this scope uses (the given one, else the user's or group's choice, else the default). */
  async preset (scope: ChatScope, presetId?: string): Promise<ResolvedPreset> {
    const resolver = this.rt.chat.presets
    if (resolver) return await resolver.resolve(scope, presetId)
    const cfg = this.rt.config.get()
    return {
      id: presetId || cfg.llm.defaultChatPresetId || 'default',
      name: 'Default',
      systemPrompt: DEFAULT_PROMPT,
      tools: { enabled: cfg.tools.enabled, allowedTools: cfg.tools.allowedTools, excludedTools: cfg.tools.disabledTools, allowDangerous: cfg.tools.allowDangerous },
      memory: { enabled: cfg.memory.enabled, maxMemories: cfg.memory.maxMemoriesInPrompt }
    }
  }

  /** The contributors' sections by where they go, each place in slot order (PROMPT_SLOTS); two in one
   * slot keep the order they were added in (sort is stable). */
  private async sections (turn: TurnContext): Promise<Sections> {
    const out: Sections = { system: [], note: [], turn: [], noteTainted: false }
    const contributors = [...this.rt.chat.contributors].sort((a, b) => PROMPT_SLOTS.indexOf(a.slot) - PROMPT_SLOTS.indexOf(b.slot))
    for (const c of contributors) {
      const before = turn.taint?.size ?? 0
      try {
        const s = await c.contribute(turn)
        if (s?.trim()) out[SLOT_PLACE[c.slot]].push(s.trim())
      } catch (err) {
        // A failing section (memory, knowledge) must not cost the user the answer.
        this.rt.log.warn('Prompt contributor failed', { contributor: c.name, error: errorText(err) })
      }
      // a note that brought others' words taints the later turns that replay it (StoredMessage.foreign)
      if (SLOT_PLACE[c.slot] === 'note' && (turn.taint?.size ?? 0) > before) out.noteTainted = true
    }
    return out
  }

  private observe (turn: TurnContext, exchange: { user: string; assistant: string }): void {
    for (const o of this.rt.chat.observers) {
      try {
        void Promise.resolve(o.afterTurn(turn, exchange)).catch((err: unknown) => this.observerFailed(o.name, err))
      } catch (err) {
        this.observerFailed(o.name, err)
      }
    }
  }

  private observerFailed (name: string, err: unknown): void {
    this.rt.log.warn('Turn observer failed', { observer: name, error: errorText(err) })
  }

  private touch (scope: ChatScope): ActiveContext {
    let c = this.active.get(scope.conversationId)
    if (!c) {
      c = { conversationId: scope.conversationId, userId: scope.userId, groupId: scope.groupId ?? '', turns: 0, processing: false, lastActiveAt: this.rt.clock.now() }
      this.active.set(scope.conversationId, c)
      if (this.active.size > 5000) {
        const oldest = this.active.keys().next().value
        if (oldest !== undefined) this.active.delete(oldest)
      }
    }
    return c
  }
}

/** The channel refused the request because of its tool list: the user is told so (chat.toolsRefused). */
export class ToolListRefused extends AppError {
  constructor (cause: AppError) { super('MODEL_ERROR', `The channel refused the tool list: ${cause.message}`, { cause }) }
}

/** An HTTP 400 naming tools or functions (too many, a bad name or schema, no function calling). */
const refusesToolList = (message: string): boolean =>
  /\b400\b/.test(message) && /\b(tools?|functions?|function_call|tool_choice)\b/i.test(message)

async function call (models: ModelGateway, req: ModelRequest, onDelta?: (t: string) => void): Promise<ModelResponse> {
  try {
    return onDelta ? await models.stream(req, onDelta) : await models.complete(req)
  } catch (err) {
    if (err instanceof AppError) throw err
    if (req.signal?.aborted) throw new AppError('TIMEOUT', 'The model did not answer in time')
    throw new AppError('MODEL_ERROR', `Model error: ${errorText(err)}`.slice(0, 300))
  }
}

function sampling (p: ResolvedPreset, opts: ReplyOptions): Partial<ModelRequest> {
  const out: Partial<ModelRequest> = {}
  const temperature = opts.temperature ?? p.temperature
  const maxTokens = opts.maxTokens ?? p.maxTokens
  if (temperature !== undefined) out.temperature = temperature
  if (maxTokens !== undefined) out.maxTokens = maxTokens
  if (p.topP !== undefined) out.topP = p.topP
  if (p.frequencyPenalty !== undefined) out.frequencyPenalty = p.frequencyPenalty
  if (p.presencePenalty !== undefined) out.presencePenalty = p.presencePenalty
  if (p.model) out.model = p.model
  return out
}

function addUsage (sum: Usage, u: Usage): void {
  sum.promptTokens += u.promptTokens
  sum.completionTokens += u.completionTokens
  sum.totalTokens += u.totalTokens
}

function withImages (input: string, images: string[]): string {
  return `${input}\n${images.map((u) => `[image: ${u}]`).join('\n')}`
}
