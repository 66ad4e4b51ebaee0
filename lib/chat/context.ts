// Builds the model context of a turn from stored history: the last context.maxMessages messages
// (sliding window), then, with a token budget (context.maxTokens > 0), the oldest dropped until it fits.
import type { Config } from '../config/schema.js'
import type { ChatMessage } from './contracts.js'
import type { StoredMessage } from './store.js'

/** Rough token estimate (about 4 characters a token; CJK about 1 a character). */
export function estimateTokens (text: string): number {
  let cjk = 0
  for (const ch of text) if (ch.charCodeAt(0) > 0x2e80) cjk++
  return cjk + Math.ceil((text.length - cjk) / 4)
}

export function buildContext (cfg: Config['context'], systemPrompt: string, history: StoredMessage[], input: string): ChatMessage[] {
  // Every strategy keeps the newest messages; 'sliding' is the configured default.
  let window = history.slice(-cfg.maxMessages)
  // Keep the window starting with a user message (a lone assistant reply first confuses models).
  while (window.length && window[0]?.role !== 'user') window = window.slice(1)
  if (cfg.maxTokens > 0) {
    let budget = cfg.maxTokens - estimateTokens(systemPrompt) - estimateTokens(input)
    const kept: StoredMessage[] = []
    for (let i = window.length - 1; i >= 0; i--) {
      const m = window[i] as StoredMessage
      budget -= estimateTokens(m.content)
      if (budget < 0) break
      kept.unshift(m)
    }
    window = kept
  }
  const messages: ChatMessage[] = []
  if (systemPrompt) messages.push({ role: 'system', content: systemPrompt })
  for (const m of window) messages.push({ role: m.role, content: m.content })
  messages.push({ role: 'user', content: input })
  return messages
}
