// Category `schedule`: set_reminder, list_reminders, cancel_reminder (lib/reminders). A reminder goes
// to the chat it was set in (the group, @-mentioning its owner, or the private chat); only the user's
// own reminders are listed and cancelled, a master's cancel reaches any. Low risk: a reminder is a
// message to the asker. A recurring reminder in a group (a post the whole group gets again and again)
// is not asked of the master through the approval gate (its risk is per tool, not per call): with
// `reminders.groupRecurringNeedsAdmin` (default) only the group's admins, its owner and masters set one.
// Without chrono-node (reading the times; lib/core/packages.ts) none of the three is offered: remindersOff.
import type { ChatScope } from '../../chat/contracts.js'
import { memberRole } from '../../host/actions.js'
import { ReminderRefused, type ReminderService } from '../../reminders/service.js'
import { describeRecurrence } from '../../reminders/recurrence.js'
import type { Reminder } from '../../reminders/types.js'
import { formatWall } from '../../reminders/zoned.js'
import type { Runtime } from '../../runtime.js'
import type { ToolCallContext } from '../types.js'
import { featureOff, inQqChat, str, text, type BuiltinTool } from './util.js'

function view (r: Reminder, tz: string): Record<string, unknown> {
  return {
    id: r.id,
    message: r.message,
    next: formatWall(tz, r.nextAt),
    ...(r.recurrence ? { repeats: describeRecurrence(r.recurrence, 'en') } : {}),
    chat: r.groupId !== undefined ? `group ${r.groupId}` : 'private'
  }
}

const onlyChat = text('Reminders can only be set, listed and cancelled in a QQ chat', true)

/** Why the reminder tools cannot work now (a package missing), or undefined: the one check, for offering all three and for set_reminder. */
const remindersOff = (): string | undefined => featureOff('reminders', 'Reminders are')

/** Offered in a QQ chat through the bot while reminders can work. */
const offered = (s: ChatScope): boolean => inQqChat(s) && remindersOff() === undefined

export function reminderTools (rt: Runtime): BuiltinTool[] {
  const service = (): ReminderService | undefined => rt.optional('reminders')
  const refused = (err: unknown): ReturnType<typeof text> => {
    if (err instanceof ReminderRefused) return text(err.message, true)
    throw err
  }
  return [
    {
      name: 'set_reminder',
      description: '设置提醒或定时任务，到时在当前聊天里发给用户（群里会@他）。例如「5分钟后提醒我喝水」「明天早上8点提醒我开会」「每周一9点提醒发周报」 (set a reminder in this chat: at the time, the message is sent here, @-mentioning the user in a group). Pass the time words as the user said them.',
      category: 'schedule',
      risk: 'low',
      dangerous: false,
      offeredIn: offered,
      inputSchema: {
        type: 'object',
        properties: {
          when: { type: 'string', description: 'when, as the user said it: "5分钟后", "明天早上8点", "下午3点半", "in 10 minutes", "tomorrow at 8am", "每周一9点", "every day at 7pm"' },
          message: { type: 'string', description: 'what to remind of, short, in the user\'s language (e.g. "喝水")' },
          recurrence: { type: 'string', description: 'optional, when it repeats and the time does not say so: "每天", "每周一", "每月1号", "每隔2小时", "every day", "every monday"' }
        },
        required: ['when', 'message']
      },
      execute: async (args, ctx) => {
        const svc = service()
        if (!svc) return text('Reminders are not running', true)
        if (!inQqChat(ctx.scope)) return onlyChat
        const off = remindersOff()
        if (off) return text(off, true)
        const when = str(args.when)
        const message = str(args.message)
        if (!when) return text('when is required', true)
        if (!message) return text('message is required', true)
        const repeat = str(args.recurrence)
        const s = ctx.scope
        try {
          const r = await svc.create({
            userId: s.userId,
            ...(s.nickname ? { nickname: s.nickname } : {}),
            ...(s.groupId !== undefined ? { groupId: s.groupId } : {}),
            ...(s.botId ? { botId: s.botId } : {}),
            isMaster: ctx.isMaster,
            // asked of the host only where it matters (a recurring reminder in a group)
            isGroupAdmin: s.groupId !== undefined && !ctx.isMaster && repeats(when, repeat) ? isAdminRole(await memberRole(s.groupId, s.userId, s.botId)) : false
          }, { when, message, ...(repeat ? { repeat } : {}) })
          return text({ set: true, ...view(r, svc.timeZone), note: 'Tell the user when it will come and its id (for cancelling).' })
        } catch (err) { return refused(err) }
      }
    },
    {
      name: 'list_reminders',
      description: '列出当前用户待发送的提醒（群里只列本群的） (the current user\'s pending reminders, soonest first; in a group only those of this group)',
      category: 'schedule',
      risk: 'low',
      dangerous: false,
      offeredIn: offered,
      inputSchema: { type: 'object', properties: {} },
      execute: async (_args, ctx: ToolCallContext) => {
        const svc = service()
        if (!svc) return text('Reminders are not running', true)
        if (!inQqChat(ctx.scope)) return onlyChat
        // in a group only this group's: the answer is read by the group
        const mine = svc.list({ userId: ctx.scope.userId, ...(ctx.scope.groupId !== undefined ? { groupId: ctx.scope.groupId } : {}) })
        return text(mine.length ? mine.map((r) => view(r, svc.timeZone)) : 'No pending reminders')
      }
    },
    {
      name: 'cancel_reminder',
      description: '取消一个提醒（只能取消用户自己的；主人可取消任何提醒） (cancel a reminder by id: only the user\'s own; the master any)',
      category: 'schedule',
      risk: 'low',
      dangerous: false,
      offeredIn: offered,
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'the reminder id, e.g. r0a1b2' } }, required: ['id'] },
      execute: async (args, ctx) => {
        const svc = service()
        if (!svc) return text('Reminders are not running', true)
        if (!inQqChat(ctx.scope)) return onlyChat
        const id = str(args.id)
        if (!id) return text('id is required', true)
        try {
          const r = await svc.cancel(id, { userId: ctx.scope.userId, isMaster: ctx.isMaster })
          return text({ cancelled: true, id: r.id, message: r.message })
        } catch (err) { return refused(err) }
      }
    }
  ]
}

/** Whether the words say it repeats (only then is the asker's group role asked of the host). */
function repeats (when: string, repeat: string | undefined): boolean {
  return repeat !== undefined || /每|天天|every|each|daily/i.test(when)
}

/** Owner or admin of the group (the host's answer; unknown counts as neither). */
const isAdminRole = (role: string | undefined): boolean => role === 'owner' || role === 'admin'
