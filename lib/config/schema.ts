// The one schema every configuration write is validated against (lib/config/README.md). Sections are
// strict so a misspelt key is reported with its path instead of being silently ignored.
import { z } from 'zod'
import { notReserved, toDict } from '../core/dict.js'
import { accessSchema, groupGovernanceShape, moderationSchema, quotasSchema } from '../governance/schema.js'

const channelKeySchema = z.strictObject({
  name: z.string().max(100).default(''),
  key: z.string().min(1),
  enabled: z.boolean().default(true)
})

/** The providers whose wire rules differ (lib/channels/profiles.ts); `auto` guesses from the base URL. */
export const PROVIDER_PROFILES = ['openai', 'deepseek', 'moonshot', 'zhipu', 'qwen', 'siliconflow', 'gemini', 'openrouter', 'minimax', 'relay'] as const

export const channelSchema = z.strictObject({
  name: z.string().regex(/^[\w\-.\u4e00-\u9fff]{1,64}$/, 'letters, digits, - _ . or Chinese, 1-64 characters').refine(...notReserved),
  id: z.string().min(1).max(64).refine(...notReserved).optional(),
  type: z.enum(['openai', 'openai-compatible', 'azure', 'deepseek', 'custom']).default('openai'),
  /** the provider's wire rules (reasoning, usage, stream quirks); auto: guessed from the base URL */
  profile: z.enum(['auto', ...PROVIDER_PROFILES]).default('auto'),
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
  /** the model can read images; false: images are captioned first (input.captionChannel) */
  vision: z.boolean().default(true),
  timeoutMs: z.number().int().min(1000).max(600000).default(60000),
  /** A stream that sends nothing for this long is aborted (the client timeout does not cover it). */
  idleTimeoutMs: z.number().int().min(1000).max(600000).default(30000),
  keyCooldownMs: z.number().int().min(0).max(3600000).default(60000),
  /** the channel is not used once its cost this month reaches this (pricing.currency; 0: no budget) */
  monthlyBudget: z.number().min(0).default(0)
})


// Issue 18, the bot in a chat (README "The bot in a QQ chat"). Each group of settings is declared once
// as a shape without defaults: globally it is filled from its defaults, per group (groups.<id>.*) every
// field is optional and an unset one falls back to the global value (lib/config/README.md).
const probability = z.number().min(0).max(1)
/** An IANA timezone name Intl knows. */
function knownTimeZone (tz: string): boolean {
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true } catch { return false }
}

const deliveryShape = {
  /** plain: markdown turned into readable text; keep: sent as the model wrote it */
  markdown: z.enum(['plain', 'keep']),
  /** answers longer than longAnswerChars: forward = one merged forward message, image = rendered by the
   * host's renderer (falls back to forward), off = sent as they are */
  longAnswer: z.enum(['forward', 'image', 'off']),
  longAnswerChars: z.number().int().min(50).max(100000),
  /** send a short answer sentence by sentence, with a human-like pause before each */
  splitSentences: z.boolean(),
  sentenceDelayMs: z.number().int().min(0).max(10000),
  /** quote the user's message (groups) / @ the sender (groups) */
  quote: z.boolean(),
  atSender: z.boolean(),
  /** when the model has not answered after this long, a short notice goes out (0: never) */
  thinkingNoticeMs: z.number().int().min(0).max(600000),
  /** the notice's text ('' = the language's default) */
  thinkingNoticeText: z.string().max(200),
  /** send the answer in pieces while the model still writes: off, private chats only, or everywhere
   * (a group override `on` streams in that group); README "Streamed answers" */
  stream: z.enum(['off', 'private', 'on']),
  /** a piece shorter than this waits to be merged with the next one */
  streamMinChars: z.number().int().min(0).max(2000),
  /** pieces sent at most while streaming; the rest of a longer answer goes out as one message */
  streamMaxPieces: z.number().int().min(1).max(20)
}
const DELIVERY_DEFAULTS = {
  markdown: 'plain', longAnswer: 'forward', longAnswerChars: 500, splitSentences: false, sentenceDelayMs: 800,
  quote: true, atSender: false, thinkingNoticeMs: 0, thinkingNoticeText: '', stream: 'private', streamMinChars: 30,
  streamMaxPieces: 4
} as const

