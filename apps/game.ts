// Visual-novel mode: `#lx游戏角色` lists characters, `#lx开始游戏 <角色>` starts a game, then the
// player's messages are answered in character until `#lx结束游戏`. `#lx游戏状态` shows the game.
import { errorText } from '../lib/core/errors.js'
import { chatScopeOf } from '../lib/chat/scope.js'
import { sessionOf, type HostSession } from '../lib/host/session.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import type { Player } from '../lib/game/service.js'
import { commandPattern } from './command.js'
import { admitFeature, moderateAnswer } from '../lib/governance/gate.js'
import { contextOf } from './context.js'

const START = '(开始游戏|进入游戏|game start)'
const playerOf = (s: HostSession): Player => ({ userId: s.userId, ...(s.groupId ? { groupId: s.groupId } : {}) })

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
    const { rt, say } = await contextOf(e)
    const lines = rt.need('game').list().map((c) => `· ${c.id}: ${c.name}${c.description ? ` — ${c.description}` : ''}`)
    await (lines.length ? say('game.characters', { lines: lines.join('\n') }) : say('game.noCharacters'))
    return true
  }

  async start (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    if (!(await admitFeature(rt, s, 'game'))) return true // access lists and quotas (lib/governance)
    const arg = s.text.replace(commandPattern(START, ''), '').trim()
    const c = arg ? rt.need('game').find(arg) : rt.need('game').list()[0]
    if (!c) { await say('game.notFound', { name: arg }); return true }
    await rt.need('game').start(playerOf(s), c.id)
    rt.log.info('Game started', { userId: s.userId, character: c.id })
    await say('game.started', { name: c.name, description: c.description ? `\n${c.description}` : '' })
    return true
  }

  async leave (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const g = await rt.need('game').leave(playerOf(s))
    await (g ? say('game.ended', { turns: g.turns }) : say('game.none'))
    return true
  }

  async status (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const g = rt.need('game').session(playerOf(s))
    const c = g ? rt.need('game').find(g.characterId) : undefined
    await (g ? say('game.status', { name: c?.name ?? g.characterId, turns: g.turns }) : say('game.none'))
    return true
  }

  async talk (e: HostEvent): Promise<boolean> {
    const pre = sessionOf(e)
    if (!pre.text.trim() || pre.self) return false
    const { rt, s, say } = await contextOf(e)
    const p = playerOf(s)
    if (!rt.need('game').session(p)) return false
    if (!(await admitFeature(rt, s, 'game'))) return true
    try {
      const answer = await rt.need('game').talk({ ...chatScopeOf(s), nickname: s.nickname ?? s.userId }, s.text.trim())
      if (answer === undefined) return true // a player in a game: the message is not passed to chat
      const allowed = await moderateAnswer(rt, s, answer) // banned words: masked, or withheld
      if (allowed !== undefined) await s.reply(allowed)
    } catch (err) {
      rt.log.warn('Game reply failed', { userId: p.userId, error: errorText(err) })
      await say('game.silent')
    }
    return true
  }
}
