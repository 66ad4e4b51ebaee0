// `#lx忘记我` (`#lx forget me`): erases every memory the bot keeps about the sender, in every chat, the
// turns still queued for extraction and the memory texts kept in the answers' why records (lib/why). `#lx我的记忆` (`#lx my memories`): lists them in a private
// chat; in a group only the count is said (memories are personal).
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'
import { contextOf } from './context.js'

const SHOWN = 30

export class LingxiMemory extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-memory',
      dsc: '灵犀记忆管理',
      event: 'message',
      priority: 50,
      rule: [
        { reg: commandPattern('(忘记我|忘掉我|forget\\s*me)'), fnc: 'forget' },
        { reg: commandPattern('(我的记忆|my\\s*memor(y|ies))'), fnc: 'mine' }
      ]
    })
  }

  async forget (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    rt.need('memoryExtractor').forget(s.userId)
    const n = await rt.need('memory').clearUser(s.userId, true)
    await rt.optional('why')?.store.eraseMemoriesOf(s.userId) // the copies in the answers' why records (lib/why)
    await (n > 0 ? say('memory.forgot', { n }) : say('memory.nothingToForget'))
    return true
  }

  async mine (e: HostEvent): Promise<boolean> {
    const { rt, s, say, tr } = await contextOf(e)
    const list = rt.need('memory').list({ userId: s.userId })
    if (list.length === 0) { await say('memory.empty'); return true }
    if (s.isGroup) { await say('memory.countInGroup', { n: list.length }); return true }
    const lines = list.slice(0, SHOWN).map((r, i) => `${i + 1}. [${r.category}] ${r.content}`)
    const more = list.length > SHOWN ? tr('memory.more', { n: list.length - SHOWN }) : ''
    await say('memory.list', { lines: lines.join('\n'), more })
    return true
  }
}
