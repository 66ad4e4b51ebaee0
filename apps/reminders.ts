// `#lx提醒列表` (`#lx reminders`): the asker's pending reminders (in a group only those of that group). `#lx取消提醒 <id>` (`#lx cancel
// reminder <id>`): cancels one of the asker's own (a master any). Reminders are set by talking to the
// bot (the set_reminder tool); the logic is lib/reminders. With `reminders.enabled: false` no new ones
// are set, and those already set can still be listed and cancelled.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { ReminderRefused } from '../lib/reminders/service.js'
import { describeRecurrence } from '../lib/reminders/recurrence.js'
import { formatWall } from '../lib/reminders/zoned.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

const SHOWN = 30

export class LingxiReminders extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-reminders',
      dsc: '灵犀提醒',
      event: 'message',
      priority: 50,
      rule: [
        { reg: commandPattern('(提醒列表|我的提醒|reminders|my\\s*reminders)'), fnc: 'list' },
        { reg: commandPattern('(取消提醒|cancel\\s*reminder)(\\s*\\S+)?'), fnc: 'cancel' }
      ]
    })
  }

  async list (e: HostEvent): Promise<boolean> {
    const { rt, s, say, tr, lang } = await contextOf(e)
    const reminders = rt.optional('reminders')
    if (!reminders) { await say('reminders.off'); return true }
    // in a group only this group's: a private reminder's text is not for the group to read
    const mine = reminders.list({ userId: s.userId, ...(s.groupId !== undefined ? { groupId: s.groupId } : {}) })
    if (mine.length === 0) { await say('reminders.empty'); return true }
    const tz = reminders.timeZone
    const lines = mine.slice(0, SHOWN).map((r) => tr('reminders.line', {
      id: r.id,
      when: formatWall(tz, r.nextAt),
      repeat: r.recurrence ? ` (${describeRecurrence(r.recurrence, lang)})` : '',
      // where it goes, when that is not this chat
      where: r.groupId === s.groupId ? '' : r.groupId !== undefined ? tr('reminders.inGroup', { group: r.groupId }) : tr('reminders.private'),
      message: r.message
    }))
    await say('reminders.list', { n: mine.length, lines: lines.join('\n') })
    return true
  }

  async cancel (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const reminders = rt.optional('reminders')
    if (!reminders) { await say('reminders.off'); return true }
    const id = /(?:取消提醒|cancel\s*reminder)\s*(\S+)?\s*$/i.exec(s.text)?.[1]
    if (!id) { await say('reminders.cancelUsage'); return true }
    try {
      const r = await reminders.cancel(id, { userId: s.userId, isMaster: s.isMaster })
      await say('reminders.cancelled', { id: r.id, message: r.message })
    } catch (err) {
      if (!(err instanceof ReminderRefused)) throw err
      await say(err.reason === 'notYours' ? 'reminders.notYours' : 'reminders.notFound', { id })
    }
    return true
  }
}
