// `#lx任务 <when> <what to do>` (`#lx task …`): makes a scheduled task in this chat (a group, or the private
// chat with the sender); `#lx任务 cron "0 8 * * *" <what to do>` with a cron expression. `#lx任务列表`
// (`#lx tasks`): this group's tasks (a master in a private chat: all). `#lx任务 暂停|恢复|删除|运行 <id>`.
// For the masters and, with tasks.groupAdminsMay, a group's owner and admins for their group. The rules are
// lib/tasks'; this file only talks.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import type { TextKey } from '../lib/i18n.js'
import { formatWall } from '../lib/reminders/zoned.js'
import { describeSchedule, parseSchedule, ScheduleError, type ScheduleReason } from '../lib/tasks/schedule.js'
import { TaskRefused, type TaskActor, type TaskService } from '../lib/tasks/service.js'
import type { Task } from '../lib/tasks/types.js'
import { commandPattern } from './command.js'
import { contextOf, type BotContext } from './context.js'

const SHOWN = 30
/** What a refused schedule is told in the chat's language. */
const SCHEDULE_TEXT: Readonly<Record<ScheduleReason, TextKey>> = {
  empty: 'tasks.err.empty', noTime: 'tasks.err.noTime', past: 'tasks.err.past', tooFar: 'tasks.err.tooFar', badRecurrence: 'tasks.err.badRecurrence',
  badCron: 'tasks.err.badCron', tooOften: 'tasks.err.tooOften', noCron: 'tasks.err.noCron'
}
const NAME_CHARS = 20
const ACTION = /^(暂停|pause|恢复|resume|删除|delete|remove|运行|run)\s+(\S+)\s*$/i
const CRON = /^cron\s*["“”']([^"“”']+)["“”']\s+([\s\S]+)$/i

/** May the sender manage tasks here at all (the service checks each task's group again)? */
const mayManage = ({ rt, s }: BotContext): boolean => s.isMaster || (rt.config.get().tasks.groupAdminsMay && s.isGroup && s.isGroupAdmin)

const actorOf = ({ s }: BotContext): TaskActor => ({ userId: s.userId, isMaster: s.isMaster, isGroupAdmin: s.isGroupAdmin, ...(s.groupId !== undefined ? { groupId: s.groupId } : {}), via: 'chat' })

/** A task's name from its prompt: its first characters. */
function nameOf (prompt: string): string {
  const chars = [...prompt.replace(/\s+/g, ' ').trim()]
  return chars.length > NAME_CHARS ? `${chars.slice(0, NAME_CHARS).join('')}…` : chars.join('')
}

