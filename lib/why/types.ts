// The answer's "why" record: what shaped one answer of the bot (README.md of this folder).
import type { ApprovalState, ChatScope, TracedMemory, TracedPassage, Usage } from '../chat/contracts.js'

/** A tool the model called while answering: arguments and a summary of the result, both redacted and cut. */
export interface WhyToolCall {
  id: string
  name: string
  arguments: string
  result: string
  isError: boolean
  approval: ApprovalState
  durationMs: number
}

/** A memory put into the prompt; `removed` once the memory no longer exists (its text is then not shown). */
interface WhyMemory extends TracedMemory { removed?: true }

/**
 * One model call of the turn (a tool round or the answer) and its tokens; `cachedTokens`: input served from
 * the provider's cache; `reusedChars` of `previousChars`: how much of the conversation's previous request
 * this one started with (lib/chat/prefix.ts; absent in records of older versions, previousChars 0: none known).
 */
export interface WhyModelCall { channel: string; model: string; promptTokens: number; completionTokens: number; cachedTokens: number; reusedChars?: number; previousChars?: number }

export interface WhyRecord {
  id: string
  conversationId: string
  /** who was answered */
  userId: string
  groupId?: string
  via: ChatScope['via']
  /** when the answer was stored (the timestamp of the stored assistant message) */
  at: number
  /** the start of the message answered */
  question: string
  preset: { id: string; name: string }
  channel: string
  model: string
  memories: WhyMemory[]
  knowledge: TracedPassage[]
  skills: Array<{ name: string; description: string }>
  tools: WhyToolCall[]
  /** the turn's tokens; `cachedTokens` (of promptTokens) summed over `calls`: absent in records of older versions */
  usage: Usage & { cachedTokens?: number }
  /** the turn's model calls, in order (absent in records of older versions) */
  calls?: WhyModelCall[]
  durationMs: number
}
