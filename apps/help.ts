// `#lx帮助` / `#lx help`: the bot's commands, with the configured prefix; masters also see theirs.
// Any other `#lx…` text (a mistyped command) gets a pointer to the help instead of going to the model.
// Priority 4000: after every command handler and the drawing keywords, before the chat catch-all.
import { ensureStarted } from '../lib/lifecycle.js'
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import type { Language as Lang } from '../lib/i18n.js'
import { commandPattern, commandPrefix } from './command.js'

interface Line { cmd: string; what: Record<Lang, string>; master?: true }

const LINES: Line[] = [
  { cmd: '帮助 | help', what: { 'zh-CN': '显示本帮助', en: 'this help' } },
  { cmd: '人设列表 | presets', what: { 'zh-CN': '可用的人设', en: 'the presets (personas)' } },
  { cmd: '当前人设 | preset', what: { 'zh-CN': '当前使用的人设', en: 'the preset in use' } },
  { cmd: '切换人设 <id> | use <id>', what: { 'zh-CN': '切换人设', en: 'switch the preset' } },
  { cmd: '我的记忆 | my memories', what: { 'zh-CN': '我记得的关于你的事', en: 'what I remember about you' } },
  { cmd: '忘记我 | forget me', what: { 'zh-CN': '删除关于你的全部记忆', en: 'erase everything I remember about you' } },
  { cmd: '游戏角色 | game list', what: { 'zh-CN': '视觉小说角色', en: 'visual-novel characters' } },
  { cmd: '开始游戏 <角色> | game start <name>', what: { 'zh-CN': '与角色开始游戏', en: 'start playing with a character' } },
  { cmd: '游戏状态 | game status', what: { 'zh-CN': '当前游戏', en: 'the current game' } },
  { cmd: '结束游戏 | game stop', what: { 'zh-CN': '结束游戏', en: 'leave the game' } },
  { cmd: '面板 | panel', what: { 'zh-CN': '管理面板登录链接（私聊发送）', en: 'dashboard login link (sent privately)' }, master: true },
  { cmd: '待批准 | approvals', what: { 'zh-CN': '等待批准的工具调用', en: 'tool calls waiting for approval' }, master: true },
  { cmd: '同意 <id> [会话] | approve <id> [session]', what: { 'zh-CN': '批准工具调用', en: 'approve a tool call' }, master: true },
  { cmd: '拒绝 <id> | deny <id>', what: { 'zh-CN': '拒绝工具调用', en: 'refuse a tool call' }, master: true }
]

const HEAD: Record<Lang, string> = { 'zh-CN': '灵犀命令：', en: 'Lingxi commands:' }
const MASTER_HEAD: Record<Lang, string> = { 'zh-CN': '主人命令：', en: 'Master commands:' }
const CHAT_HINT: Record<Lang, string> = {
  'zh-CN': '聊天：私聊直接发消息；群聊 @我 或以「{prefix}」开头。',
  en: 'Chat: in a private chat just write; in a group @ me or start with "{prefix}".'
}
const UNKNOWN: Record<Lang, string> = { 'zh-CN': '没有这个命令。发送 {help} 查看全部命令。', en: 'No such command. Send {help} for the list.' }

/** The help text for a user (master lines only for masters), with the configured prefixes. */
export function helpText (lang: Lang, isMaster: boolean, chatPrefix: string): string {
  const p = commandPrefix()
  const fmt = (l: Line): string => `${l.cmd.split(' | ').map((c) => p + c).join(' / ')}  ${l.what[lang]}`
  const out = [HEAD[lang], ...LINES.filter((l) => !l.master).map(fmt)]
  if (isMaster) out.push('', MASTER_HEAD[lang], ...LINES.filter((l) => l.master).map(fmt))
  if (chatPrefix) out.push('', CHAT_HINT[lang].replace('{prefix}', chatPrefix))
  return out.join('\n')
}

export class LingxiHelp extends pluginBase() {
  constructor () {
    super({
      name: 'lingxi-help',
      dsc: '灵犀帮助',
      event: 'message',
      priority: 4000,
      rule: [
        { reg: commandPattern('(帮助|help|菜单|menu)?'), fnc: 'help' },
        { reg: commandPattern('\\S', ''), fnc: 'unknown' }
      ]
    })
  }

  async help (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const cfg = rt.config.get()
    await e.reply(helpText(cfg.language, e.isMaster === true, cfg.trigger.prefix.trim()))
    return true
  }

  async unknown (e: HostEvent): Promise<boolean> {
    const { rt } = await ensureStarted()
    const chatPrefix = rt.config.get().trigger.prefix.trim()
    if (chatPrefix && (e.msg ?? '').trim().startsWith(chatPrefix)) return false // the chat prefix itself starts with the command prefix
    await e.reply(UNKNOWN[rt.config.get().language].replace('{help}', `${commandPrefix()}帮助`), true)
    return true
  }
}
