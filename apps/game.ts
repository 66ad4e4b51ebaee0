// Visual-novel mode: `#lx游戏角色` lists characters, `#lx开始游戏 <角色>` starts a game, then the
// player's messages are answered in character until `#lx结束游戏`. `#lx游戏状态` shows the game.
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, isSelfMessage, type HostEvent } from '../lib/host/port.js'
import { commandPattern } from './command.js'

const START = '(开始游戏|进入游戏|game start)'
const player = (e: HostEvent): { userId: string; groupId?: string } =>
  ({ userId: String(e.user_id), ...(e.isGroup && e.group_id !== undefined ? { groupId: String(e.group_id) } : {}) })

export class LingxiGame extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-game',
      dsc: '灵犀视觉小说游戏',
      event: 'message',
      // Before drawing and chat: a player in a game talks to the character.
      priority: 150,
      rule: [
        { reg: commandPattern('(游戏角色|游戏列表|game list)'), fnc: 'characters' },
        { reg: commandPattern(`${START}\\s*(.*)`), fnc: 'start' },
        { reg: commandPattern('(结束游戏|退出游戏|离开游戏|game (leave|stop))'), fnc: 'leave' },
        { reg: commandPattern('(游戏状态|game status)'), fnc: 'status' },
        { reg: /^[^#＃]/, fnc: 'talk', log: false }
      ]
    })
  }

  async characters (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const lines = rt.game.list().map((c) => `· ${c.id}：${c.name}${c.description ? ` — ${c.description}` : ''}`)
    await e.reply(lines.length ? `可选角色：\n${lines.join('\n')}\n发送「开始游戏 <角色>」开始` : '还没有游戏角色，请在管理面板添加。')
    return true
  }

  async start (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const arg = (e.msg ?? '').replace(commandPattern(START, ''), '').trim()
    const c = arg ? rt.game.find(arg) : rt.game.list()[0]
    if (!c) { await e.reply(`没有找到角色「${arg}」，发送「游戏角色」查看可选角色`); return true }
    await rt.game.start(player(e), c.id)
    rt.log.info('Game started', { userId: String(e.user_id), character: c.id })
    await e.reply(`【${c.name}】${c.description ? `\n${c.description}` : ''}\n游戏开始！直接发消息和角色互动，发送「结束游戏」离开。`)
    return true
  }

  async leave (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const s = await rt.game.leave(player(e))
    await e.reply(s ? `游戏结束，共进行了 ${s.turns} 轮对话。` : '你当前没有进行中的游戏。')
    return true
  }

  async status (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const s = rt.game.session(player(e))
    const c = s ? rt.game.find(s.characterId) : undefined
    await e.reply(s ? `正在和「${c?.name ?? s.characterId}」游戏中，已进行 ${s.turns} 轮。` : '你当前没有进行中的游戏。')
    return true
  }

  async talk (e: HostEvent): Promise<boolean> {
    const text = (e.msg ?? '').trim()
    if (!text || isSelfMessage(e)) return false
    const { rt } = await ensureStarted()
    const p = player(e)
    if (!rt.game.session(p)) return false
    try {
      const answer = await rt.game.talk({
        ...p,
        nickname: e.sender.card || e.sender.nickname || p.userId,
        ...(e.group_name ? { groupName: e.group_name } : {}),
        botId: String(e.self_id),
        isMaster: e.isMaster === true,
        via: 'bot'
      }, text)
      if (answer === undefined) return true // a player in a game: the message is not passed to chat
      await e.reply(answer)
    } catch (err) {
      rt.log.warn('Game reply failed', { userId: p.userId, error: err instanceof Error ? err.message : String(err) })
      await e.reply('（角色陷入了沉默……请稍后再试）')
    }
    return true
  }
}
