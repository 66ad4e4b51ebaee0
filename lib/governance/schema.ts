// The settings of who may use the bot, how much, and what it may say (config sections `access`,
// `quotas`, `moderation`, and their per-group parts groups.<id>.access|quotas|moderation), as zod
// shapes that lib/config/schema.ts puts into the one configuration schema. Kept here so the rules of
// this domain (the regex check) stay with it. Documented in config/default.yaml.
import { z } from 'zod'
import { toDict } from '../core/dict.js'
import { regexProblem } from './regex.js'

const chatId = z.string().regex(/^[\w-]{1,64}$/, 'a QQ or group id (letters, digits, _ or -)')
const idList = z.array(chatId).max(100000)
/** who may use a feature: QQ ids, or `admin` for the group's admins and owner; [] = everyone */
const featureList = z.array(z.string().regex(/^(?:[\w-]{1,64})$/, 'a QQ id or admin')).max(10000)

const FEATURES = ['chat', 'drawing', 'game', 'tools', 'toolsMedium', 'toolsHigh'] as const
export type Feature = typeof FEATURES[number]

// tools: who may use tools at all (their turns run without any otherwise); toolsMedium / toolsHigh: who
// is offered the tools of that risk (lib/tools' risk levels; approvals still apply)
const featuresShape = { chat: featureList, drawing: featureList, game: featureList, tools: featureList, toolsMedium: featureList, toolsHigh: featureList }

const ACCESS_DEFAULTS = {
  userBlacklist: [], groupBlacklist: [],
  userWhitelistOnly: false, userWhitelist: [],
  groupWhitelistOnly: false, groupWhitelist: [],
  features: { chat: [], drawing: [], game: [], tools: [], toolsMedium: [], toolsHigh: [] },
  refusal: 'silent' as const, refusalText: ''
}

export const accessSchema = z.strictObject({
  /** these users get nothing from the bot (masters excepted) */
  userBlacklist: idList,
  /** the bot ignores these groups entirely */
  groupBlacklist: idList,
  /** only users in userWhitelist (and masters) are answered */
  userWhitelistOnly: z.boolean(),
  userWhitelist: idList,
  /** only groups in groupWhitelist are answered (private chats follow the user rules) */
  groupWhitelistOnly: z.boolean(),
  groupWhitelist: idList,
  /** who may use each feature; [] = everyone */
  features: z.strictObject(featuresShape),
  /** what a refused user gets: nothing, or a short answer */
  refusal: z.enum(['silent', 'reply']),
  /** the answer ('' = the built-in text in the bot's language) */
  refusalText: z.string().max(500)
}).prefault(ACCESS_DEFAULTS)

/** Limits of one user or one group; 0 = no limit. */
const limitsShape = {
  messagesPerMinute: z.number().int().min(0).max(1_000_000),
  messagesPerDay: z.number().int().min(0).max(100_000_000),
  tokensPerMinute: z.number().int().min(0).max(1e12),
  tokensPerDay: z.number().int().min(0).max(1e12)
}
const limits = z.strictObject(limitsShape)
export type QuotaLimits = z.infer<typeof limits>
const NO_LIMITS: QuotaLimits = { messagesPerMinute: 0, messagesPerDay: 0, tokensPerMinute: 0, tokensPerDay: 0 }

export const quotasSchema = z.strictObject({
  /** every user's limits (a user's messages and tokens counted over all chats) */
  user: limits,
  /** every group's limits (all its members together) */
  group: limits,
  /** one user's own limits over the others (user ids as keys) */
  users: z.record(chatId, limits.partial()).transform((u) => toDict(u)),
  /** the answer when a limit is reached ('' = the built-in text) */
  message: z.string().max(500),
  /** when a day's counts start again, HH:MM in `timezone` */
  resetTime: z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'HH:MM'),
  /** IANA name ('' = the machine's) */
  timezone: z.string().max(64)
}).prefault({ user: NO_LIMITS, group: NO_LIMITS, users: {}, message: '', resetTime: '00:00', timezone: '' })

const STRICTNESS = ['off', 'mask', 'refuse'] as const
export type Strictness = typeof STRICTNESS[number]

const regexList = z.array(z.string().min(1)).max(1000).superRefine((list, ctx) => {
  list.forEach((src, i) => {
    const problem = regexProblem(src)
    if (problem) ctx.addIssue({ code: 'custom', path: [i], message: `regular expression ${JSON.stringify(src.slice(0, 60))}: ${problem}` })
  })
})

export const moderationSchema = z.strictObject({
  /** off: nothing checked; mask: banned words become ＊＊＊; refuse: the message is not answered / the answer not sent */
  strictness: z.enum(STRICTNESS),
  /** check what users send (before the model) and what the model answers (before it goes out) */
  checkInput: z.boolean(),
  checkOutput: z.boolean(),
  /** also use the shipped list (config/moderation-default.txt, or <data>/moderation-words.txt when present) */
  useDefaultList: z.boolean(),
  /** the owner's banned words (case-insensitive) */
  keywords: z.array(z.string().min(1).max(100)).max(100000),
  /** the owner's regular expressions: `pattern` (case-insensitive) or `/pattern/flags` */
  regexes: regexList,
  /** the notice when a message or an answer is refused ('' = the built-in text) */
  notice: z.string().max(500),
  /** an OpenAI-compatible moderation API: <baseUrl>/moderations ('' = not used) */
  endpoint: z.strictObject({
    baseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })]),
    apiKey: z.string(),
    model: z.string().max(100),
    timeoutMs: z.number().int().min(500).max(60000)
  }),
  /** hits kept in the log (oldest dropped) */
  logMax: z.number().int().min(10).max(100000)
}).prefault({
  strictness: 'mask', checkInput: true, checkOutput: true, useDefaultList: true, keywords: [], regexes: [], notice: '',
  endpoint: { baseUrl: '', apiKey: '', model: 'omni-moderation-latest', timeoutMs: 5000 }, logMax: 2000
})

/** groups.<id>.access|quotas|moderation: unset fields fall back to the global sections. */
export const groupGovernanceShape = {
  access: z.strictObject({ features: z.strictObject(featuresShape).partial() }).partial().optional(),
  quotas: z.strictObject({ user: limits.partial(), group: limits.partial() }).partial().optional(),
  moderation: z.strictObject({ strictness: z.enum(STRICTNESS) }).partial().optional()
}
