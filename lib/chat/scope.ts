// The chat scope of a bot event: the normalised host session (lib/host/session.ts) in the words of
// the chat contracts. Also used for notices (a poke), whose sender may be missing. The one owner of
// which conversation a group message belongs to: the user's own in the group (chat.groupConversation
// `user`, the default) or the group's shared one (`group`, groups.<id>.conversation per group), whose
// turns carry the speaker's name.
import { groupConversationFor } from '../config/group-settings.js'
import type { Config } from '../config/schema.js'
import type { HostSession } from '../host/session.js'
import type { ChatScope } from './contracts.js'
import { conversationIdOf } from './store.js'

/** The conversation a whole group shares. */
const sharedConversationIdOf = (groupId: string): string => `group:${groupId}`

/**
 * The scope of the session's sender. With `cfg`, a group set to one shared conversation gets it;
 * without, every user has their own (the game, a poke before the config is at hand).
 */
export function chatScopeOf (s: HostSession, cfg?: Config): ChatScope {
  const shared = cfg !== undefined && s.groupId !== undefined && groupConversationFor(cfg, s.groupId) === 'group'
  return {
    userId: s.userId,
    ...(s.groupId ? { groupId: s.groupId } : {}),
    ...(s.nickname ? { nickname: s.nickname } : {}),
    ...(s.groupName ? { groupName: s.groupName } : {}),
    botId: s.botId,
    ...(s.botName ? { botName: s.botName } : {}),
    isMaster: s.isMaster,
    via: 'bot',
    conversationId: shared && s.groupId ? sharedConversationIdOf(s.groupId) : conversationIdOf(s.userId, s.groupId)
  }
}

/** The scope is the group's shared conversation (several people talk in it). */
export function isSharedConversation (scope: Pick<ChatScope, 'groupId' | 'conversationId'>): boolean {
  return scope.groupId !== undefined && scope.conversationId === sharedConversationIdOf(scope.groupId)
}

/**
 * A bot turn: the scope (with the ids of the messages it answers, which the group log context leaves
 * out) and the text as the conversation stores it (in a shared conversation, `name: text`).
 */
export function chatTurnOf (s: HostSession, cfg: Config, turn: { text: string; messageIds: string[] }): { scope: ChatScope; input: string } {
  const scope: ChatScope = { ...chatScopeOf(s, cfg), ...(turn.messageIds.length ? { messageIds: turn.messageIds } : {}) }
  const input = isSharedConversation(scope) ? `${s.nickname || s.userId}: ${turn.text}` : turn.text
  return { scope, input }
}
