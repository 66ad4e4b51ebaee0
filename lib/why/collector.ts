// Collects one turn's "why" record while the chat pipeline answers it (lib/chat/service.ts): the
// contributors note what they put into the prompt (TurnTrace), the pipeline passes the model's answers
// and the turn's events (tool calls, approvals, results). Texts are redacted and cut here, once.
import type { PrefixReuse } from '../chat/prefix.js'
import type { ModelResponse, ResolvedPreset, TracedMemory, TracedPassage, TurnEvent, TurnTrace, Usage } from '../chat/contracts.js'
import { redact } from '../core/redact.js'
import type { WhyModelCall, WhyRecord, WhyToolCall } from './types.js'

const QUESTION_CHARS = 300
const EXCERPT_CHARS = 300
const ARGUMENT_CHARS = 1000
const RESULT_CHARS = 500
const MAX_TOOL_CALLS = 50
const MAX_MODEL_CALLS = 50

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/** What the record says about the turn before it is answered. */
export interface TurnStart {
  id: string
  conversationId: string
  userId: string
  groupId?: string
  via: WhyRecord['via']
  input: string
  preset: Pick<ResolvedPreset, 'id' | 'name'>
  startedAt: number
}

export class WhyCollector implements TurnTrace {
  private readonly used: { memories: TracedMemory[]; knowledge: TracedPassage[]; skills: WhyRecord['skills'] } = { memories: [], knowledge: [], skills: [] }
  private readonly calls = new Map<string, WhyToolCall>()
  private readonly modelCalls: WhyModelCall[] = []
  private cachedTokens = 0
  private channel = ''
  private model = ''

  constructor (private readonly start: TurnStart) {}

  get id (): string { return this.start.id }

  memories (list: TracedMemory[]): void {
    this.used.memories = list.map((m) => ({ id: m.id, userId: m.userId, category: m.category, content: m.content }))
  }

  knowledge (list: TracedPassage[]): void {
    this.used.knowledge = list.map((p) => ({ documentId: p.documentId, title: p.title, excerpt: cut(p.excerpt, EXCERPT_CHARS) }))
  }

  skills (list: Array<{ name: string; description: string }>): void {
    this.used.skills = list.map((s) => ({ name: s.name, description: cut(s.description, 200) }))
  }

  /** The channel, model, tokens and prefix reuse of each model answer; the last one answered the user. */
  answered (res: Pick<ModelResponse, 'channel' | 'model'> & { usage?: Usage }, prefix?: PrefixReuse): void {
    this.channel = res.channel
    this.model = res.model
    const u = res.usage
    if (!u) return
    // the gateway's MeteredUsage carries the provider's cached prompt tokens; Usage does not declare them
    const cached = (u as { cachedTokens?: number }).cachedTokens
    const cachedTokens = typeof cached === 'number' && Number.isFinite(cached) && cached > 0 ? cached : 0
    this.cachedTokens += cachedTokens
    if (this.modelCalls.length < MAX_MODEL_CALLS) this.modelCalls.push({ channel: res.channel, model: res.model, promptTokens: u.promptTokens, completionTokens: u.completionTokens, cachedTokens, ...(prefix ? { reusedChars: prefix.reusedChars, previousChars: prefix.previousChars } : {}) })
  }

  event (ev: TurnEvent): void {
    if (ev.type === 'tool_call') {
      if (this.calls.size >= MAX_TOOL_CALLS) return
      this.calls.set(ev.id, { id: ev.id, name: ev.name, arguments: cut(redact(ev.arguments), ARGUMENT_CHARS), result: '', isError: false, approval: 'none', durationMs: 0 })
      return
    }
    const c = this.calls.get(ev.id)
    if (!c) return
    if (ev.type === 'tool_approval') c.approval = ev.state
    else Object.assign(c, { result: cut(redact(ev.result), RESULT_CHARS), isError: ev.isError, durationMs: ev.durationMs })
  }

  /** The record of the answered turn. */
  finish (usage: Usage, at: number): WhyRecord {
    const s = this.start
    return {
      id: s.id,
      conversationId: s.conversationId,
      userId: s.userId,
      ...(s.groupId ? { groupId: s.groupId } : {}),
      via: s.via,
      at,
      question: cut(s.input, QUESTION_CHARS),
      preset: { id: s.preset.id, name: s.preset.name },
      channel: this.channel,
      model: this.model,
      ...this.used,
      tools: [...this.calls.values()],
      usage: { ...usage, cachedTokens: this.cachedTokens },
      calls: [...this.modelCalls],
      durationMs: Math.max(0, at - s.startedAt)
    }
  }
}
