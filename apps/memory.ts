// `#lx忘记我` (`#lx forget me`): erases every memory the bot keeps about the sender, in every chat, and
// the turns still queued for extraction. `#lx我的记忆` (`#lx my memories`): lists them in a private
// chat; in a group only the count is said (memories are personal).
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { commandPattern, commandPrefix } from './command.js'

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
    const { rt } = await ensureStarted()
    const userId = String(e.user_id)
    rt.memoryExtractor.forget(userId)
    const n = await rt.memory.clearUser(userId, true)
    await e.reply(n > 0 ? `好的，我已经忘记了关于你的 ${n} 条记忆。` : '我这里没有关于你的记忆。')
    return true
  }

  async mine (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const list = rt.memory.list({ userId: String(e.user_id) })
    if (list.length === 0) { await e.reply('我还没有记住关于你的事情。'); return true }
    if (e.isGroup) { await e.reply(`我记得关于你的 ${list.length} 件事。私聊我发送「${commandPrefix()}我的记忆」查看，发送「${commandPrefix()}忘记我」全部删除。`); return true }
    const lines = list.slice(0, SHOWN).map((r, i) => `${i + 1}. [${r.category}] ${r.content}`)
    const more = list.length > SHOWN ? `\n……还有 ${list.length - SHOWN} 条` : ''
    await e.reply(`我记得关于你的这些事：\n${lines.join('\n')}${more}\n发送「${commandPrefix()}忘记我」可全部删除。`)
    return true
  }
}
