// Category `group`: get_group_history, the current group's recent messages from the group log
// (lib/grouplog), also those not addressed to the bot. Only the group the chat is in; nothing in a
// private chat. What the daily-summary skill reads.
import { formatEntries } from '../../grouplog/format.js'
import type { Runtime } from '../../runtime.js'
import { inGroup, text, type BuiltinTool } from './util.js'

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 500
/** Characters of the answer (newest messages kept) and of one message in it. */
const MAX_CHARS = 12_000
const LINE_CHARS = 300

export function groupHistoryTool (rt: Runtime): BuiltinTool {
  return {
    name: 'get_group_history',
    description: '获取当前群最近的聊天记录（包括没有@你的消息），按时间从早到晚 (recent messages of the current group, oldest first, also those not addressed to you; for summaries and catching up)',
    category: 'group',
    risk: 'low',
    dangerous: false,
    offeredIn: inGroup,
    inputSchema: {
      type: 'object',
      properties: {
        limit: { type: 'number', description: `how many of the newest messages (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT})` },
        sinceHours: { type: 'number', description: 'only messages of the last N hours (e.g. 24 for a daily summary)' }
      }
    },
    execute: async (args, ctx) => {
      const groupId = ctx.scope.groupId
      if (!groupId) return text('This is a private chat: there is no group history', true)
      const log = rt.optional('groupLog')
      if (!log || !rt.config.get().groupLog.enabled) return text('The group log is turned off', true)
      const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.min(Math.floor(args.limit), MAX_LIMIT) : DEFAULT_LIMIT
      let entries = log.recent(groupId, limit)
      if (typeof args.sinceHours === 'number' && args.sinceHours > 0) {
        const since = rt.clock.now() - args.sinceHours * 3_600_000
        entries = entries.filter((e) => e.at >= since)
      }
      if (entries.length === 0) return text('No messages logged in this group yet')
      const lines = formatEntries(entries, { lineChars: LINE_CHARS, maxTotal: MAX_CHARS })
      return text(`${lines.length} message(s), oldest first:\n${lines.join('\n')}`)
    }
  }
}