const inputSchema = z.strictObject({
  /** fetch the replied-to message through the host and give its text and images to the model */
  quoted: z.boolean(),
  /** messages of a forwarded bundle given to the model (0: bundles are not expanded) */
  forwardMaxMessages: z.number().int().min(0).max(200),
  /** images for a channel whose model cannot see (channels[].vision false) are captioned first by this
   * channel ('' = the first enabled channel with vision) and model ('' = that channel's default) */
  captionChannel: z.string(),
  captionModel: z.string(),
  /** voice messages: an OpenAI-compatible /audio/transcriptions endpoint ('' baseUrl = not transcribed) */
  transcription: z.strictObject({
    baseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
    apiKey: z.string(),
    model: z.string()
  })
})

const groupLogSchema = z.strictObject({
  /** keep a rolling log of each group's messages (also those not addressed to the bot) */
  enabled: z.boolean(),
  /** messages kept per group */
  maxMessages: z.number().int().min(10).max(5000),
  /** recent messages given to the model as context when the bot is addressed in a group (0: none) */
  contextMessages: z.number().int().min(0).max(500),
  /** users and groups never logged (opted out) */
  excludeUsers: z.array(z.string()),
  excludeGroups: z.array(z.string())
})

const proactiveShape = {
  /** replies nobody asked for ("伪人"), drawn from the group log */
  enabled: z.boolean(),
  /** chance per unaddressed group message, before the multipliers */
  probability,
  /** messages in the group's last 10 minutes at or above busyMessages: x busyMultiplier; at or below
   * quietMessages: x quietMultiplier */
  busyMessages: z.number().int().min(1).max(10000),
  busyMultiplier: z.number().min(0).max(100),
  quietMessages: z.number().int().min(0).max(10000),
  quietMultiplier: z.number().min(0).max(100),
  hourlyCap: z.number().int().min(0).max(1000),
  dailyCap: z.number().int().min(0).max(10000),
  cooldownSeconds: z.number().int().min(0).max(86400)
}
const PROACTIVE_DEFAULTS = {
  enabled: false, probability: 0.03, busyMessages: 30, busyMultiplier: 0.5, quietMessages: 3, quietMultiplier: 0,
  hourlyCap: 3, dailyCap: 12, cooldownSeconds: 300
} as const

/** per event type; unset = tools.eventProbability */
const eventsShape = { poke: probability, join: probability, recall: probability }

// QQ actions (lib/tools/builtin/qq-*.ts): who may ask the bot to act on a group; per group
// (groups.<id>.qqActions) every field is optional and an unset one falls back to the global value.
const qqActionsShape = {
  /** off: no QQ action runs in the group (the tools answer so) */
  enabled: z.boolean(),
  /** QQ ids who may ask for moderation (mute, kick, recall, card, title, essence, notice) besides the masters */
  allowedUsers: z.array(z.string().regex(/^\d{1,20}$/, 'a QQ id')).max(1000),
  /** the group's admins and owner may ask for moderation */
  adminsMayAsk: z.boolean(),
  /** anyone may ask for the sending actions (poke, image, voice, file, face, music) */
  membersMaySend: z.boolean()
}
const QQ_ACTIONS_DEFAULTS = {
  enabled: true, allowedUsers: [] as string[], adminsMayAsk: true, membersMaySend: true, maxMuteSeconds: 86400, approvalRisk: 'high' as const
}

// Text-to-speech replies (lib/tts): when an answer is spoken and with which voice; per group every
// field is optional (groups.<id>.tts) and an unset one falls back to the global tts section.
const ttsShape = {
  /** off; request: only when asked (the speak tool, the voice command); always: also every answer of
   * at most maxChars characters */
  mode: z.enum(['off', 'request', 'always']),
  /** default voice of the speech endpoint (a preset's voice.voiceId wins when its voice is enabled) */
  voice: z.string().max(200),
  speed: z.number().min(0.25).max(4),
  maxChars: z.number().int().min(1).max(4096)
}

