// One normalised view of a host event (message or notice): who wrote, where (private or which group),
// with which rights, whether the bot was addressed, how to answer, and what else of the chat lib/ may
// ask (the quoted message, a forwarded bundle, a forward to send, a member). Miao (icqq) and TRSS (OneBot
// adapters) fill events differently: numeric or string ids, `isGroup` set or not on notices, the member
// role on `e.sender.role` or only on `e.member`. The event is read here once (sessionOf keeps the view
// per event); apps/ and lib/ receive this view, never the raw event.
import { forwardMessages, makeForwardMsg, pickChat, quotedMessage, quotesMessage, watchedSend, type ChatSource } from './port.js'
import type { ForwardNode, HostEvent, HostTarget, Id, ReplyOpts, Seg, Sendable, SendResult } from './types.js'

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
  /** the rest of what the chat of the event offers (hostChat) */
  chat: HostChat
}

/** What lib/ may ask of the chat an event came from, bound to the event here (lib/host/port.ts does the asking). */
export interface HostChat {
  /** the message replies to (quotes) an earlier one */
  readonly quotes: boolean
  /** the quoted message as the host gives it (lib/input reads it), or undefined */
  quoted(): Promise<unknown>
  /** the messages of a forwarded bundle (a `forward` segment's id, icqq's resid) */
  forwarded(id: Id): Promise<unknown[]>
  /** one forward (merged) message of `nodes`, ready to send in this chat; undefined when the host has none */
  forward(nodes: ForwardNode[]): Promise<Sendable | undefined>
  /** the host's member object of a group member (lib/proactive reads its name); undefined outside groups */
  member(userId: Id): unknown
}

/** The chat handle of an event, or of a chat the plugin writes to on its own (a reminder: `{ group }` or `{ friend }`). */
export function hostChat (e: ChatSource): HostChat {
  return {
    quotes: quotesMessage(e),
    quoted: async () => await quotedMessage(e),
    forwarded: async (id) => await forwardMessages(e, id),
    forward: async (nodes) => await makeForwardMsg(e, nodes),
    member: (userId) => (e.group as { pickMember?: (id: Id) => unknown } | undefined)?.pickMember?.(userId)
  }
}

/**
 * A chat as a session when no event is at hand (a reminder due, a scheduled task, an opener after silence):
 * the host's chat object (pickChat) stands in for the event, so the answer goes out through lib/delivery
 * like any answer. `reply` shapes the sends (a reminder @-mentions its owner); by default each goes to the
 * chat as it is. Throws when the host has no account for the chat yet.
 */
export function chatSession (chat: { groupId?: string | undefined; userId: string; nickname?: string | undefined }, botId: string | undefined, reply?: (target: HostTarget) => HostSession['reply']): HostSession {
  const target = pickChat(chat.groupId !== undefined ? { groupId: chat.groupId, userId: chat.userId } : { userId: chat.userId }, botId)
  const isGroup = chat.groupId !== undefined
  return {
    kind: 'message',
    userId: chat.userId,
    ...(chat.nickname !== undefined ? { nickname: chat.nickname } : {}),
    ...(isGroup ? { groupId: chat.groupId } : {}),
    isGroup,
    isMaster: false,
    isGroupAdmin: false,
    atBot: false,
    botId: botId ?? '',
    text: '',
    images: [],
    segments: [],
    self: false,
    reply: reply ? reply(target) : async (msg) => await target.sendMsg(msg),
    chat: hostChat(isGroup ? { group: target } : { friend: target })
  }
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

/** Each event's view, made once (the chat handler's first look and its context share it). */
const seen = new WeakMap<HostEvent, HostSession>()

export function sessionOf (e: HostEvent): HostSession {
  let s = seen.get(e)
  if (!s) seen.set(e, (s = readSession(e)))
  return s
}

function readSession (e: HostEvent): HostSession {
  const userId = String(e.user_id)
  const groupId = groupIdOf(e)
  const isGroup = groupId !== undefined
  const nickname = e.sender?.card || e.sender?.nickname || undefined
  const botName = e.bot?.nickname || undefined
  const role = isGroup ? roleOf(e) : undefined
  const text = e.post_type === 'message' ? (e.msg ?? '') : ''
  const atBot = e.atBot === true || e.hasAlias === true || (e.at !== undefined && String(e.at) === String(e.self_id))
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
    reply: (msg, quote, replyOpts) => watchedSend({ groupId, userId, botId: String(e.self_id) }, msg, (m) => e.reply(m, quote, replyOpts)),
    chat: hostChat(e)
  }
}
