// The settings in force in one chat: a group's overrides (groups.<id>.*) over the global sections
// (lib/config/README.md, "Per-group overrides"). One owner for "which value applies here", so every
// reader of delivery, proactive, event, conversation and burst settings agrees.
import type { Config, DeliverySettings, GroupConfig, GuardSettings, InitiativeSettings, ProactiveSettings } from './schema.js'
import type { Feature, QuotaLimits, Strictness } from '../governance/schema.js'
import { own } from '../core/dict.js'

export type EventKind = 'poke' | 'join' | 'recall'

/** The group's own entry, when it has one (`groups` is a null-prototype record keyed by input). */
export function groupEntry (cfg: Pick<Config, 'groups'>, groupId?: string): GroupConfig | undefined {
  return groupId !== undefined && Object.hasOwn(cfg.groups, groupId) ? cfg.groups[groupId] : undefined
}

/** Drops the keys a partial override leaves unset, so a spread keeps the global value for them. */
function defined<T extends object> (o: Partial<T> | undefined): Partial<T> {
  const out: Partial<T> = {}
  if (!o) return out
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] !== undefined) out[k] = o[k]
  return out
}

export function deliveryFor (cfg: Config, groupId?: string): DeliverySettings {
  return { ...cfg.delivery, ...defined(groupEntry(cfg, groupId)?.delivery) }
}

/** The account-risk guard's settings in this chat (private chats: the global ones). */
export function guardFor (cfg: Config, groupId?: string): GuardSettings {
  return { ...cfg.guard, ...defined(groupEntry(cfg, groupId)?.guard) }
}

export function proactiveFor (cfg: Config, groupId?: string): ProactiveSettings {
  return { ...cfg.proactive, ...defined(groupEntry(cfg, groupId)?.proactive) }
}

/** Openers after silence in this group (lib/initiative). */
export function initiativeFor (cfg: Config, groupId: string): InitiativeSettings {
  return { ...cfg.initiative, ...defined(groupEntry(cfg, groupId)?.initiative) }
}

/** Probability of reacting to an event of this kind here: the group's, else the type's, else
 * tools.eventProbability. */
export function eventProbabilityFor (cfg: Config, kind: EventKind, groupId?: string): number {
  return groupEntry(cfg, groupId)?.events?.[kind] ?? cfg.tools.eventProbabilities[kind] ?? cfg.tools.eventProbability
}

export function groupConversationFor (cfg: Config, groupId?: string): 'user' | 'group' {
  return groupEntry(cfg, groupId)?.conversation ?? cfg.chat.groupConversation
}

export function burstWindowFor (cfg: Config, groupId?: string): number {
  return groupEntry(cfg, groupId)?.burstWindowMs ?? cfg.chat.burstWindowMs
}

/** Group log messages given to the model when the bot is called here (0 when the log is off). */
export function contextMessagesFor (cfg: Config, groupId?: string): number {
  if (!cfg.groupLog.enabled) return 0
  return groupEntry(cfg, groupId)?.contextMessages ?? cfg.groupLog.contextMessages
}

export function keywordsFor (cfg: Pick<Config, 'trigger' | 'groups'>, groupId?: string): string[] {
  return groupEntry(cfg, groupId)?.trigger.keywords ?? cfg.trigger.keywords
}

// Governance (lib/governance/README.md): who may use a feature, quota limits and moderation strictness here.

/** Who may use a feature in this group: the group's list when it sets one, else the global list ([] = everyone). */
export function featureUsersFor (cfg: Config, feature: Feature, groupId?: string): readonly string[] {
  return groupEntry(cfg, groupId)?.access?.features?.[feature] ?? cfg.access.features[feature]
}

/** A user's limits when they write here: global, then the group's user limits, then the user's own. */
export function userQuotaFor (cfg: Config, userId: string, groupId?: string): QuotaLimits {
  return { ...cfg.quotas.user, ...defined(groupEntry(cfg, groupId)?.quotas?.user), ...defined(own(cfg.quotas.users, userId)) }
}

/** A group's limits (all members together): global, then the group's own. */
export function groupQuotaFor (cfg: Config, groupId: string): QuotaLimits {
  return { ...cfg.quotas.group, ...defined(groupEntry(cfg, groupId)?.quotas?.group) }
}

export function strictnessFor (cfg: Config, groupId?: string): Strictness {
  return groupEntry(cfg, groupId)?.moderation?.strictness ?? cfg.moderation.strictness
}
