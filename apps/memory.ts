// The memory commands (README "Memory"): `#lx忘记我` erases every memory the bot keeps about the sender, in
// every chat, with their histories, the turns still queued for extraction, the sender's memory choices and
// the memory texts kept in the answers' why records (lib/why). `#lx我的记忆` lists them in a private chat
// with where each came from ("你说过…" / "我推测…", when, pending or replaced); in a group only the count
// is said (memories are personal). `#lx记忆确认 <id>`, `#lx记忆删除 <id>`, `#lx更正记忆 <id> <text>` act on
// one of the sender's own memories (another's id reads as unknown); `#lx撤销记忆` takes back what the
// last extraction learnt about the sender; `#lx记忆公开 开|关` lets what was learnt in private chats be used in groups.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { MemoryReview } from '../lib/memory/review.js'
import type { MemoryRecord } from '../lib/memory/types.js'
import { formatWall, resolveTimeZone } from '../lib/reminders/zoned.js'
import { commandPattern } from './command.js'
import { contextOf, type BotContext } from './context.js'

const SHOWN = 30
const ID_COMMANDS = '(记忆确认|确认记忆|confirm\\s*memory|记忆删除|删除记忆|delete\\s*memory|更正记忆|记忆更正|correct\\s*memory)'

export class LingxiMemory extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-memory',
      dsc: '灵犀记忆管理',
      event: 'message',
      priority: 50,
      rule: [
        { reg: commandPattern('(忘记我|忘掉我|forget\\s*me)'), fnc: 'forget' },
        { reg: commandPattern('(我的记忆|my\\s*memor(y|ies))'), fnc: 'mine' },
        { reg: commandPattern(ID_COMMANDS, '(\\s+[\\s\\S]*)?$'), fnc: 'one' },
        { reg: commandPattern('(撤销记忆|undo\\s*memor(y|ies))'), fnc: 'undo' },
        { reg: commandPattern('(记忆公开|memory\\s*in\\s*groups)(\\s*\\S+)?'), fnc: 'openness' }
      ]
    })
  }

  async forget (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    rt.need('memoryExtractor').forget(s.userId)
    const n = await rt.need('memory').clearUser(s.userId, true)
    await rt.optional('memoryPrefs')?.forget(s.userId)
    await rt.optional('why')?.store.eraseMemoriesOf(s.userId) // the copies in the answers' why records (lib/why)
    await (n > 0 ? say('memory.forgot', { n }) : say('memory.nothingToForget'))
    return true
  }

  async mine (e: HostEvent): Promise<boolean> {
    const ctx = await contextOf(e)
    const { rt, s, say, tr } = ctx
    const list = rt.need('memory').list({ userId: s.userId })
    if (list.length === 0) { await say('memory.empty'); return true }
    if (s.isGroup) { await say('memory.countInGroup', { n: list.length }); return true }
    const lines = list.slice(0, SHOWN).map((r) => lineOf(ctx, r))
    const more = list.length > SHOWN ? tr('memory.more', { n: list.length - SHOWN }) : ''
    const pending = list.some((r) => r.status === 'pending') ? tr('memory.pendingHint') : ''
    await say('memory.list', { lines: lines.join('\n'), more: more + pending })
    return true
  }

  /** 记忆确认 / 记忆删除 / 更正记忆 <id> [text] */
  async one (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const m = new RegExp(`${ID_COMMANDS}\\s*#?(\\d+)?\\s*([\\s\\S]*)$`, 'i').exec(s.text.normalize('NFKC').trim())
    const verb = m?.[1]?.toLowerCase() ?? ''
    const id = Number(m?.[2])
    const kind = /确认|confirm/.test(verb) ? 'confirm' : /删除|delete/.test(verb) ? 'delete' : 'correct'
    const text = (m?.[3] ?? '').trim()
    if (!Number.isInteger(id) || id <= 0 || (kind === 'correct' && !text)) { await say(kind === 'correct' ? 'memory.correctUsage' : 'memory.idUsage'); return true }
    const review = new MemoryReview(rt.need('memory'), rt.clock)
    const r = review.ownedBy(id, s.userId)
    if (!r) { await say('memory.notFound', { id }); return true }
    if (kind === 'confirm') await say((await review.confirm(id, 'user')) ? 'memory.confirmed' : 'memory.notPending', { id })
    else if (kind === 'delete') { await rt.need('memory').remove(id, true); await say('memory.deleted', { id }) }
    else if (text.length > 500) await say('memory.tooLong')
    else { await review.correct(id, text, 'user'); await say('memory.corrected', { id }) }
    return true
  }

  async undo (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const n = await rt.need('memoryExtractor').undoLast(s.userId)
    await (n > 0 ? say('memory.undone', { n }) : say('memory.nothingToUndo'))
    return true
  }

  async openness (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const prefs = rt.need('memoryPrefs')
    const arg = /(?:记忆公开|memory\s*in\s*groups)\s*(\S+)?\s*$/i.exec(s.text.normalize('NFKC').trim())?.[1]?.toLowerCase()
    const fallback = rt.config.get().memory.privateInGroups
    if (arg === undefined) { await say(prefs.privateInGroups(s.userId, fallback) ? 'memory.openOn' : 'memory.openOff'); return true }
    const on = ['开', '开启', '打开', 'on', 'yes', '是'].includes(arg)
    if (!on && !['关', '关闭', 'off', 'no', '否'].includes(arg)) { await say('memory.openUsage'); return true }
    await prefs.setPrivateInGroups(s.userId, on)
    await say(on ? 'memory.openSetOn' : 'memory.openSetOff')
    return true
  }
}

/** `#12 你说过：喜欢咖啡（3-02 20:15）`, `#13 我推测：… （待确认）`. */
function lineOf ({ rt, tr }: BotContext, r: MemoryRecord): string {
  const when = formatWall(resolveTimeZone(rt.config.get().reminders.timezone), r.origin?.at ?? r.createdAt)
  const said = r.origin?.kind === 'inferred' ? 'memory.inferred' : r.origin?.kind === 'stated' ? 'memory.stated' : 'memory.noted'
  const state = r.status === 'pending' ? tr('memory.pendingMark') : r.status === 'superseded' ? tr('memory.supersededMark') : ''
  return tr('memory.line', { id: r.id, said: tr(said), content: r.content, when, state })
}
