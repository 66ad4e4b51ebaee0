// The group log as context: when the bot is called in a group, the group's last
// contextMessagesFor(cfg, group) messages (not those of the turn being answered) go into the system
// prompt as one bounded block, so "what do you think of what they said?" has something to go on.
// A shared group conversation (chat.groupConversation: group) also learns how its turns name speakers.
import type { PromptContributor, TurnContext } from '../chat/contracts.js'
import { isSharedConversation } from '../chat/scope.js'
import { contextMessagesFor } from '../config/group-settings.js'
import type { Config } from '../config/schema.js'
import { formatEntries } from './format.js'
import type { GroupLog } from './types.js'

/** Characters of the whole block and of one message in it. */
const MAX_BLOCK_CHARS = 4000
const MAX_LINE_CHARS = 200

export function groupContextContributor (log: GroupLog, config: () => Config): PromptContributor {
  return {
    name: 'group-log',
    slot: 'groupLog',
    async contribute (turn: TurnContext): Promise<string | undefined> {
      const { scope } = turn
      if (scope.via !== 'bot' || !scope.groupId) return undefined
      const parts: string[] = []
      // others' words reach the model: the approval policy asks the asker before acting on them (lib/tools/policy.ts)
      if (isSharedConversation(scope)) turn.taint?.add('sharedHistory')
      if (isSharedConversation(scope)) parts.push('这是整个群共享的对话：每条用户消息以“昵称: ”开头，标明是谁说的。(A conversation shared by the whole group; each user message starts with the speaker\'s name.)')
      const n = contextMessagesFor(config(), scope.groupId)
      if (n > 0) {
        const own = new Set(scope.messageIds ?? [])
        // a few more than asked for: the turn's own messages are in the log too
        const entries = log.recent(scope.groupId, n + own.size).filter((e) => e.messageId === undefined || !own.has(e.messageId)).slice(-n)
        const lines = formatEntries(entries, { lineChars: MAX_LINE_CHARS, maxTotal: MAX_BLOCK_CHARS })
        if (lines.length > 0) parts.push(`最近的群聊记录:\n${lines.join('\n')}`)
        if (lines.length > 0 && entries.some((e) => e.userId !== scope.userId)) turn.taint?.add('groupLog')
      }
      return parts.length > 0 ? parts.join('\n\n') : undefined
    }
  }
}
