// Who may use the bot: the id lists of the access section as Sets, built once per configuration (a
// list of 10,000 ids is looked up in constant time), and the decision for one message.
import type { Config } from '../config/schema.js'
import { featureUsersFor } from '../config/group-settings.js'
import type { Feature } from './schema.js'

export interface Who { userId: string; groupId?: string; isMaster: boolean; isGroupAdmin: boolean }

/** ok; or refused: `group` (the bot ignores the group: always silent), `user` or `feature` (the refusal setting says whether to answer). */
export type AccessResult = 'ok' | 'group' | 'user' | 'feature'

interface Lists { userBlack: Set<string>; groupBlack: Set<string>; userWhite: Set<string>; groupWhite: Set<string> }

const compiled = new WeakMap<Config['access'], Lists>()
const featureSets = new WeakMap<readonly string[], Set<string>>()

function listsOf (a: Config['access']): Lists {
  let l = compiled.get(a)
  if (!l) {
    l = { userBlack: new Set(a.userBlacklist), groupBlack: new Set(a.groupBlacklist), userWhite: new Set(a.userWhitelist), groupWhite: new Set(a.groupWhitelist) }
    compiled.set(a, l)
  }
  return l
}

/** Whether the group may be answered at all (group blacklist, group whitelist mode). */
export function groupAllowed (cfg: Config, groupId: string | undefined): boolean {
  if (groupId === undefined) return true
  const l = listsOf(cfg.access)
  if (l.groupBlack.has(groupId)) return false
  return !cfg.access.groupWhitelistOnly || l.groupWhite.has(groupId)
}

/** The access decision for a user using a feature here. Masters always pass. */
export function decideAccess (cfg: Config, who: Who, feature: Feature): AccessResult {
  if (who.isMaster) return 'ok'
  if (!groupAllowed(cfg, who.groupId)) return 'group'
  const l = listsOf(cfg.access)
  if (l.userBlack.has(who.userId)) return 'user'
  if (cfg.access.userWhitelistOnly && !l.userWhite.has(who.userId)) return 'user'
  const allowed = featureUsersFor(cfg, feature, who.groupId)
  if (allowed.length === 0) return 'ok'
  let set = featureSets.get(allowed)
  if (!set) featureSets.set(allowed, (set = new Set(allowed)))
  return set.has(who.userId) || (who.isGroupAdmin && set.has('admin')) ? 'ok' : 'feature'
}
