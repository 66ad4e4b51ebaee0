// The one schema every configuration write is validated against (lib/config/README.md). Sections are
// strict so a misspelt key is reported with its path instead of being silently ignored.
import { z } from 'zod'
import { notReserved, toDict } from '../core/dict.js'

const channelKeySchema = z.strictObject({
  name: z.string().max(100).default(''),
  key: z.string().min(1),
  enabled: z.boolean().default(true)
})

export const channelSchema = z.strictObject({
  name: z.string().regex(/^[\w\-.\u4e00-\u9fff]{1,64}$/, 'letters, digits, - _ . or Chinese, 1-64 characters').refine(...notReserved),
  id: z.string().min(1).max(64).refine(...notReserved).optional(),
  type: z.enum(['openai', 'openai-compatible', 'azure', 'deepseek', 'custom']).default('openai'),
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' }),
  apiKey: z.string().default(''),
  apiKeys: z.array(channelKeySchema).default([]),
  model: z.string().default(''),
  models: z.array(z.string().min(1)).default([]),
  enabled: z.boolean().default(true),
  priority: z.number().int().default(0),
  /** Path appended to baseUrl instead of /chat/completions (custom gateways). */
  customPath: z.string().default(''),
  /** Extra request headers; values may use {{placeholders}}. */
  headersTemplate: z.record(z.string(), z.string()).default({}),
  /** Extra JSON merged into the request body; string values may use {{placeholders}}. */
  bodyTemplate: z.record(z.string(), z.unknown()).default({}),
  image: z.strictObject({
    enabled: z.boolean().default(false),
    model: z.string().default('')
  }).default({ enabled: false, model: '' }),
  timeoutMs: z.number().int().min(1000).max(600000).default(60000),
  /** A stream that sends nothing for this long is aborted (the client timeout does not cover it). */
  idleTimeoutMs: z.number().int().min(1000).max(600000).default(30000),
  keyCooldownMs: z.number().int().min(0).max(3600000).default(60000)
})

export const groupConfigSchema = z.strictObject({
  preset: z.string().default(''),
  enabled: z.boolean().default(true),
  trigger: z.strictObject({
    // Unset fields fall back to the global trigger section.
    type: z.enum(['at', 'prefix', 'both', 'off']).optional(),
    randomRate: z.number().min(0).max(1).optional()
  }).default({})
})

const stringList = z.array(z.string()).default([])
const risk = z.enum(['low', 'medium', 'high'])

