// Group notices besides pokes, built the way icqq and the OneBot adapters give them: a member joined
// (`notice.group.increase`) and a message recalled (`notice.group.recall` / `notice.friend.recall`).
import { attachBot, attachGroup, type EventDeps } from './events.js'
import { hostId } from './ids.js'
import type { Id, StandaloneEvent } from './types.js'

export interface IncreaseInput {
  groupId: Id
  /** who joined (the bot's own id: the bot joined) */
  userId: Id
  nickname?: string
  /** who let them in (default: themselves, sub_type approve) */
  operatorId?: Id
}

export interface RecallInput {
  /** the author of the recalled message */
  userId: Id
  /** who recalled it (default: the author) */
  operatorId?: Id
  /** in this group (else a friend's recall) */
  groupId?: Id
  messageId: Id
}

/** `notice.group.increase`; the sender is the new member. */
export function buildIncreaseEvent (deps: EventDeps, input: IncreaseInput): StandaloneEvent {
  const { profile, account } = deps
  const user_id = hostId(profile, input.userId)
  const group_id = hostId(profile, input.groupId)
  if (input.nickname) account.setNickname(user_id, input.nickname)
  const nickname = input.nickname ?? account.fl.get(String(user_id))?.nickname ?? `user${user_id}`
  const e = {
    post_type: 'notice',
    notice_type: 'group',
    sub_type: 'increase',
    self_id: account.uin,
    user_id,
    operator_id: input.operatorId !== undefined ? hostId(profile, input.operatorId) : user_id,
    time: Math.floor(Date.now() / 1000),
    message: [],
    sender: { user_id, nickname, card: nickname }
  } as unknown as StandaloneEvent
  attachBot(e, profile, account)
  attachGroup(e, account, group_id, user_id)
  return e
}

/** `notice.group.recall` / `notice.friend.recall`; `user_id` is the author, `operator_id` who recalled. */
export function buildRecallEvent (deps: EventDeps, input: RecallInput): StandaloneEvent {
  const { profile, account } = deps
  const user_id = hostId(profile, input.userId)
  const nickname = account.fl.get(String(user_id))?.nickname ?? `user${user_id}`
  const e = {
    post_type: 'notice',
    notice_type: input.groupId !== undefined ? 'group' : 'friend',
    sub_type: 'recall',
    self_id: account.uin,
    user_id,
    operator_id: hostId(profile, input.operatorId ?? input.userId),
    message_id: input.messageId,
    time: Math.floor(Date.now() / 1000),
    message: [],
    sender: { user_id, nickname }
  } as unknown as StandaloneEvent
  attachBot(e, profile, account)
  if (input.groupId !== undefined) attachGroup(e, account, hostId(profile, input.groupId), user_id)
  else e.friend = account.pickFriend(user_id)
  return e
}
