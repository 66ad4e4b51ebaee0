// The group log as context (lib/chat/README.md, "Request layout"): when the bot is called in a group,
// the group's messages since the conversation's last answer (at most contextMessagesFor(cfg, group) of
// them, not those of the turn being answered) head the user's message as its note. The note is stored
// with the message, so later turns replay it unchanged and the request keeps its start; nothing the
// history already holds is given again. A shared group conversation (chat.groupConversation: group)
// learns how its turns name speakers, in the system message.
import type { PromptContributor, TurnContext } from '../chat/contracts.js'
import { isSharedConversation } from '../chat/scope.js'
import { contextMessagesFor } from '../config/group-settings.js'
import type { Config } from '../config/schema.js'
import { stripReasoning } from '../chat/reasoning.js'
import { formatEntries } from './format.js'
import type { GroupLog, GroupLogEntry } from './types.js'

/** Characters of the whole block and of one message in it. */
const MAX_BLOCK_CHARS = 4000
const MAX_LINE_CHARS = 200

const SHARED_NOTICE = '这是整个群共享的对话：每条用户消息以“昵称: ”开头，标明是谁说的。(A conversation shared by the whole group; each user message starts with the speaker\'s name.)'

/** The shared conversation's rule for the system message: the same for all its turns. */
export function sharedConversationContributor (): PromptContributor {
  return {
    name: 'group-shared',
    slot: 'conversation',
    async contribute (turn: TurnContext): Promise<string | undefined> {
      if (turn.scope.via !== 'bot' || !isSharedConversation(turn.scope)) return undefined
      // others' words reach the model: the approval policy asks the asker before acting on them (lib/tools/policy.ts)
      turn.taint?.add('sharedHistory')
      return SHARED_NOTICE
    }
  }
}

/** The group's messages since the conversation's last answer, as the note of the user's message. */
export function groupLogNoteContributor (log: GroupLog, config: () => Config): PromptContributor {
  return {
    name: 'group-log',
    slot: 'note',
    async contribute (turn: TurnContext): Promise<string | undefined> {
      const { scope } = turn
      if (scope.via !== 'bot' || !scope.groupId) return undefined
      const n = contextMessagesFor(config(), scope.groupId)
      if (n <= 0) return undefined
      const entries = newEntries(log, scope.groupId, n, new Set(scope.messageIds ?? []), turn.previous)
      const lines = formatEntries(entries, { lineChars: MAX_LINE_CHARS, maxTotal: MAX_BLOCK_CHARS })
      if (lines.length === 0) return undefined
      if (entries.some((e) => e.userId !== scope.userId)) turn.taint?.add('groupLog')
      return `群里的新消息:\n${lines.join('\n')}`
    }
  }
}

/**
 * The newest `n` entries after the previous answer, without the turn's own messages and without the bot's
 * logged copy of that previous answer (the history holds it already).
 */
function newEntries (log: GroupLog, groupId: string, n: number, own: ReadonlySet<string>, previous: TurnContext['previous']): GroupLogEntry[] {
  // a few more than asked for: the turn's own messages are in the log too
  const answered = previous ? stripReasoning(previous.answer).trim() : ''
  return log.recent(groupId, n + own.size + 1)
    .filter((e) => e.messageId === undefined || !own.has(e.messageId))
    .filter((e) => !previous || (e.at >= previous.at && !(e.fromBot === true && sameAnswer(e.text, answered))))
    .slice(-n)
}

/** The logged answer is the stored one after moderation masked words: the same start is enough. */
function sameAnswer (logged: string, stored: string): boolean {
  const head = Math.min(40, logged.length, stored.length)
  return head > 0 && logged.slice(0, head) === stored.slice(0, head)
}
