// Builds the model context of a turn from stored history (config `context`, README "Configuration"):
// - the last `maxMessages` messages (sliding window), starting with a user message; once a conversation
//   passes maxMessages its oldest messages leave in blocks of half of it, not one by one, so the start
//   of the requests stays the same for several turns (providers' prompt caches serve it; README.md of
//   this folder, "Request layout") and the model still sees at least half of maxMessages;
// - user messages with the note they were read with (turn-note.ts), byte for byte;
// - with a token budget (`maxTokens` > 0), compression once the context passes `compressionThreshold`
//   of it: the oldest messages go (`truncate`: one by one; `sliding-window` and `summarize`: whole
//   turns) down to the threshold, keeping the newest `preserveRecentMessages`; the budget itself is a
//   hard limit, and without `preserveSystemPrompt` even the system prompt may go;
// - a conversation summary (summary.ts), when there is one, stands for the messages it covers.
// What fell out of the context and is not yet summarized comes back as `dropped`.
import type { Config } from '../config/schema.js'
import type { ConfigService, SectionPatch } from '../config/service.js'
import type { ChatMessage } from './contracts.js'
import type { ContextSummary, StoredMessage } from './store.js'
import { userContent } from './turn-note.js'

/** Changes the `context` section: the chat domain is its only writer. */
export async function updateContextSettings (config: ConfigService, patch: SectionPatch<'context'>): Promise<void> {
  await config.writer('context').update(patch)
}

/** Rough token estimate (about 4 characters a token; CJK about 1 a character). */
function estimateTokens (text: string): number {
  let cjk = 0
  for (const ch of text) if (ch.charCodeAt(0) > 0x2e80) cjk++
  return cjk + Math.ceil((text.length - cjk) / 4)
}

export const SUMMARY_HEAD = 'Summary of the earlier conversation (older messages are not shown):'

export interface PlannedContext {
  messages: ChatMessage[]
  /** messages left out of the context and not covered by the summary, oldest first */
  dropped: StoredMessage[]
  /** the stored messages in the context */
  window: StoredMessage[]
}

/** Index after the first turn of a window (the user message and the replies that follow it). */
function firstTurnEnd (window: StoredMessage[]): number {
  let i = 1
  while (i < window.length && window[i]?.role !== 'user') i++
  return i
}

function startWithUser (window: StoredMessage[]): number {
  let i = 0
  while (i < window.length && window[i]?.role !== 'user') i++
  return i
}

/** Where the window starts: past maxMessages, in steps of half of it (see the head of this file). */
function windowStart (length: number, maxMessages: number): number {
  const over = length - maxMessages
  if (over <= 0) return 0
  const step = Math.max(1, Math.floor(maxMessages / 2))
  return Math.min(length, Math.ceil(over / step) * step)
}

/** A stored message as the model reads it. */
const contentOf = (m: StoredMessage): string => m.role === 'user' ? userContent(m.content, m.note) : m.content

/** `input`: the new user message as the model reads it (its note and tail included). */
export function planContext (cfg: Config['context'], systemPrompt: string, history: StoredMessage[], input: string, summary?: ContextSummary): PlannedContext {
  const fresh = summary ? history.filter((m) => m.timestamp > summary.through) : history
  let start = windowStart(fresh.length, cfg.maxMessages)
  start += startWithUser(fresh.slice(start))
  let window = fresh.slice(start)
  const summaryText = summary?.text ? `${SUMMARY_HEAD}\n${summary.text}` : ''
  let withSystem = systemPrompt !== ''
  if (cfg.maxTokens > 0) {
    const sizes = new Map(window.map((m) => [m, estimateTokens(contentOf(m))]))
    const fixed = estimateTokens(input) + estimateTokens(summaryText)
    let used = fixed + (withSystem ? estimateTokens(systemPrompt) : 0) + [...sizes.values()].reduce((a, b) => a + b, 0)
    const drop = (n: number): void => {
      for (const m of window.slice(0, n)) used -= sizes.get(m) ?? 0
      window = window.slice(n)
      start += n
    }
    const target = cfg.compressionThreshold * cfg.maxTokens
    while (used > target && window.length > cfg.preserveRecentMessages) {
      const n = cfg.compressionStrategy === 'truncate' ? 1 : firstTurnEnd(window)
      if (window.length - n < cfg.preserveRecentMessages) break
      drop(n)
    }
    while (used > cfg.maxTokens && window.length) drop(1) // the budget itself is a hard limit
    drop(startWithUser(window))
    if (used > cfg.maxTokens && withSystem && !cfg.preserveSystemPrompt) withSystem = false
  }
  const messages: ChatMessage[] = []
  if (withSystem) messages.push({ role: 'system', content: systemPrompt })
  if (summaryText) messages.push({ role: 'system', content: summaryText })
  for (const m of window) messages.push({ role: m.role, content: contentOf(m) })
  messages.push({ role: 'user', content: input })
  return { messages, dropped: fresh.slice(0, start), window }
}

export function buildContext (cfg: Config['context'], systemPrompt: string, history: StoredMessage[], input: string, summary?: ContextSummary): ChatMessage[] {
  return planContext(cfg, systemPrompt, history, input, summary).messages
}