export class LingxiTasks extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-tasks',
      dsc: '灵犀定时任务',
      event: 'message',
      priority: 50,
      rule: [
        { reg: commandPattern('(任务列表|tasks)'), fnc: 'list' },
        { reg: commandPattern('(任务|task)(?!列表\\s*$|s\\s*$)', '[\\s\\S]*$'), fnc: 'manage' }
      ]
    })
  }

  async list (e: HostEvent): Promise<boolean> {
    const ctx = await contextOf(e)
    const { rt, s, say, tr, lang } = ctx
    const svc = rt.optional('tasks')
    if (!svc) { await say('tasks.off'); return true }
    if (!mayManage(ctx)) { await say('tasks.notAllowed'); return true }
    // in a group that group's; a master in a private chat sees all
    const tasks = svc.list(s.groupId !== undefined ? { groupId: s.groupId } : {})
    if (!tasks.length) { await say('tasks.empty'); return true }
    const tz = svc.timeZone
    const lines = tasks.slice(0, SHOWN).map((t) => tr('tasks.line', {
      id: t.id,
      name: t.name,
      schedule: describeSchedule(t.schedule, tz, lang),
      state: t.paused ? tr('tasks.pausedState') : t.nextAt !== undefined ? tr('tasks.nextAt', { next: formatWall(tz, t.nextAt) }) : tr('tasks.over'),
      // where it goes, when that is not this chat
      where: t.target.groupId !== undefined
        ? (t.target.groupId === s.groupId ? '' : tr('tasks.inGroup', { group: t.target.groupId }))
        : (s.groupId === undefined && t.target.userId === s.userId ? '' : tr('tasks.inPrivate', { user: t.target.userId ?? '' }))
    }))
    await say('tasks.list', { n: tasks.length, lines: lines.join('\n') })
    return true
  }

  async manage (e: HostEvent): Promise<boolean> {
    const ctx = await contextOf(e)
    const { rt, s, say } = ctx
    const svc = rt.optional('tasks')
    if (!svc) { await say('tasks.off'); return true }
    if (!mayManage(ctx)) { await say('tasks.notAllowed'); return true }
    const rest = (/(?:任务|task)\s*([\s\S]*)$/i.exec(s.text)?.[1] ?? '').trim()
    if (!rest) { await say('tasks.usage'); return true }
    try {
      const action = ACTION.exec(rest)
      if (action) await this.act(ctx, svc, (action[1] as string).toLowerCase(), action[2] as string)
      else await this.make(ctx, svc, rest)
    } catch (err) {
      if (!(err instanceof TaskRefused)) throw err
      if (err.reason === 'forbidden') await say('tasks.notAllowed')
      else if (err.schedule) await say(SCHEDULE_TEXT[err.schedule], { min: rt.config.get().tasks.minIntervalMinutes })
      else await say('tasks.refused', { error: err.message })
    }
    return true
  }

  private async make (ctx: BotContext, svc: TaskService, text: string): Promise<void> {
    const { rt, s, say, tr, lang } = ctx
    let schedule: string
    let prompt: string
    const cron = CRON.exec(text)
    if (cron) {
      schedule = (cron[1] as string).trim()
      prompt = (cron[2] as string).trim()
    } else {
      try {
        const parsed = await parseSchedule(text, { now: rt.clock.now(), timeZone: svc.timeZone, minIntervalMinutes: rt.config.get().tasks.minIntervalMinutes })
        schedule = parsed.matched
        prompt = parsed.rest.trim()
      } catch (err) {
        if (!(err instanceof ScheduleError)) throw err
        await say(SCHEDULE_TEXT[err.reason], { min: rt.config.get().tasks.minIntervalMinutes })
        return
      }
    }
    if (!prompt) { await say('tasks.usage'); return }
    const task = await svc.create(actorOf(ctx), {
      name: nameOf(prompt),
      prompt,
      schedule,
      // this chat: the group, or the private chat with the sender
      target: s.groupId !== undefined ? { groupId: s.groupId } : { userId: s.userId },
      ...(s.botId ? { botId: s.botId } : {})
    })
    const tz = svc.timeZone
    await say('tasks.created', { id: task.id, schedule: describeSchedule(task.schedule, tz, lang), next: task.nextAt !== undefined ? formatWall(tz, task.nextAt) : tr('tasks.never') })
  }

  private async act (ctx: BotContext, svc: TaskService, verb: string, id: string): Promise<void> {
    const { s, say, tr } = ctx
    const actor = actorOf(ctx)
    if (!svc.get(id)) { await say('tasks.notFound', { id }); return }
    const next = (t: Task): string => t.nextAt !== undefined ? formatWall(svc.timeZone, t.nextAt) : tr('tasks.never')
    if (verb === '暂停' || verb === 'pause') {
      const t = await svc.pause(id, actor)
      await say('tasks.paused', { id, name: t.name })
    } else if (verb === '恢复' || verb === 'resume') {
      const t = await svc.resume(id, actor)
      await say('tasks.resumed', { id, name: t.name, next: next(t) })
    } else if (verb === '删除' || verb === 'delete' || verb === 'remove') {
      const t = await svc.remove(id, actor)
      await say('tasks.removed', { id, name: t.name })
    } else {
      const task = svc.get(id) as Task
      const run = await svc.runNow(id, actor)
      if (run.status !== 'ok') await say('tasks.runFailed', { id, status: tr(run.status === 'failed' ? 'tasks.status.failed' : 'tasks.status.skipped'), error: run.error ?? '' })
      // an answer posted here speaks for itself; one sent elsewhere is confirmed
      else if (task.target.groupId !== s.groupId || (s.groupId === undefined && task.target.userId !== s.userId)) await say('tasks.ran', { id })
    }
  }
}
