// Contracts between the chat pipeline and the domains that feed it. The channels/chat domain owns
// the pipeline and the model gateway; presets, tools, skills, memory and knowledge plug in here
// through `rt.chat` (see lib/runtime.ts). Keep these types stable: several domains depend on them.
import type { Media } from '../delivery/media.js'
import type { HostSession } from '../host/session.js'
import type { TextKey } from '../i18n.js'

/** The role of a chat message. @public (part of the chat contract) */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool'
/** One message in OpenAI chat format (what the gateway sends to the model). */
export interface ChatMessage {
  role: ChatRole
  content: string
  /** assistant messages that called tools */
  toolCalls?: ToolCallRequest[]
  /** tool result messages */
  toolCallId?: string
  name?: string
  /** user messages: image URLs (http(s) or data:) sent as image parts for vision models */
  images?: string[]
  /**
   * assistant messages that called tools: the model's reasoning for them, sent back only where the
   * channel's provider profile asks for it (lib/channels/profiles.ts); never stored, never shown
   */
  reasoning?: string
}

export interface ToolCallRequest {
  id: string
  name: string
  arguments: string
  /** provider fields of the call to echo back unchanged (Gemini's thought signature in `extra_content`) */
  extra?: Record<string, unknown>
}

/** A tool offered to the model (JSON schema parameters). */
export interface ToolDefinition { name: string; description: string; parameters: Record<string, unknown> }

export interface Usage { promptTokens: number; completionTokens: number; totalTokens: number }

/** Who is talking, where: built from a host event or an API call. */
export interface ChatScope {
  userId: string
  groupId?: string
  nickname?: string
  groupName?: string
  botId?: string
  botName?: string
  isMaster: boolean
  /** 'bot' = a QQ chat through the host; 'api' = POST /api/chat; 'mcp' = our MCP endpoint; 'admin-test' = tool test panel */
  via: 'bot' | 'api' | 'mcp' | 'admin-test'
  /** Stable id of the conversation (e.g. `private:10001`, `group:123:10001`, a group's shared `group:123`). */
  conversationId: string
  /** Bot turns: the host's ids of the messages answered (several for a merged burst); the group log
   * context leaves them out. */
  messageIds?: string[]
}

/** Sampling and behaviour resolved from the preset in effect. */
export interface ResolvedPreset {
  id: string
  name: string
  /** Rendered system prompt (placeholders already substituted). */
  systemPrompt: string
  temperature?: number
  maxTokens?: number
  topP?: number
  frequencyPenalty?: number
  presencePenalty?: number
  model?: string
  tools: { enabled: boolean; allowedTools: string[]; excludedTools: string[]; allowDangerous: boolean }
  memory: { enabled: boolean; maxMemories: number }
  /** Knowledge documents bound to this preset are retrieved into the prompt. */
  knowledge?: { enabled: boolean }
}

/** Presets domain: which preset applies to a scope (user/group choice, default). */
export interface PresetResolver {
  /** An explicit `presetId` that does not exist is PRESET_NOT_FOUND (never another preset in its place). */
  resolve(scope: ChatScope, presetId?: string): Promise<ResolvedPreset>
}

/**
 * Where text in a turn came from that the asker did not write (README "Security model", taint): a quoted
 * message of someone else, a forwarded bundle, the group log or a group's shared history, knowledge
 * passages, a tool's result (fetched pages, other members' names). A tool call made while any is present
 * may carry someone else's intent: the approval policy (lib/tools/policy.ts) asks the asker to confirm.
 */
export type TaintSource = 'quoted' | 'forwarded' | 'groupLog' | 'sharedHistory' | 'knowledge' | 'toolResult'

/** The turn being answered, given to contributors and observers. */
export interface TurnContext {
  scope: ChatScope
  preset: ResolvedPreset
  /** The user's message text of this turn. */
  input: string
  /** Image URLs attached to the message. */
  images?: string[]
  /** Text of the last few turns before this one (which tools are relevant: lib/tools/select.ts). */
  recent?: string
  /** The conversation's last stored answer and when it was stored: a `note` contributor gives what came
   * after it (the group's new messages), not again what the history already holds. */
  previous?: { at: number; answer: string }
  /** Where the contributors note what they put into the prompt (the answer's "why" record, lib/why). */
  trace?: TurnTrace
  /** Set on the turn given to ToolProvider.execute: the call being run, told where its approval stands.
   * (On the turn, so that wrappers of the provider pass it on without knowing it.) */
  toolCall?: { id: string; onApproval?: (state: ApprovalState) => void }
  /** What of the turn's text the asker did not write; contributors and tool results add to it. */
  taint?: Set<TaintSource>
  /** Only these tools are offered and run (ReplyOptions.onlyTools); absent: the preset decides. */
  onlyTools?: ReadonlySet<string>
}

