// When the bot answers a message (spec 2.7): private chats `always`/`prefix`, groups `at`/`prefix`/
// `both`, a per-group override (groups.<id>.trigger, enabled flag) and a random join rate.
import type { Config } from '../config/schema.js'

export interface TriggerInput {
  isGroup: boolean
  groupId?: string
  /** The bot was @-mentioned (or called by its name). */
  atBot: boolean
  text: string
}

export interface TriggerDecision {
  triggered: boolean
  /** The text to answer (prefix removed). */
  text: string
  reason?: 'always' | 'prefix' | 'at' | 'random'
}

const NO: TriggerDecision = { triggered: false, text: '' }

export function decideTrigger (cfg: Pick<Config, 'trigger' | 'groups'>, m: TriggerInput, random: () => number = Math.random): TriggerDecision {
  const text = m.text.trim()
  const prefix = cfg.trigger.prefix.trim()
  const hasPrefix = prefix !== '' && text.startsWith(prefix)
  const stripped = hasPrefix ? text.slice(prefix.length).replace(/^[\s,，:：]+/, '') : text
  const yes = (reason: TriggerDecision['reason']): TriggerDecision => stripped ? { triggered: true, text: stripped, reason } : NO
  if (!m.isGroup) {
    const mode = cfg.trigger.private
    if (mode === 'always') return yes(hasPrefix ? 'prefix' : 'always')
    if (mode === 'prefix' && hasPrefix) return yes('prefix')
    return NO
  }
  const group = m.groupId && Object.hasOwn(cfg.groups, m.groupId) ? cfg.groups[m.groupId] : undefined
  if (group && !group.enabled) return NO
  const mode = group?.trigger.type ?? cfg.trigger.group
  if (mode === 'off') return NO
  if ((mode === 'at' || mode === 'both') && m.atBot) return yes('at')
  if ((mode === 'prefix' || mode === 'both') && hasPrefix) return yes('prefix')
  const rate = group?.trigger.randomRate ?? cfg.trigger.randomRate
  if (rate > 0 && random() < rate) return yes('random')
  return NO
}
