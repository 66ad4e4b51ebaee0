// `#lx额度` (`#lx quota`): what is left of the sender's quota today (and of the group's, in a group),
// from lib/governance. Masters have no limits.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

export class LingxiQuota extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-quota',
      dsc: '灵犀额度',
      event: 'message',
      priority: 50,
      rule: [{ reg: commandPattern('(额度|我的额度|quota)'), fnc: 'quota' }]
    })
  }

  async quota (e: HostEvent): Promise<boolean> {
    const { rt, s, say, tr } = await contextOf(e)
    const left = await rt.optional('governance')?.quotaLeft(s)
    if (!left || left.master) { await say('governance.master'); return true }
    const n = (v: number | null): string => (v === null ? tr('governance.unlimited') : String(v))
    const line = (who: string, l: typeof left.user): string => tr('governance.quotaLine', { who, messages: n(l.messages), tokens: n(l.tokens), minute: n(l.minuteMessages) })
    const lines = [tr('governance.quotaTitle', { reset: left.reset }), line(tr('governance.quotaYou'), left.user)]
    if (left.group) lines.push(line(tr('governance.quotaGroup'), left.group))
    await s.reply(lines.join('\n'), s.isGroup)
    return true
  }
}
