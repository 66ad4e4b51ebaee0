// Pokes (`notice.group.poke` / `notice.friend.poke`): when someone pokes the bot, it answers through
// the chat pipeline (preset, memory, tools) with probability `eventProbabilityFor('poke')` (the group's
// events.poke, tools.eventProbabilities.poke, else tools.eventProbability), as if the user
// had written "(name poked you)". A poke never gets an error message: failures are only logged.
// (Probability 1 always answers and 0 never: Math.random() is in [0, 1).)
import { errorText } from '../lib/core/errors.js'
import { chatScopeOf } from '../lib/chat/scope.js'
import { eventProbabilityFor } from '../lib/config/group-settings.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { sessionOf } from '../lib/host/session.js'
import { contextOf } from './context.js'
import { startDelivery } from '../lib/delivery/answer.js'

export class LingxiPoke extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-poke',
      dsc: '灵犀戳一戳',
      event: 'notice.*.poke',
      priority: 5000,
      rule: [{ reg: '', fnc: 'poke', log: false }]
    })
  }

  async poke (e: HostEvent): Promise<boolean> {
    const pre = sessionOf(e)
    if (pre.targetId !== pre.botId || pre.self) return false
    const { rt, s, tr } = await contextOf(e)
    const cfg = rt.config.get()
    if (s.groupId && Object.hasOwn(cfg.groups, s.groupId) && cfg.groups[s.groupId]?.enabled === false) return false
    const chat = rt.need('conversations').pipeline
    if (!chat || !(Math.random() < eventProbabilityFor(cfg, 'poke', s.groupId))) return false
    const scope = chatScopeOf(s)
    try {
      await chat.reply(scope, tr('poke.input', { name: s.nickname ?? s.userId }), {
        // lib/delivery as for chat, without quote (a notice has no message) and without a thinking notice
        onAnswer: async (answer, media) => { await startDelivery(rt, e, s, { quote: false, thinkingNotice: false }).answer(answer, media) }
      })
    } catch (err) {
      rt.log.warn('No answer to a poke', { userId: s.userId, error: errorText(err) })
    }
    return true
  }
}
