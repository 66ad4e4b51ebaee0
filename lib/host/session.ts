// One normalised view of a host event (message or notice) for the bot commands in apps/: who wrote,
// where (private or which group), with which rights, whether the bot was addressed, and how to answer.
// Miao (icqq) and TRSS (OneBot adapters) fill events differently: numeric or string ids, `isGroup` set
// or not on notices, the member role on `e.sender.role` or only on `e.member`. Every app reads this
// instead of the raw fields, so "is this a group?" has one answer.
import { watchedSend } from './port.js'
import type { HostEvent, ReplyOpts, Seg, Sendable, SendResult } from './types.js'

type MemberRole = 'owner' | 'admin' | 'member'

export interface HostSession {
  kind: 'message' | 'notice'
  userId: string
  /** group card, else nickname; absent when the host gave neither */
  nickname?: string
  /** set exactly when the event happened in a group */
  groupId?: string
  groupName?: string
  isGroup: boolean
  isMaster: boolean
  /** the sender's role in the group; undefined in private chats or when the host does not say */
  role?: MemberRole
  /** owner or admin of the group (masters are not included: check isMaster too) */
  isGroupAdmin: boolean
  /** the bot was @-mentioned or called by one of its host aliases */
  atBot: boolean
  /** atBot, or the text starts with the chat prefix given to sessionOf */
  addressed: boolean
  botId: string
  botName?: string
  /** the message text as the host derived it (alias stripped), '' for notices */
  text: string
  images: string[]
  /** the message's segments as the host gave them (lib/input reads quotes, forwards, voice); [] for notices */
  segments: Seg[]
  /** the host's id of the message (absent for notices or when the host gives none) */
  messageId?: string
  /** the event comes from the bot's own account */
  self: boolean
  /** notices: the one acted on (the poked user), when the host says */
  targetId?: string
  /** notices: who acted (a recall's operator, who may differ from its author userId), when the host says */
  operatorId?: string
  /** recall notices: the id of the recalled message */
  recalledId?: string
  /** answers in the chat the event came from; `quote` quotes the message (groups) */
  reply(msg: Sendable, quote?: boolean, opts?: ReplyOpts): Promise<SendResult | false | undefined>
}

export interface SessionOptions {
  /** the chat trigger prefix (`trigger.prefix`); text starting with it counts as addressed */
  chatPrefix?: string
}

/** What the hosts put on `e.member` (icqq Member, TRSS adapters' member objects). */
interface MemberLike { role?: unknown; is_owner?: unknown; is_admin?: unknown; info?: { role?: unknown } }

const idText = (id: unknown): string | undefined =>
  id === undefined || id === null || id === '' ? undefined : String(id)

function asRole (v: unknown): MemberRole | undefined {
  return v === 'owner' || v === 'admin' || v === 'member' ? v : undefined
}

function roleOf (e: HostEvent & { member?: MemberLike }): MemberRole | undefined {
  const fromSender = asRole(e.sender?.role)
  if (fromSender) return fromSender
  const m = e.member
  if (!m || typeof m !== 'object') return undefined
  if (m.is_owner === true) return 'owner'
  if (m.is_admin === true) return 'admin'
  return asRole(m.role) ?? asRole(m.info?.role)
}

/** A group event has a group id and is not a private message (a temporary chat started from a group
 * may carry the group's id; it is still private). Notices: `notice_type` 'group' or a group id. */
function groupIdOf (e: HostEvent): string | undefined {
  if (e.message_type === 'private' || e.notice_type === 'friend') return undefined
  return idText(e.group_id)
}

export function sessionOf (e: HostEvent, opts: SessionOptions = {}): HostSession {
  const userId = String(e.user_id)
  const groupId = groupIdOf(e)
  const isGroup = groupId !== undefined
  const nickname = e.sender?.card || e.sender?.nickname || undefined
  const botName = e.bot?.nickname || undefined
  const role = isGroup ? roleOf(e) : undefined
  const text = e.post_type === 'message' ? (e.msg ?? '') : ''
  const atBot = e.atBot === true || e.hasAlias === true || (e.at !== undefined && String(e.at) === String(e.self_id))
  const prefix = opts.chatPrefix?.trim() ?? ''
  const targetId = idText(e.target_id)
  return {
    kind: e.post_type === 'notice' ? 'notice' : 'message',
    userId,
    ...(nickname ? { nickname } : {}),
    ...(groupId ? { groupId } : {}),
    ...(isGroup && e.group_name ? { groupName: e.group_name } : {}),
    isGroup,
    isMaster: e.isMaster === true,
    ...(role ? { role } : {}),
    isGroupAdmin: role === 'owner' || role === 'admin',
    atBot,
    addressed: atBot || (prefix !== '' && text.trim().startsWith(prefix)),
    botId: String(e.self_id),
    ...(botName ? { botName } : {}),
    text,
    images: e.img ?? [],
    segments: e.post_type === 'message' && Array.isArray(e.message) ? e.message : [],
    ...(e.post_type === 'message' && idText(e.message_id) ? { messageId: String(e.message_id) } : {}),
    self: userId === String(e.self_id),
    ...(targetId ? { targetId } : {}),
    ...(e.post_type === 'notice' && idText(e.operator_id) ? { operatorId: String(e.operator_id) } : {}),
    ...(e.post_type === 'notice' && e.sub_type === 'recall' && idText(e.message_id) ? { recalledId: String(e.message_id) } : {}),
    // through the one watched send path (lib/host/port.ts: the account-risk guard counts every send)
    reply: (msg, quote, replyOpts) => watchedSend({ groupId, userId, botId: String(e.self_id) }, msg, (m) => e.reply(m, quote, replyOpts))
  }
}
