// Pokes (`notice.group.poke` / `notice.friend.poke`): when someone pokes the bot, it answers through
// the chat pipeline (preset, memory, tools) with probability `tools.eventProbability`, as if the user
// had written "(name poked you)". A poke never gets an error message: failures are only logged.
// (Probability 1 always answers and 0 never: Math.random() is in [0, 1).)
import { errorText } from '../lib/core/errors.js'
import { t } from '../lib/i18n.js'
import { ensureStarted } from '../lib/lifecycle.js'
import { isSelfMessage, pluginBase, type HostEvent } from '../lib/host/port.js'
import { scopeOf } from './chat.js'

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
    if (e.target_id === undefined || String(e.target_id) !== String(e.self_id) || isSelfMessage(e)) return false
    const { rt } = await ensureStarted()
    const cfg = rt.config.get()
    const groupId = e.group_id !== undefined ? String(e.group_id) : undefined
    if (groupId && Object.hasOwn(cfg.groups, groupId) && cfg.groups[groupId]?.enabled === false) return false
    const chat = rt.chat.chat
    if (!chat || !(Math.random() < cfg.tools.eventProbability)) return false
    const scope = scopeOf(e, groupId)
    const name = scope.nickname ?? scope.userId
    try {
      await chat.reply(scope, t(cfg.language, 'poke.input', { name }), {
        onAnswer: async (answer) => { if (answer.trim()) await e.reply(answer.trim()) }
      })
    } catch (err) {
      rt.log.warn('No answer to a poke', { userId: scope.userId, error: errorText(err) })
    }
    return true
  }
}
