// Provider profiles: the few wire rules in which OpenAI-compatible providers differ, one declared table
// per provider (sources: README "Providers", which cites the providers' documents). The gateway reads a
// channel's profile (`channels[].profile`, `auto` guesses it from the base URL, else from `type`) and
// nothing else special-cases a provider. Rules are scoped to models where the provider's are.
import type { ChannelConfig, PROVIDER_PROFILES } from '../config/schema.js'

export type ProfileName = typeof PROVIDER_PROFILES[number]

export interface ProviderProfile {
  name: ProfileName
  /** base URL hosts that mean this provider (`auto`) */
  hosts: RegExp
  /** answer fields that carry reasoning beside `content` (message and stream delta) */
  reasoningFields: readonly string[]
  /**
   * How an assistant message that made tool calls is sent back with its reasoning (in the tool loop and
   * after): as `reasoning_content` (`field`: required by DeepSeek thinking mode and Kimi, a 400 otherwise;
   * recommended by GLM), as the `<think>` block in its content it came in (`think`: MiniMax M2 wants the
   * whole message back), or not at all; a relay or an aggregator follows the model it serves.
   */
  reasoningBack: (model: string) => ReasoningBack
  /** ask streams for a final usage chunk (`stream_options.include_usage`) */
  streamUsage: boolean
  /**
   * Mark the end of the request's stable start with `cache_control: {type: "ephemeral"}` (lib/chat/README.md,
   * "Request layout"): where the served model caches only what is marked (Anthropic's, and Alibaba's on
   * OpenRouter). Elsewhere caching is automatic, and a marker could be refused as an unknown field.
   */
  cacheMarkers: (model: string) => boolean
}

export type ReasoningBack = 'field' | 'think' | undefined

/** The rule of the maker of `model`, for hosts of other makers' models (relays, aggregators). */
const byModel = (model: string): ReasoningBack => (/deepseek|kimi|moonshot/i.test(model) ? 'field' : /minimax/i.test(model) ? 'think' : undefined)
const never = (): ReasoningBack => undefined
const noMarkers = (): boolean => false
/** Models served through an OpenAI-compatible door that cache only marked blocks. */
const marksCache = (model: string): boolean => /claude|anthropic\//i.test(model)
const field = (): ReasoningBack => 'field'

const PROFILES: Readonly<Record<ProfileName, ProviderProfile>> = {
  // no reasoning text on Chat Completions (o-series, GPT-5 report only a count)
  openai: { name: 'openai', hosts: /(^|\.)openai\.com$|(^|\.)openai\.azure\.com$/i, reasoningFields: [], reasoningBack: never, streamUsage: true, cacheMarkers: noMarkers },
  // thinking mode with tools: reasoning_content of each assistant tool-call message in every later request
  deepseek: { name: 'deepseek', hosts: /(^|\.)deepseek\.com$/i, reasoningFields: ['reasoning_content'], reasoningBack: field, streamUsage: true, cacheMarkers: noMarkers },
  // Kimi K2 thinking: 400 "reasoning_content is missing in assistant tool call message"
  moonshot: { name: 'moonshot', hosts: /(^|\.)moonshot\.(ai|cn)$|(^|\.)kimi\.com$/i, reasoningFields: ['reasoning_content'], reasoningBack: field, streamUsage: true, cacheMarkers: noMarkers },
  // GLM: the docs ask for the reasoning beside the tool results (no 400 when left out)
  zhipu: { name: 'zhipu', hosts: /(^|\.)bigmodel\.cn$|(^|\.)z\.ai$/i, reasoningFields: ['reasoning_content'], reasoningBack: field, streamUsage: true, cacheMarkers: noMarkers },
  // Qwen: sending reasoning back is optional: not sent (it would be paid as input again)
  qwen: { name: 'qwen', hosts: /(^|\.)dashscope(-intl)?\.aliyuncs\.com$|(^|\.)qwencloud\.com$/i, reasoningFields: ['reasoning_content'], reasoningBack: never, streamUsage: true, cacheMarkers: noMarkers },
  // hosts other makers' models: their rule
  siliconflow: { name: 'siliconflow', hosts: /(^|\.)siliconflow\.(cn|com)$/i, reasoningFields: ['reasoning_content'], reasoningBack: byModel, streamUsage: true, cacheMarkers: noMarkers },
  // reasoning, when any, is in content (`<think>`, split out anywhere); calls stream without index
  gemini: { name: 'gemini', hosts: /(^|\.)generativelanguage\.googleapis\.com$/i, reasoningFields: [], reasoningBack: never, streamUsage: true, cacheMarkers: noMarkers },
  // `reasoning` (+ `reasoning_details`); DeepSeek and Kimi upstreams enforce their own rule
  // Anthropic and Alibaba upstreams cache only marked blocks (the others cache by themselves)
  openrouter: { name: 'openrouter', hosts: /(^|\.)openrouter\.ai$/i, reasoningFields: ['reasoning', 'reasoning_content'], reasoningBack: byModel, streamUsage: true, cacheMarkers: (model) => marksCache(model) || /^(qwen|alibaba)\//i.test(model) },
  // M2: `<think>` in content by default; the whole assistant message goes back in tool loops
  minimax: { name: 'minimax', hosts: /(^|\.)minimaxi?\.(io|com|chat)$/i, reasoningFields: ['reasoning_content'], reasoningBack: () => 'think', streamUsage: true, cacheMarkers: noMarkers },
  // one-api / new-api and unknown hosts: every field, the served model's rule
  relay: { name: 'relay', hosts: /$^/, reasoningFields: ['reasoning_content', 'reasoning'], reasoningBack: byModel, streamUsage: true, cacheMarkers: marksCache }
}

export interface ResolvedProfile { profile: ProviderProfile; guessed: boolean }

const cache = new Map<string, ResolvedProfile>()

/** The channel's profile: its own setting, else the base URL's host, else its `type`, else a relay. */
export function profileOf (ch: Pick<ChannelConfig, 'baseUrl' | 'type'> & { profile?: ChannelConfig['profile'] | undefined }): ResolvedProfile {
  const set = ch.profile ?? 'auto'
  if (set !== 'auto') return { profile: PROFILES[set], guessed: false }
  const key = `${ch.baseUrl}\n${ch.type}`
  let hit = cache.get(key)
  if (!hit) {
    hit = { profile: guess(ch.baseUrl, ch.type), guessed: true }
    if (cache.size > 256) cache.clear()
    cache.set(key, hit)
  }
  return hit
}

function guess (baseUrl: string, type: string): ProviderProfile {
  let host = ''
  try { host = new URL(baseUrl).hostname } catch { /* not a URL: by type */ }
  for (const p of Object.values(PROFILES)) if (host && p.hosts.test(host)) return p
  if (type === 'deepseek') return PROFILES.deepseek
  if (type === 'azure') return PROFILES.openai
  return PROFILES.relay
}
