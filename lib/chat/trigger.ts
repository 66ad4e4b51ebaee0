// When the bot answers a message (config `trigger`): private chats `always`/`prefix`, groups `at`/`prefix`/
// `both`, keywords (a message containing one is answered as if the bot were called), a per-group
// override (groups.<id>.trigger, enabled flag) and a random join rate. The one owner of "answer or not".
import { keywordsFor } from '../config/group-settings.js'
import { normalizeForMatch, normalizerGeneration, normalizeWord } from '../core/text-normalize.js'
import type { Config } from '../config/schema.js'

export interface TriggerInput {
  isGroup: boolean
  groupId?: string
  /** The bot was @-mentioned (or called by its name). */
  atBot: boolean
  text: string
  /** The plugin's own command prefix (`commandPrefix`, `#lx` by default). */
  commandPrefix?: string
}

export interface TriggerDecision {
  triggered: boolean
  /** The text to answer (prefix removed). */
  text: string
  reason?: 'always' | 'prefix' | 'at' | 'keyword' | 'random'
}

const NO: TriggerDecision = { triggered: false, text: '' }

// What the hosts' commands start with: `#` (`/` too: TRSS turns a leading `/` into `#`), the game
// prefixes `*` (星铁) and `%` (绝区零), full-width forms included (README, "Bot commands").
const COMMAND_START = /^[#＃*＊※%％/]/

/** A message meant for a command of some plugin (the host's, another plugin's or ours), not chat. */
export function looksLikeCommand (text: string, commandPrefix?: string): boolean {
  const t = text.trimStart()
  return COMMAND_START.test(t) || (!!commandPrefix && t.toLowerCase().startsWith(commandPrefix.toLowerCase()))
}

/** Keyword lists normalised for matching, per list (the configuration's arrays) and normaliser generation. */
const normalizedLists = new WeakMap<readonly string[], { generation: number; words: string[] }>()
function normalizedKeywords (keywords: readonly string[]): string[] {
  const generation = normalizerGeneration()
  let entry = normalizedLists.get(keywords)
  if (entry?.generation !== generation) {
    entry = { generation, words: [...new Set(keywords.map(normalizeWord).filter(Boolean))] }
    normalizedLists.set(keywords, entry)
  }
  return entry.words
}

/**
 * The text contains one of the keywords, both through the text normaliser of the word lists
 * (lib/core/text-normalize.ts: letter case, full-width forms, traditional characters, separators and
 * invisible characters inside the word do not matter).
 */
function hasKeyword (keywords: readonly string[], text: string): boolean {
  if (!keywords.length) return false
  const words = normalizedKeywords(keywords)
  if (!words.length) return false
  const normalized = normalizeForMatch(text).text
  return words.some((k) => normalized.includes(k))
}

export function decideTrigger (cfg: Pick<Config, 'trigger' | 'groups'>, m: TriggerInput, random: () => number = Math.random): TriggerDecision {
  const text = m.text.trim()
  const prefix = cfg.trigger.prefix.trim()
  const hasPrefix = prefix !== '' && text.startsWith(prefix)
  const stripped = hasPrefix ? text.slice(prefix.length).replace(/^[\s,，:：]+/, '') : text
  const yes = (reason: TriggerDecision['reason']): TriggerDecision => stripped ? { triggered: true, text: stripped, reason } : NO
  // commands pass on to the plugins they are meant for, unless the bot is called by the prefix
  if (!hasPrefix && looksLikeCommand(text, m.commandPrefix)) return NO
  if (!m.isGroup) {
    const mode = cfg.trigger.private
    if (mode === 'always') return yes(hasPrefix ? 'prefix' : 'always')
    if (mode === 'prefix' && hasPrefix) return yes('prefix')
    if (mode === 'prefix' && hasKeyword(keywordsFor(cfg), stripped)) return yes('keyword')
    return NO
  }
  const group = m.groupId && Object.hasOwn(cfg.groups, m.groupId) ? cfg.groups[m.groupId] : undefined
  if (group && !group.enabled) return NO
  const mode = group?.trigger.type ?? cfg.trigger.group
  if (mode === 'off') return NO
  if ((mode === 'at' || mode === 'both') && m.atBot) return yes('at')
  if ((mode === 'prefix' || mode === 'both') && hasPrefix) return yes('prefix')
  if (hasKeyword(keywordsFor(cfg, m.groupId), stripped)) return yes('keyword')
  const rate = group?.trigger.randomRate ?? cfg.trigger.randomRate
  if (rate > 0 && random() < rate) return yes('random')
  return NO
}