// Account-risk guard (lib/guard): the bot's own sends per chat weighed against these limits; past
// riskAt the chat is guarded (slower sends, long answers as forwards, no proactive replies, the master
// told once) until the figure stays below recoverBelow for coolDownMinutes. Per group: groups.<id>.guard.
const guardShape = {
  enabled: z.boolean(),
  /** sends in the last minute / hour that alone make the figure 100 */
  maxPerMinute: z.number().int().min(1).max(1000),
  maxPerHour: z.number().int().min(1).max(100000),
  /** a plain message at least this long counts as long; maxLongPerHour of them make the figure 100 */
  longChars: z.number().int().min(50).max(100000),
  maxLongPerHour: z.number().int().min(1).max(10000),
  /** the same (or nearly the same) text sent again within repeatWindowMinutes; maxRepeats make 100 */
  repeatWindowMinutes: z.number().int().min(1).max(1440),
  maxRepeats: z.number().int().min(1).max(1000),
  /** messages with links in the last hour, failed sends in the last hour, that alone make 100 */
  maxLinksPerHour: z.number().int().min(1).max(10000),
  maxFailuresPerHour: z.number().int().min(1).max(1000),
  /** at or above: the chat is guarded; it recovers after coolDownMinutes below recoverBelow */
  riskAt: z.number().int().min(1).max(100),
  recoverBelow: z.number().int().min(0).max(100),
  coolDownMinutes: z.number().min(0).max(1440),
  /** guarded: at least this long between two sends in the chat */
  slowDownMs: z.number().int().min(0).max(600000),
  /** guarded: answers longer than this go as a forward (or image), whatever delivery.longAnswer says */
  forwardAboveChars: z.number().int().min(0).max(100000),
  forwardAs: z.enum(['forward', 'image']),
  /** guarded: no proactive replies in the chat */
  pauseProactive: z.boolean(),
  /** tell the masters privately when a chat becomes guarded (once per episode) */
  tellMaster: z.boolean()
}
const GUARD_DEFAULTS = {
  enabled: false, maxPerMinute: 20, maxPerHour: 300, longChars: 500, maxLongPerHour: 20, repeatWindowMinutes: 10, maxRepeats: 5,
  maxLinksPerHour: 20, maxFailuresPerHour: 5, riskAt: 60, recoverBelow: 30, coolDownMinutes: 10, slowDownMs: 3000,
  forwardAboveChars: 200, forwardAs: 'forward', pauseProactive: true, tellMaster: true
} as const

export const groupConfigSchema = z.strictObject({
  preset: z.string().default(''),
  enabled: z.boolean().default(true),
  trigger: z.strictObject({
    // Unset fields fall back to the global trigger section.
    type: z.enum(['at', 'prefix', 'both', 'off']).optional(),
    randomRate: z.number().min(0).max(1).optional(),
    /** replaces trigger.keywords in this group */
    keywords: z.array(z.string().min(1).max(100)).max(200).optional()
  }).default({}),
  // Issue 18 overrides: unset fields fall back to the global sections.
  delivery: z.strictObject(deliveryShape).partial().optional(),
  conversation: z.enum(['user', 'group']).optional(),
  burstWindowMs: z.number().int().min(0).max(10000).optional(),
  contextMessages: z.number().int().min(0).max(500).optional(),
  proactive: z.strictObject(proactiveShape).partial().optional(),
  events: z.strictObject(eventsShape).partial().optional(),
  qqActions: z.strictObject(qqActionsShape).partial().optional(),
  tts: z.strictObject(ttsShape).partial().optional(),
  // Issue 20: who may use which feature, quotas, moderation strictness (lib/governance/schema.ts)
  ...groupGovernanceShape,
  guard: z.strictObject(guardShape).partial().optional()
})

const stringList = z.array(z.string()).default([])
const risk = z.enum(['low', 'medium', 'high'])

