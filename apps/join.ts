// New group members (`notice.group.increase`): with probability `eventProbabilityFor('join')` the bot
// welcomes them through the chat pipeline (lib/proactive/reactions.ts). The event is passed on either
// way (other plugins may greet too); the bot's own joining is ignored; failures are only logged.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { sessionOf } from '../lib/host/session.js'
import { memberName } from '../lib/proactive/names.js'
import { react, shouldReact } from '../lib/proactive/reactions.js'
import { contextOf } from './context.js'

export class LingxiJoin extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-join',
      dsc: '灵犀欢迎新成员',
      event: 'notice.group.increase',
      priority: 5000,
      rule: [{ reg: '', fnc: 'welcome', log: false }]
    })
  }

  async welcome (e: HostEvent): Promise<boolean> {
    const pre = sessionOf(e)
    if (!pre.groupId || pre.self) return false
    const { rt, s, tr } = await contextOf(e)
    if (!shouldReact(rt, s, 'join')) return false
    // the host may know only the id yet: its member object is asked for the name
    const name = s.nickname ?? await memberName(rt.clock, s.chat, s.userId) ?? s.userId
    await react(rt, s, { kind: 'join', input: tr('events.join', { name }) })
    return false
  }
}
