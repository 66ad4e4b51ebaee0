// Recalled messages (`notice.group.recall`, `notice.friend.recall`): with probability
// `eventProbabilityFor('recall')` the bot remarks on it through the chat pipeline, told only that a
// message was recalled (the group log context leaves the recalled message out); an answer that repeats
// the recalled text (when the group log kept it) is not sent (lib/proactive/reactions.ts). The recalled
// message leaves the group log in any case. No remark on the bot's own messages or recalls; passed on either way.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { memberName } from '../lib/proactive/names.js'
import { react, recalledText, shouldReact } from '../lib/proactive/reactions.js'
import { contextOf } from './context.js'

export class LingxiRecall extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-recall',
      dsc: '灵犀撤回消息',
      event: 'notice.*.recall',
      priority: 5000,
      rule: [{ reg: '', fnc: 'recalled', log: false }]
    })
  }

  async recalled (e: HostEvent): Promise<boolean> {
    const { rt, s, tr } = await contextOf(e)
    const secret = recalledText(rt, s)
    // a recalled message (the bot's own too) leaves the group log: no later turn gets it as context
    if (s.groupId && s.recalledId) rt.optional('groupLog')?.forget(s.groupId, s.recalledId)
    if (s.self || !shouldReact(rt, s, 'recall')) return false
    // the host may know only the ids yet: its member objects are asked for the names
    const name = s.nickname ?? await memberName(rt.clock, s.chat, s.userId) ?? s.userId
    const input = s.operatorId && s.operatorId !== s.userId
      ? tr('events.recallOther', { operator: await memberName(rt.clock, s.chat, s.operatorId) ?? s.operatorId, name })
      : tr('events.recall', { name })
    await react(rt, s, { kind: 'recall', input, ...(secret ? { secret } : {}), ...(s.recalledId ? { hide: [s.recalledId] } : {}) })
    return false
  }
}
