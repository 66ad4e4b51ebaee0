// Pokes (`notice.group.poke` / `notice.friend.poke`): when someone pokes the bot, it answers through
// the chat pipeline (preset, memory; no tools: a poke asks for nothing) with probability
// `eventProbabilityFor('poke')` (the group's events.poke, tools.eventProbabilities.poke, else
// tools.eventProbability), as if the user had written "(name poked you)", in the conversation a
// message of theirs would go to. A poke never gets an error message: failures are only logged.
// (Probability 1 always answers and 0 never: Math.random() is in [0, 1).)
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { sessionOf } from '../lib/host/session.js'
import { react, shouldReact } from '../lib/proactive/reactions.js'
import { contextOf } from './context.js'

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
    // one owner for event reactions (lib/proactive/reactions.ts): probability, group switch, the
    // group's shared conversation, delivery without quote or thinking notice, the group log
    if (!shouldReact(rt, s, 'poke')) return false
    await react(rt, s, { kind: 'poke', input: tr('poke.input', { name: s.nickname ?? s.userId }) })
    return true
  }
}
