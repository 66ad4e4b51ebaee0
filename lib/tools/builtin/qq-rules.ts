// The rules every QQ action (qq-moderation.ts, qq-send.ts) passes before it runs, in this order, and
// before the master is asked: a QQ group chat; QQ actions on in the group; the asker allowed to ask
// (masters always; moderation: qqActions.allowedUsers, or the group's admins and owner with
// adminsMayAsk; sending: anyone with membersMaySend); the member acted on (never the bot itself or
// the owner; an admin only when a master or the owner asks and the bot is the owner); the bot's own
// role where QQ requires one (admin; owner for special titles and for acting on admins). Then the one
// approval policy (lib/tools/policy.ts): the asker's confirmation when the turn held others' words, and
// for actions at or above qqActions.approvalRisk asked by someone other than a master, the master's
// `#lx同意`, honouring tools.approvalMode.
import { botIds } from '../../host/port.js'
import { memberRole, type MemberRole } from '../../host/actions.js'
import { t, type TextKey } from '../../i18n.js'
import type { Runtime } from '../../runtime.js'
import type { ChatScope } from '../../chat/contracts.js'
import type { ToolCallContext, ToolRisk } from '../types.js'
import { inGroup, inQqChat } from './util.js'

/** sending (poke, media) < moderation (mute, recall, card...) < high (kick, mute-all, notice). */
export type QqTier = 'send' | 'moderation' | 'high'
export const TIER_RISK: Record<QqTier, ToolRisk> = { send: 'low', moderation: 'medium', high: 'high' }

export interface QqAsk {
  tool: string
  tier: QqTier
  args: Record<string, unknown>
  /** the bot's role QQ requires for this action (before the target's own rule) */
  botNeeds?: 'admin' | 'owner'
  /** the member acted on, when there is one */
  target?: string
  /** the target may be the bot itself (its own card) */
  selfOk?: boolean
  /** only masters and the group's admins and owner may ask (a message whose author is unknown) */
  askerAdmin?: boolean
}

/** The first rule: QQ actions run in a group chat through the bot only (the tools are offered nowhere else). */
export const inBotGroup = (s: ChatScope): boolean => inGroup(s) && inQqChat(s)

/** Where the action runs once allowed. */
export interface QqPlace { groupId: string; botId: string | undefined }

export type QqCheck = { ok: true; place: QqPlace } | { ok: false; text: string }

interface Settings { enabled: boolean; allowedUsers: string[]; adminsMayAsk: boolean; membersMaySend: boolean }

function settingsFor (rt: Runtime, groupId: string): Settings & { approvalRisk: 'medium' | 'high' | 'off' } {
  const cfg = rt.config.get()
  const g = cfg.groups[groupId]?.qqActions
  const q = cfg.qqActions
  return {
    enabled: g?.enabled ?? q.enabled,
    allowedUsers: g?.allowedUsers ?? q.allowedUsers,
    adminsMayAsk: g?.adminsMayAsk ?? q.adminsMayAsk,
    membersMaySend: g?.membersMaySend ?? q.membersMaySend,
    approvalRisk: q.approvalRisk
  }
}

const isAdmin = (r: MemberRole | undefined): boolean => r === 'admin' || r === 'owner'

/** The text of a refusal (or a result) in the configured language. */
export function qqText (rt: Runtime, key: TextKey, vars: Record<string, string | number> = {}): string {
  return t(rt.config.get().language, key, vars)
}

/** Everything but the approval: may this asker have this done here, and can the bot do it? */
async function allowed (rt: Runtime, ask: QqAsk, ctx: ToolCallContext): Promise<QqCheck> {
  const no = (key: TextKey, vars: Record<string, string | number> = {}): QqCheck => ({ ok: false, text: qqText(rt, key, vars) })
  const s = ctx.scope
  const groupId = s.groupId
  if (!groupId || !inBotGroup(s)) return no('qq.onlyGroup')
  const cfg = settingsFor(rt, groupId)
  if (!cfg.enabled) return no('qq.off')
  const botId = s.botId ?? botIds()[0]
  const place: QqPlace = { groupId, botId }
  const master = ctx.isMaster
  const askerRole = master && !ask.target ? undefined : await memberRole(groupId, s.userId, botId)
  if (!master) {
    const listed = cfg.allowedUsers.includes(s.userId) || (cfg.adminsMayAsk && isAdmin(askerRole))
    if (!(listed || (ask.tier === 'send' && cfg.membersMaySend))) return no('qq.notAllowed')
    if (ask.askerAdmin && !isAdmin(askerRole)) return no('qq.notAllowed')
  }
  let botNeeds = ask.botNeeds
  if (ask.target) {
    if (botId !== undefined && ask.target === String(botId) && !ask.selfOk) return no('qq.targetBot')
    const targetRole = ask.target === s.userId ? askerRole : await memberRole(groupId, ask.target, botId)
    if (!targetRole) return no('qq.targetUnknown', { id: ask.target })
    if (ask.tier !== 'send' && ask.target !== String(botId)) {
      // QQ lets nobody act on the owner, and only the owner on admins (the bot too)
      if (targetRole === 'owner') return no('qq.targetOwner')
      if (targetRole === 'admin') {
        if (!master && ask.target !== s.userId && askerRole !== 'owner') return no(askerRole === 'admin' ? 'qq.adminOnAdmin' : 'qq.memberOnAdmin')
        botNeeds = 'owner'
      }
    }
  }
  if (botNeeds) {
    const botRole = botId === undefined ? undefined : await memberRole(groupId, botId, botId)
    if (botNeeds === 'owner' ? botRole !== 'owner' : !isAdmin(botRole)) return no(botNeeds === 'owner' ? 'qq.botNotOwner' : 'qq.botNotAdmin')
  }
  return { ok: true, place }
}

/**
 * Runs the rules, then asks the master when the action needs it. `risk` is the tool's effective risk
 * (the registry's, with the configured risk lists applied).
 */
export async function checkQq (rt: Runtime, ask: QqAsk, ctx: ToolCallContext): Promise<QqCheck> {
  const check = await allowed(rt, ask, ctx)
  if (!check.ok) return check
  const registry = rt.optional('tools')?.registry
  const tool = registry?.get(ask.tool)
  if (!registry || !tool) return { ok: false, text: qqText(rt, 'qq.refused') }
  // the asker's confirmation of a tainted turn and the master's approval: the one approval policy
  const refusal = await registry.policy.authorizeGroupAction(tool, ask.args, ctx, settingsFor(rt, check.place.groupId).approvalRisk)
  return refusal ? { ok: false, text: refusal.reason } : check
}