/** A memory put into the prompt of a turn. */
export interface TracedMemory { id: number; userId: string; category: string; content: string }
/** A knowledge passage put into the prompt of a turn. */
export interface TracedPassage { documentId: string; title: string; excerpt: string }
/** Where a tool call's approval stands: not needed, waiting for the master, or the answer. */
export type ApprovalState = 'none' | 'waiting' | 'approved' | 'refused' | 'timeout' | 'denied'

/** What shaped a turn, noted while it is answered (collected by lib/why into the answer's "why" record). */
export interface TurnTrace {
  memories(list: TracedMemory[]): void
  knowledge(list: TracedPassage[]): void
  skills(list: Array<{ name: string; description: string }>): void
}

/** What a turn does, as it happens (POST /api/chat/stream sends these to the dashboard). */
export type TurnEvent =
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_approval'; id: string; name: string; state: ApprovalState }
  | { type: 'tool_result'; id: string; name: string; result: string; isError: boolean; durationMs: number }

/**
 * The named places of a request's parts, in order, and where each goes (lib/chat/README.md, "Request
 * layout"). A provider's prompt cache serves the longest unchanged start of a request, so what changes
 * with each message never comes before what does not:
 * - `conversation`: the system message, after the persona: the same for every turn of a conversation;
 * - `profile`: the system message, after it: what changes rarely about the asker (the memory summary,
 *   lib/memory/README.md "Recall"), the same from turn to turn until it changes;
 * - `note`: the head of the user's message, stored with it (what happened since the last turn: the
 *   group's new messages), so later turns replay it byte for byte;
 * - `skills`, `memory`, `knowledge`, `extra`: after the user's text in the newest message only, read for
 *   this message and never replayed. `extra`: a section of no domain here (tests, a future domain).
 */
export const PROMPT_SLOTS = ['conversation', 'profile', 'note', 'skills', 'memory', 'knowledge', 'extra'] as const
export type PromptSlot = typeof PROMPT_SLOTS[number]
/** Where each slot's text goes: the system message, the stored note, or this turn's message only. */
export const SLOT_PLACE: Readonly<Record<PromptSlot, 'system' | 'note' | 'turn'>> = {
  conversation: 'system', profile: 'system', note: 'note', skills: 'turn', memory: 'turn', knowledge: 'turn', extra: 'turn'
}

/** Adds a section to a turn's request (memory, knowledge, active skills, the group's messages), in its slot. */
export interface PromptContributor {
  name: string
  slot: PromptSlot
  contribute(turn: TurnContext): Promise<string | undefined>
}

export interface ToolResult { content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>; isError: boolean }

/** Tools domain: the tools offered in a turn and their execution (with permission and approval gate). */
export interface ToolProvider {
  definitionsFor(turn: TurnContext): Promise<ToolDefinition[]>
  execute(name: string, args: Record<string, unknown>, turn: TurnContext): Promise<ToolResult>
}

/** Runs after a turn was answered (memory extraction queues, statistics). Must not throw. */
export interface TurnObserver {
  name: string
  afterTurn(turn: TurnContext, exchange: { user: string; assistant: string }): void | Promise<void>
}

/** Request to a model through a channel. */
export interface ModelRequest {
  messages: ChatMessage[]
  /** Channel name; default: the best available channel. */
  channel?: string
  model?: string
  temperature?: number
  maxTokens?: number
  topP?: number
  frequencyPenalty?: number
  presencePenalty?: number
  tools?: ToolDefinition[]
  signal?: AbortSignal
  /** For statistics. */
  source: 'chat' | 'batch-test' | 'tool' | 'memory' | 'image' | 'game' | 'api' | 'other'
  scope?: Pick<ChatScope, 'userId' | 'groupId' | 'nickname'>
}

export interface ModelResponse {
  /** the answer text, without reasoning (`<think>` taken out, reasoning fields apart) */
  content: string
  /** the model's reasoning, when the provider sent any (kept for its send-back rule and the why record) */
  reasoning?: string
  /** usage counted here with a tokenizer because the provider reported none */
  usageEstimated?: boolean
  toolCalls: ToolCallRequest[]
  usage: Usage
  model: string
  channel: string
  finishReason: string
  latencyMs: number
}

/** Channels domain: the only way any domain calls a language model. */
export interface ModelGateway {
  complete(req: ModelRequest): Promise<ModelResponse>
  /** Streams text deltas; resolves with the full response. */
  stream(req: ModelRequest, onDelta: (text: string) => void): Promise<ModelResponse>
  /**
   * OpenAI images API (drawing): `generations`, or `edits` when an input image is given (http(s), data:
   * or base64:// source). Through a channel, or through `api` (an image API entry of the drawing
   * config) when given. Returns image URLs or base64 data URLs.
   */
  generateImages?(req: ImageRequest): Promise<string[]>
}

