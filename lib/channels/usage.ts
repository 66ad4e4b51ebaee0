// Usage as the providers report it (OpenAI's prompt_tokens_details.cached_tokens, DeepSeek's
// prompt_cache_hit_tokens, legacy Moonshot's top-level cached_tokens), and an estimate when a provider
// sends none (a relay that drops the usage chunk): counted with a real tokenizer (gpt-tokenizer,
// o200k_base, loaded on the first estimate: about a second of CPU once), or, when that package is
// missing (lib/core/packages.ts), by characters (CJK one token each, other text four characters a token).
// An estimate is marked as such in the stats.
import type { ChatMessage, ToolDefinition, Usage } from '../chat/contracts.js'
import { importOptional } from '../core/packages.js'
import type { RawUsage } from './wire.js'

/** Usage with the prompt tokens the provider served from its cache (priced apart: lib/stats/cost.ts). */
export type MeteredUsage = Usage & { cachedTokens?: number; estimated?: boolean }

export const ZERO: MeteredUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 }

export function toUsage (u: RawUsage | undefined): MeteredUsage | undefined {
  if (!u || (u.prompt_tokens === undefined && u.completion_tokens === undefined && u.total_tokens === undefined)) return undefined
  const promptTokens = u.prompt_tokens ?? 0
  const completionTokens = u.completion_tokens ?? 0
  const cached = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? u.cached_tokens ?? 0
  return { promptTokens, completionTokens, totalTokens: u.total_tokens ?? promptTokens + completionTokens, ...(cached > 0 ? { cachedTokens: cached } : {}) }
}

type Counter = (text: string) => number
let counter: Promise<Counter> | undefined

const CJK = /[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g
/** Without the tokenizer: CJK characters one token each, other text four characters a token. */
const byChars: Counter = (text) => {
  const cjk = text.match(CJK)?.length ?? 0
  return cjk + Math.ceil((text.length - cjk) / 4)
}

function loadCounter (): Promise<Counter> {
  return (counter ??= importOptional('gpt-tokenizer', () => import('gpt-tokenizer/encoding/o200k_base')).then(
    (m) => (text: string) => m.countTokens(text),
    () => byChars // missing package: the rough count, still marked estimated
  ))
}

/** Per message, the few tokens the chat format adds around it (OpenAI's documented overhead). */
const PER_MESSAGE = 4

/** The usage of a request whose answer reported none. */
export async function estimateUsage (messages: readonly ChatMessage[], tools: readonly ToolDefinition[] | undefined, answer: { content: string; reasoning?: string; toolCalls: ReadonlyArray<{ name: string; arguments: string }> }): Promise<MeteredUsage> {
  const count = await loadCounter()
  let promptTokens = 3
  for (const m of messages) {
    promptTokens += PER_MESSAGE + count(m.content)
    for (const c of m.toolCalls ?? []) promptTokens += count(c.name) + count(c.arguments)
  }
  if (tools?.length) promptTokens += count(JSON.stringify(tools))
  let completionTokens = count(answer.content) + (answer.reasoning ? count(answer.reasoning) : 0)
  for (const c of answer.toolCalls) completionTokens += count(c.name) + count(c.arguments)
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true }
}
