// `#lx开场 状态 [群号]` / `#lx opener status [group]` and `#lx开场 恢复 [群号]` / `#lx opener resume [group]`
// (master): what the openers after silence would do in a group now, and starting them again in a group
// stopped after two unanswered openers. In a group the group is this one; in a private chat it is named.
// The rules are lib/initiative's; this file only talks.
import { initiativeFor } from '../lib/config/group-settings.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { openersToday } from '../lib/initiative/decide.js'
import { formatWall, resolveTimeZone } from '../lib/reminders/zoned.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

export class LingxiInitiative extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-initiative',
      dsc: '灵犀冷场开话题',
      event: 'message',
      priority: 50,
      rule: [{ reg: commandPattern('(开场|opener)(\\s+\\S+){0,2}\\s*'), fnc: 'opener', permission: 'master' }]
    })
  }

  async opener (e: HostEvent): Promise<boolean> {
    const { rt, s, say, tr } = await contextOf(e)
    if (!s.isMaster) return false
    const svc = rt.optional('initiative')
    if (!svc) { await say('initiative.off'); return true }
    const m = /(?:开场|opener)\s*(状态|status|恢复|resume)?\s*(\d{1,20})?\s*$/i.exec(s.text)
    const group = m?.[2] ?? s.groupId
    if (!m?.[1] || !group) { await say('initiative.usage'); return true }
    if (/恢复|resume/i.test(m[1])) {
      await say(await svc.resume(group) ? 'initiative.resumed' : 'initiative.notStopped', { group })
      return true
    }
    const cfg = rt.config.get()
    const tz = resolveTimeZone(cfg.reminders.timezone)
    const { state, decision } = svc.status(group)
    const now = rt.clock.now()
    await say('initiative.status', {
      group,
      enabled: tr(initiativeFor(cfg, group).enabled ? 'initiative.on' : 'initiative.offShort'),
      today: openersToday(state, tz, now),
      unanswered: state?.unanswered ?? 0,
      last: state?.lastSentAt !== undefined ? formatWall(tz, state.lastSentAt) : tr('initiative.never'),
      now: tr(decision.open ? 'initiative.reason.open' : `initiative.reason.${decision.reason}`)
    })
    return true
  }
}