export const configSchema = z.strictObject({
  commandPrefix: z.string().min(1).max(16).regex(/^[^*%/\s]/, 'must not start with *, %, / or a space'),
  debug: z.boolean(),
  language: z.enum(['zh-CN', 'en']),
  web: z.strictObject({
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    sharePort: z.boolean(),
    publicUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
    allowedOrigins: z.array(z.url()),
    sessionTtlHours: z.number().min(0.05).max(24 * 365),
    bodyLimitKb: z.number().int().min(16).max(102400),
    loginRateLimit: z.number().int().min(1).max(1000),
    trustProxy: z.boolean().default(false)
  }),
  trigger: z.strictObject({
    private: z.enum(['always', 'prefix', 'off']),
    group: z.enum(['at', 'prefix', 'both', 'off']),
    prefix: z.string(),
    randomRate: z.number().min(0).max(1)
  }),
  context: z.strictObject({
    maxMessages: z.number().int().min(1).max(1000),
    cleaningStrategy: z.enum(['sliding', 'truncate', 'summarize']),
    maxTokens: z.number().int().min(0),
    compressionThreshold: z.number().min(0).max(1),
    compressionStrategy: z.enum(['summarize', 'truncate', 'sliding-window']),
    preserveSystemPrompt: z.boolean(),
    preserveRecentMessages: z.number().int().min(0).max(1000),
    autoReloadSkills: z.boolean()
  }),
  chat: z.strictObject({
    maxStoredMessages: z.number().int().min(1).max(100000),
    userRateLimitPerMinute: z.number().int().min(0).max(10000),
    timeoutSeconds: z.number().min(1).max(600)
  }),
  llm: z.strictObject({
    defaultChatPresetId: z.string()
  }),
  channels: z.array(channelSchema).superRefine((list, ctx) => {
    const seen = new Set<string>()
    list.forEach((c, i) => {
      if (seen.has(c.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate channel name ${c.name}` })
      seen.add(c.name)
    })
  }),
  // keyed by chat group ids (`constructor` is a valid one): a null-prototype record (lib/core/dict.ts)
  groups: z.record(z.string().regex(/^[\w-]{1,64}$/, 'group id'), groupConfigSchema).transform((g) => toDict(g)),
  presets: z.strictObject({
    defaultId: z.string().min(1),
    allowUserSwitch: z.boolean(),
    perUserPreset: z.boolean(),
    perGroupPreset: z.boolean()
  }),
  memory: z.strictObject({
    enabled: z.boolean(),
    pollIntervalMinutes: z.number().min(0.1).max(24 * 60),
    maxMemoriesInPrompt: z.number().int().min(0).max(100)
  }),
  knowledge: z.strictObject({
    enabled: z.boolean(),
    maxResultsInPrompt: z.number().int().min(0).max(50)
  }),
  tools: z.strictObject({
    enabled: z.boolean(),
    enabledCategories: stringList,
    allowedTools: stringList,
    disabledTools: stringList,
    allowDangerous: z.boolean(),
    dangerousTools: stringList,
    approvalMode: z.enum(['auto', 'manual', 'deny', 'allow']),
    approvalTimeoutMs: z.number().int().min(1000).max(3600000),
    approvalLowRiskTools: stringList,
    approvalMediumRiskTools: stringList,
    approvalHighRiskTools: stringList,
    approvalBypassTools: stringList,
    approvalAllowSessionBypass: z.boolean(),
    approvalSessionBypassMaxRisk: risk,
    maxRounds: z.number().int().min(1).max(50),
    // Tools domain additions: categories switched off, script-folder watcher, event reply probability.
    disabledCategories: stringList.default([]),
    watchScripts: z.boolean().default(true),
    eventProbability: z.number().min(0).max(1).default(0.1),
    // Time limit (ms) of a script tool's load and of each call; the script's worker is stopped past it.
    scriptTimeoutMs: z.number().int().min(100).max(600000).default(10000)
  }),
  skills: z.strictObject({
    dir: z.string(),
    watch: z.boolean()
  }),
  mcp: z.strictObject({
    server: z.strictObject({
      apiKey: z.string(),
      tools: stringList
    }),
    servers: z.record(z.string(), z.record(z.string(), z.unknown())).transform((s) => toDict(s))
  }),
  image: z.strictObject({
    enabled: z.boolean(),
    model: z.string(),
    videoModel: z.string(),
    timeout: z.number().int().min(1000).max(3600000),
    maxImages: z.number().int().min(1).max(10),
    sendMode: z.enum(['direct', 'forward', 'url']),
    remotePresetsUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
    apis: z.array(z.record(z.string(), z.unknown()))
  }),
  game: z.strictObject({
    probability: z.number().min(0).max(1),
    enableTools: z.boolean(),
    temperature: z.number().min(0).max(2),
    maxTokens: z.number().int().min(1).max(128000)
  })
})

export type Config = z.infer<typeof configSchema>
/** The configuration as written (the schema's input: keys with a default may be left out). */
export type ConfigInput = z.input<typeof configSchema>
export type ChannelConfig = z.infer<typeof channelSchema>
/** A channel as written (keys with a default may be left out). */
export type ChannelInput = z.input<typeof channelSchema>
export type SectionName = keyof Config

/** Sections addressable by GET/PUT /api/config/:section (every object or list section). */
export const SECTIONS = Object.keys(configSchema.shape) as SectionName[]
