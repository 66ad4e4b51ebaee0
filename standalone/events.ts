// Builds message events the way an adapter would: flattened
// `{type, ...}` segments, ids, `sender`, and `bot`/`friend`/`group`/`member` objects whose sends
// land in the transcript. Derived fields (msg, isMaster, ...) are added later by derive.ts.
import type { Account } from './account.js'
import { attachHistory } from './history.js'
import { hostId } from './ids.js'
import { renderText, toSegments } from './segments.js'
import type { Transcript } from './transcript.js'
import type { Id, Member, Profile, Sendable, StandaloneEvent } from './types.js'

export interface MessageInput {
  kind: 'private' | 'group'
  userId: Id
  groupId?: Id
  message: Sendable
  /** prepend an @bot segment (group messages) */
  atBot?: boolean
  nickname?: string
  role?: Member['role']
}

export interface EventDeps {
  profile: Profile
  account: Account
  transcript: Transcript
}

/** A raw message event, before the host derives its fields and wraps `reply`. */
export function buildMessageEvent(deps: EventDeps, input: MessageInput): StandaloneEvent {
  const { profile, account, transcript } = deps
  const isGroup = input.kind === 'group'
  if (isGroup && input.groupId === undefined) throw new Error('a group message needs a groupId')
  const user_id = hostId(profile, input.userId)
  const group_id = isGroup ? hostId(profile, input.groupId as Id) : undefined
  const message = toSegments(input.message)
  if (input.atBot && isGroup) message.unshift({ type: 'at', qq: profile === 'trss' ? String(account.uin) : account.uin })
  if (input.nickname) account.setNickname(user_id, input.nickname)
  if (isGroup && input.role) account.setRole(group_id as Id, user_id, input.role)
  const nickname = input.nickname ?? account.fl.get(String(user_id))?.nickname ?? `user${user_id}`
  const message_id = transcript.nextMessageId()

  const e = {
    post_type: 'message',
    message_type: input.kind,
    sub_type: isGroup ? 'normal' : 'friend',
    self_id: account.uin,
    user_id,
    message_id,
    time: Math.floor(Date.now() / 1000),
    message,
    raw_message: renderText(message),
    sender: { user_id, nickname, ...(isGroup ? { card: nickname, role: input.role ?? 'member' } : {}) },
    recall: async () => transcript.recall(message_id)
  } as StandaloneEvent

  attachBot(e, profile, account)
  if (group_id !== undefined) attachGroup(e, account, group_id, user_id)
  if (!isGroup || profile === 'trss') e.friend = account.pickFriend(user_id)

  if (profile === 'trss') {
    e.adapter_id = 'standalone'
    e.adapter_name = 'Standalone'
    const quoted = message.find((s) => s.type === 'reply')
    if (quoted) e.reply_id = quoted.id as Id
  }
  attachHistory(e, profile, account, transcript)
  return e
}

export interface PokeInput {
  /** who pokes */
  userId: Id
  /** in this group (else a friend poke) */
  groupId?: Id
  /** who is poked (default: the bot) */
  targetId?: Id
}

/** A poke notice (`notice.group.poke` / `notice.friend.poke`) as icqq and the OneBot adapters give it. */
export function buildPokeEvent(deps: EventDeps, input: PokeInput): StandaloneEvent {
  const { profile, account } = deps
  const isGroup = input.groupId !== undefined
  const user_id = hostId(profile, input.userId)
  const group_id = isGroup ? hostId(profile, input.groupId as Id) : undefined
  const nickname = account.fl.get(String(user_id))?.nickname ?? `user${user_id}`
  const e = {
    post_type: 'notice',
    notice_type: isGroup ? 'group' : 'friend',
    sub_type: 'poke',
    self_id: account.uin,
    user_id,
    operator_id: user_id,
    target_id: input.targetId !== undefined ? hostId(profile, input.targetId) : account.uin,
    time: Math.floor(Date.now() / 1000),
    message: [],
    sender: { user_id, nickname }
  } as unknown as StandaloneEvent
  attachBot(e, profile, account)
  if (group_id !== undefined) attachGroup(e, account, group_id, user_id)
  else e.friend = account.pickFriend(user_id)
  return e
}

/** Miao's loader attaches `bot` non-enumerably; TRSS events carry the adapter's account object. */
export function attachBot(e: StandaloneEvent, profile: Profile, account: Account): void {
  if (profile === 'miao') Object.defineProperty(e, 'bot', { value: account, enumerable: false, writable: true, configurable: true })
  else e.bot = account
}

/** The group an event happened in, and the sender as its member. */
export function attachGroup(e: StandaloneEvent, account: Account, groupId: Id, userId: Id): void {
  const group = account.pickGroup(groupId)
  e.group_id = groupId
  e.group_name = group.name
  e.group = group
  e.member = group.pickMember(userId)
}
