// One bot account: the object behind `e.bot`, Miao's `Bot` and TRSS's `Bot[id]`. Its targets'
// `sendMsg` write to the transcript instead of a chat network.
import { hostId } from './ids.js'
import type { Transcript } from './transcript.js'
import { essenceAction, groupActions, type GroupAction } from './moderation.js'
import type { ForwardNode, FriendTarget, GroupTarget, Id, Member, Profile, Seg, Sendable, SendResult } from './types.js'

export interface Account {
  uin: Id
  self_id: Id
  nickname: string
  fl: Map<string, { user_id: Id; nickname: string }>
  gl: Map<string, { group_id: Id; group_name: string }>
  adapter?: { id: string; name: string }
  pickFriend(id: Id): FriendTarget
  pickUser(id: Id): FriendTarget
  pickGroup(id: Id): GroupTarget
  pickMember(groupId: Id, userId: Id): Member
  makeForwardMsg(nodes: ForwardNode[]): Promise<Seg>
  /** sets a message as its group's essence (TRSS and icqq: on the account) */
  setEssenceMessage(id: Id): Promise<boolean>
  /** harness-only: the group management calls the plugin made (standalone/moderation.ts) */
  readonly actions: GroupAction[]
  /** icqq-style helpers; present on the Miao profile only (TRSS stdin/OneBot accounts lack them) */
  sendPrivateMsg?(userId: Id, msg: Sendable): Promise<SendResult>
  sendGroupMsg?(groupId: Id, msg: Sendable): Promise<SendResult>
  /** harness-only: role of a member (default 'member') and display names */
  setRole(groupId: Id, userId: Id, role: Member['role']): void
  setNickname(userId: Id, nickname: string): void
}

export interface AccountOptions {
  profile: Profile
  botId: Id
  nickname: string
  transcript: Transcript
}

const forward = async (nodes: ForwardNode[]): Promise<Seg> => ({ type: 'node', data: nodes })

export function createAccount(opts: AccountOptions): Account {
  const { profile, transcript } = opts
  const uin = hostId(profile, opts.botId)
  const roles = new Map<string, Member['role']>()
  const fl: Account['fl'] = new Map()
  const gl: Account['gl'] = new Map()
  const nick = (userId: Id): string => fl.get(String(userId))?.nickname ?? `user${userId}`
  const recallMsg = async (id: Id): Promise<boolean> => transcript.recall(id)
  const actions: GroupAction[] = []
  const manage = { profile, botId: uin, actions, role: (groupId: Id, userId: Id): Member['role'] => roles.get(`${groupId}:${userId}`) ?? 'member' }

  const pickFriend = (id: Id): FriendTarget => {
    const user_id = hostId(profile, id)
    return {
      user_id,
      sendMsg: async (msg, quote) => ({ message_id: transcript.record('private', user_id, uin, msg, quote).message_id }),
      recallMsg,
      makeForwardMsg: forward,
      getInfo: () => ({ user_id, nickname: nick(user_id) })
    }
  }
  const pickMember = (groupId: Id, userId: Id): Member => {
    const role = roles.get(`${groupId}:${userId}`) ?? 'member'
    const name = nick(userId)
    return {
      user_id: hostId(profile, userId), group_id: hostId(profile, groupId), nickname: name, card: name, role,
      // icqq counts the owner as an admin; OneBot (TRSS) does not, its loader does instead
      is_owner: role === 'owner', is_admin: role === 'admin' || (profile === 'miao' && role === 'owner'),
      _info: { role }, info: { role }
    }
  }
  const pickGroup = (id: Id): GroupTarget => {
    const group_id = hostId(profile, id)
    const name = gl.get(String(id))?.group_name ?? `group${id}`
    return {
      group_id, name, mute_left: 0,
      sendMsg: async (msg, quote) => ({ message_id: transcript.record('group', group_id, uin, msg, quote).message_id }),
      recallMsg,
      makeForwardMsg: forward,
      getInfo: () => ({ group_id, group_name: name }),
      pickMember: (userId: Id) => pickMember(group_id, userId),
      ...groupActions(manage, group_id)
    }
  }

  const account: Account = {
    uin, self_id: uin, nickname: opts.nickname, fl, gl,
    pickFriend, pickUser: pickFriend, pickGroup, pickMember, makeForwardMsg: forward,
    setEssenceMessage: essenceAction(actions), actions,
    setRole: (groupId, userId, role) => { roles.set(`${groupId}:${userId}`, role) },
    setNickname: (userId, nickname) => { fl.set(String(userId), { user_id: hostId(profile, userId), nickname }) }
  }
  if (profile === 'miao') {
    account.sendPrivateMsg = (userId, msg) => pickFriend(userId).sendMsg(msg)
    account.sendGroupMsg = (groupId, msg) => pickGroup(groupId).sendMsg(msg)
  } else {
    account.adapter = { id: 'standalone', name: 'Standalone' }
  }
  return account
}
