// The chat scope of a bot event: the normalised host session (lib/host/session.ts) in the words of
// the chat contracts. Also used for notices (a poke), whose sender may be missing.
import type { HostSession } from '../host/session.js'
import type { ChatScope } from './contracts.js'
import { conversationIdOf } from './store.js'

export function chatScopeOf (s: HostSession): ChatScope {
  return {
    userId: s.userId,
    ...(s.groupId ? { groupId: s.groupId } : {}),
    ...(s.nickname ? { nickname: s.nickname } : {}),
    ...(s.groupName ? { groupName: s.groupName } : {}),
    botId: s.botId,
    ...(s.botName ? { botName: s.botName } : {}),
    isMaster: s.isMaster,
    via: 'bot',
    conversationId: conversationIdOf(s.userId, s.groupId)
  }
}