// Issue 19, web tools (lib/web): web_search through providers tried in order, fetch_url with limits.
// Not `web`: that section is the web server's.
const webProviderSchema = z.strictObject({
  name: z.string().regex(/^[\w\-.]{1,64}$/, 'letters, digits, - _ . (1-64 characters)').refine(...notReserved),
  type: z.enum(['searxng', 'tavily', 'bing', 'brave']),
  /** '' = the provider's public API (SearXNG has none: its address is required) */
  baseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })]).default(''),
  /** tried round-robin; a key answered 401/403/429 cools down for keyCooldownMs and the next is tried */
  apiKeys: z.array(z.strictObject({
    name: z.string().max(100).optional(),
    // a mask that matched no stored key (a key moved or its provider renamed) must not become the key
    key: z.string().min(1).refine((k) => !k.includes('****'), 'a masked key that matches no stored key: type the key again'),
    enabled: z.boolean().default(true)
  })).default([]),
  enabled: z.boolean().default(true),
  /** lower first; equal orders keep the list order */
  order: z.number().int().default(0)
}).superRefine((p, ctx) => {
  if (p.type === 'searxng' && !p.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'a SearXNG provider needs its address' })
})
const webToolsSchema = z.strictObject({
  search: z.strictObject({
    providers: z.array(webProviderSchema).default([]).superRefine((list, ctx) => {
      const seen = new Set<string>()
      list.forEach((p, i) => {
        if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate provider name ${p.name}` })
        seen.add(p.name)
      })
    }),
    /** results given to the model (the model may ask for fewer) */
    maxResults: z.number().int().min(1).max(20).default(5),
    /** characters of one result's snippet */
    snippetChars: z.number().int().min(50).max(2000).default(300),
    /** time limit of one provider request */
    timeoutMs: z.number().int().min(1000).max(120000).default(10000),
    keyCooldownMs: z.number().int().min(0).max(3600000).default(60000)
  }).prefault({}),
  fetch: z.strictObject({
    /** bytes of a page read at most (the rest is not downloaded) */
    maxBytes: z.number().int().min(1024).max(20_000_000).default(2_000_000),
    /** characters of readable text given to the model */
    maxChars: z.number().int().min(200).max(200000).default(12000),
    /** time limit of the whole fetch (redirects and body included) */
    timeoutMs: z.number().int().min(1000).max(120000).default(15000),
    maxRedirects: z.number().int().min(0).max(10).default(5),
    /** allow loopback, private, link-local and other non-public addresses (off: refused) */
    allowPrivate: z.boolean().default(false),
    userAgent: z.string().min(1).max(300).default('Mozilla/5.0 (compatible; lingxi-plugin; +fetch_url)')
  }).prefault({})
})

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
    trustProxy: z.boolean().default(false),
    /** host names or addresses that server-side fetches of chosen URLs may reach although not public (lib/web/outbound.ts) */
    allowPrivateHosts: z.array(z.string().trim().min(1).max(253)).max(100).default([])
  }),
  trigger: z.strictObject({
    private: z.enum(['always', 'prefix', 'off']),
    group: z.enum(['at', 'prefix', 'both', 'off']),
    prefix: z.string(),
    randomRate: z.number().min(0).max(1),
    /** a message containing one of these words is answered as if the bot were addressed */
    keywords: z.array(z.string().min(1).max(100)).max(200).default([])
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
    timeoutSeconds: z.number().min(1).max(600),
    /** group chats: one conversation per user, or one shared by the whole group */
    groupConversation: z.enum(['user', 'group']).default('user'),
    /** a user's messages arriving within this window are merged into one turn (0: off) */
    burstWindowMs: z.number().int().min(0).max(10000).default(0),
    /** the time each message is given with, after the history (README "What a turn costs"): to the
     * minute, the hour, the date, or not at all */
    turnTime: z.enum(['minute', 'hour', 'date', 'off']).default('minute')
  }),
  delivery: z.strictObject(deliveryShape).prefault(DELIVERY_DEFAULTS),
  input: inputSchema.prefault({
    quoted: true, forwardMaxMessages: 30, captionChannel: '', captionModel: '',
    transcription: { baseUrl: '', apiKey: '', model: 'whisper-1' }
  }),
  groupLog: groupLogSchema.prefault({ enabled: true, maxMessages: 200, contextMessages: 20, excludeUsers: [], excludeGroups: [] }),
  proactive: z.strictObject(proactiveShape).prefault(PROACTIVE_DEFAULTS),
  qqActions: z.strictObject({
    ...qqActionsShape,
    /** a mute asked for longer is cut to this (QQ's own limit is 30 days) */
    maxMuteSeconds: z.number().int().min(60).max(2592000),
    /** QQ actions of this risk or higher wait for the master's `#lx同意` unless the master asked (off: never) */
    approvalRisk: z.enum(['medium', 'high', 'off'])
  }).prefault(QQ_ACTIONS_DEFAULTS),
  tts: z.strictObject({
    ...ttsShape,
    /** an OpenAI-compatible speech API: <baseUrl>/audio/speech ('' = no speech) */
    baseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
    apiKey: z.string(),
    model: z.string(),
    format: z.enum(['mp3', 'wav', 'opus', 'aac', 'flac']),
    timeoutMs: z.number().int().min(1000).max(300000)
  }).prefault({ mode: 'off', voice: 'alloy', speed: 1, maxChars: 100, baseUrl: '', apiKey: '', model: 'tts-1', format: 'mp3', timeoutMs: 30000 }),
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
  // What model calls cost (lib/stats/cost.ts): prices per million tokens in one currency, applied to the
  // recorded usage (/api/stats/*) and to the channels' monthly budgets (channels[].monthlyBudget).
  pricing: z.strictObject({
    currency: z.string().trim().min(1).max(10),
    /** IANA timezone where a budget month starts ('' = the machine's) */
    timezone: z.string().max(64).refine((tz) => tz === '' || knownTimeZone(tz), { error: 'unknown timezone (an IANA name such as Asia/Shanghai)' }),
    /** matched by exact name first, then by the patterns with `*`, longest first */
    models: z.array(z.strictObject({
      model: z.string().trim().min(1).max(200),
      input: z.number().min(0),
      output: z.number().min(0),
      /** price of prompt tokens served from the provider's cache (unset: the input price) */
      cachedInput: z.number().min(0).optional()
    })).max(2000).superRefine((list, ctx) => {
      const seen = new Set<string>()
      list.forEach((p, i) => {
        if (seen.has(p.model)) ctx.addIssue({ code: 'custom', path: [i, 'model'], message: `duplicate price for ${p.model}` })
        seen.add(p.model)
      })
    })
  }).prefault({ currency: 'USD', timezone: '', models: [] }),
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
    /** per event type (poke, join = a new member, recall = a recalled message); unset = eventProbability */
    eventProbabilities: z.strictObject(eventsShape).partial().default({}),
    // Time limit (ms) of a script tool's load and of each call; the script's worker is stopped past it.
    scriptTimeoutMs: z.number().int().min(100).max(600000).default(10000),
    // A call that may carry text the asker did not write waits for the asker's "确认 <code>" (lib/tools/policy.ts).
    confirmTainted: z.boolean().default(true),
    confirmTimeoutMs: z.number().int().min(5000).max(600000).default(60000),
    // At most this many tools go to the model per request (chosen by relevance, lib/tools/select.ts).
    maxToolsPerRequest: z.number().int().min(1).max(128).default(64),
    // Tools sent in every request while they are offered (before the relevance choice).
    alwaysOnTools: stringList.default([])
  }),
  skills: z.strictObject({
    dir: z.string(),
    watch: z.boolean()
  }),
  mcp: z.strictObject({
    server: z.strictObject({
      apiKey: z.string(),
      tools: stringList,
      offeredTools: stringList,
      withheldTools: stringList
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
  // Reminders and scheduled tasks (lib/reminders): set by the set_reminder tool, listed and cancelled
  // by commands and the dashboard, delivered through the host at their time (also after restarts).
  reminders: z.strictObject({
    enabled: z.boolean(),
    /** IANA timezone of the times people say ('' = the machine's); a name Intl does not know is refused */
    timezone: z.string().max(64).refine((tz) => {
      if (!tz) return true
      try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true } catch { return false }
    }, 'not a timezone Intl knows (e.g. Asia/Shanghai, UTC)'),
    /** active reminders per user, and per group (all users together) */
    maxPerUser: z.number().int().min(1).max(1000),
    maxPerGroup: z.number().int().min(1).max(10000),
    /** smallest interval of a recurring reminder */
    minIntervalMinutes: z.number().int().min(1).max(1440),
    /** longest reminder text */
    maxMessageChars: z.number().int().min(10).max(4000),
    /** a recurring reminder in a group needs a group admin, the owner or a master */
    groupRecurringNeedsAdmin: z.boolean(),
    /** a delivery this late or later is marked late (seconds) */
    lateAfterSeconds: z.number().int().min(1).max(86400)
  }).prefault({ enabled: true, timezone: '', maxPerUser: 20, maxPerGroup: 50, minIntervalMinutes: 1, maxMessageChars: 500, groupRecurringNeedsAdmin: true, lateAfterSeconds: 60 }),
  webTools: webToolsSchema.prefault({}),
  // Issue 20: who may use the bot, how much, what it may say (lib/governance)
  access: accessSchema,
  quotas: quotasSchema,
  moderation: moderationSchema,
  guard: z.strictObject(guardShape).prefault(GUARD_DEFAULTS),
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
export type DeliverySettings = z.infer<typeof configSchema.shape.delivery>
export type ProactiveSettings = z.infer<typeof configSchema.shape.proactive>
export type GroupConfig = z.infer<typeof groupConfigSchema>
export type WebToolsConfig = z.infer<typeof webToolsSchema>
export type TtsSettings = z.infer<typeof configSchema.shape.tts>
export type GuardSettings = z.infer<typeof configSchema.shape.guard>

/** Sections addressable by GET/PUT /api/config/:section (every object or list section). */
export const SECTIONS = Object.keys(configSchema.shape) as SectionName[]