export interface ImageRequest {
  prompt: string
  model?: string
  channel?: string
  /** an image API entry (drawing config `image.apis`) instead of a channel */
  api?: { name: string; baseUrl: string; apiKey?: string }
  n?: number
  size?: string
  signal?: AbortSignal
  image?: string
}

/** Chat entry used by the bot command handler, the API chat routes and the game mode. */
export interface ChatService {
  /** Answers one user message in a conversation (serialised per conversation). */
  reply(scope: ChatScope, input: string, opts?: {
    presetId?: string; images?: string[]; onDelta?: (text: string) => void; signal?: AbortSignal; systemPromptOverride?: string
    temperature?: number; maxTokens?: number; toolsEnabled?: boolean
    /** only these tools may be offered and run in this turn (a scheduled task's list, lib/tasks); absent: the preset's */
    onlyTools?: readonly string[]
    /** a channel and model chosen by the caller (the dashboard's chat page) instead of the bot's choice */
    channel?: string; model?: string
    /** tool calls, approvals and results as they happen */
    onEvent?: (event: TurnEvent) => void
    /** Delivers the answer while the turn is being written to disk; reply() resolves once both are done.
     * `media`: images the turn's tools returned, to be sent with the answer (lib/delivery). */
    onAnswer?: (response: string, media?: Media[]) => Promise<unknown>
    /** text in the input the asker did not write (lib/input: a quoted or forwarded message) */
    taint?: TaintSource[]
  }): Promise<{ response: string; usage: Usage; conversationId: string; /** the answer's "why" record (lib/why), when kept */ whyId?: string }>
}

/** The registry on the runtime through which domains plug into chat. */
export interface ChatHooks {
  presets?: PresetResolver
  tools?: ToolProvider
  contributors: PromptContributor[]
  observers: TurnObserver[]
  /** the named steps of a chat turn, each declared by its domain (lib/chat/steps.ts orders and runs them) */
  steps: TurnStep[]
}

/** Where a chat turn comes from: a QQ message through the host, or the HTTP chat (`POST /api/chat[/stream]`). */
export type TurnVia = 'qq' | 'api'

/**
 * What a step says: nothing (go on), 'done' (the message was dealt with: the turn ends, the host is told
 * it was handled) or 'pass' (not for the bot: the steps marked `onPass` still run, then the host passes
 * the message on to its other plugins).
 */
export type StepOutcome = void | 'done' | 'pass'

/** One named step of a chat turn (lib/chat/README.md, "The turn, step by step"). */
export interface TurnStep {
  name: string
  /** the entries it takes part in */
  via: readonly TurnVia[]
  /** steps it runs after and before, by name; a name no running domain declared is ignored */
  after?: readonly string[]
  before?: readonly string[]
  /** runs (alone with the others so marked) once an earlier step said 'pass' */
  onPass?: boolean
  run(turn: ChatTurn): StepOutcome | Promise<StepOutcome>
}

/** A QQ turn's host side: the message read once at the host port, and reply texts in the configured language. */
export interface TurnHost {
  session: HostSession
  tr(key: TextKey, vars?: Record<string, string | number>): string
}

/** One chat turn as it passes its steps; each step reads what the ones before it left. */
export interface ChatTurn {
  via: TurnVia
  /** QQ turns only */
  host?: TurnHost
  /** the user's words: the message's text, then the merged burst, the read input, the moderated text */
  text: string
  /** image sources for the model */
  images: string[]
  /** ids of the host messages the turn answers (a burst's pieces) */
  messageIds: string[]
  /** QQ: whether the message is for the bot (the burst step says; the join-in step reads it) */
  addressed?: boolean
  /** set by the scope step (QQ) or by the HTTP route */
  scope?: ChatScope
  /** what the reply step hands the pipeline; steps add to it (taint, tools off, streaming, delivery) */
  options: NonNullable<Parameters<ChatService['reply']>[2]>
  /** the pipeline's answer, once the reply step ran */
  result?: Awaited<ReturnType<ChatService['reply']>>
  /** each text that is to go out (the answer, a streamed piece) passes these in turn: the text to send, or
   * undefined to withhold it (QQ: the banned-word check of lib/governance) */
  answerChecks: Array<(text: string) => Promise<string | undefined>>
  /** told each answer that went out (QQ: the group log) */
  onAnswered: Array<(text: string) => void>
  /** the answer, or a piece of it, reached the user (after that, a failure is not told as a second message) */
  answered: boolean
  /** the error that ended the turn, for the cleanup */
  error?: unknown
  /** run when the turn ends, whatever happened, last added first */
  cleanup: Array<() => void | Promise<void>>
}

/** The host side of a QQ turn: what a step declared for QQ only reads. */
export function hostOf (turn: ChatTurn): TurnHost {
  if (!turn.host) throw new Error(`A QQ step ran in a ${turn.via} turn`)
  return turn.host
}
