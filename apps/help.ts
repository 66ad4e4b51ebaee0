// `#lx帮助` / `#lx help`: the bot's commands, with the configured prefix; masters also see theirs.
// Any other `#lx…` text (a mistyped command) gets a pointer to the help instead of going to the model.
// Priority 4000: after every command handler and the drawing keywords, before the chat catch-all.
// In zh-CN each command is shown with its Chinese and English names, in en with the English one.
import { pluginBase, type HostEvent } from '../lib/host/port.js'
import { t, type Language, type TextKey } from '../lib/i18n.js'
import { commandPattern, commandPrefix } from './command.js'
import { contextOf } from './context.js'

interface Line { zh: string; en: string; what: TextKey; master?: true }

const LINES: Line[] = [
  { zh: '帮助', en: 'help', what: 'help.cmd.help' },
  { zh: '人设列表', en: 'presets', what: 'help.cmd.presets' },
  { zh: '当前人设', en: 'preset', what: 'help.cmd.preset' },
  { zh: '切换人设 <id>', en: 'use <id>', what: 'help.cmd.use' },
  { zh: '结束对话', en: 'reset', what: 'help.cmd.reset' },
  { zh: '我的记忆', en: 'my memories', what: 'help.cmd.myMemories' },
  { zh: '忘记我', en: 'forget me', what: 'help.cmd.forgetMe' },
  { zh: '语音 <文字>', en: 'say <text>', what: 'tts.help' },
  { zh: '额度', en: 'quota', what: 'governance.help' },
  { zh: '为什么', en: 'why', what: 'help.cmd.why' },
  { zh: '提醒列表', en: 'reminders', what: 'help.cmd.reminders' },
  { zh: '取消提醒 <编号>', en: 'cancel reminder <id>', what: 'help.cmd.cancelReminder' },
  { zh: '版本', en: 'version', what: 'help.cmd.version' },
  { zh: '游戏角色', en: 'game list', what: 'help.cmd.gameList' },
  { zh: '开始游戏 <角色>', en: 'game start <name>', what: 'help.cmd.gameStart' },
  { zh: '游戏状态', en: 'game status', what: 'help.cmd.gameStatus' },
  { zh: '结束游戏', en: 'game stop', what: 'help.cmd.gameStop' },
  { zh: '面板', en: 'panel', what: 'help.cmd.panel', master: true },
  { zh: '待批准', en: 'approvals', what: 'help.cmd.approvals', master: true },
  { zh: '同意 <id> [会话]', en: 'approve <id> [session]', what: 'help.cmd.approve', master: true },
  { zh: '拒绝 <id>', en: 'deny <id>', what: 'help.cmd.deny', master: true },
  { zh: '更新', en: 'update', what: 'help.cmd.update', master: true },
  { zh: '强制更新', en: 'force update', what: 'help.cmd.forceUpdate', master: true },
  { zh: '任务 <时间> <要做的事>', en: 'task <when> <what>', what: 'help.cmd.task', master: true },
  { zh: '任务列表', en: 'tasks', what: 'help.cmd.tasks', master: true },
  { zh: '任务 暂停|恢复|删除|运行 <编号>', en: 'task pause|resume|delete|run <id>', what: 'help.cmd.taskManage', master: true },
  { zh: '开场 状态|恢复 [群号]', en: 'opener status|resume [group]', what: 'help.cmd.opener', master: true }
]

/** The help text for a user (master lines only for masters), with the configured prefixes. */
function helpText (lang: Language, isMaster: boolean, chatPrefix: string): string {
  const p = commandPrefix()
  const names = (l: Line): string[] => (lang === 'en' ? [l.en] : [l.zh, l.en])
  const fmt = (l: Line): string => `${names(l).map((c) => p + c).join(' / ')}  ${t(lang, l.what)}`
  const out = [t(lang, 'help.head'), ...LINES.filter((l) => !l.master).map(fmt)]
  if (isMaster) out.push('', t(lang, 'help.masterHead'), ...LINES.filter((l) => l.master).map(fmt))
  if (chatPrefix) out.push('', t(lang, 'help.chatHint', { prefix: chatPrefix }))
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
    const { rt, s, lang } = await contextOf(e)
    await s.reply(helpText(lang, s.isMaster, rt.config.get().trigger.prefix.trim()))
    return true
  }

  async unknown (e: HostEvent): Promise<boolean> {
    const { rt, s, say } = await contextOf(e)
    const chatPrefix = rt.config.get().trigger.prefix.trim()
    if (chatPrefix && s.text.trim().startsWith(chatPrefix)) return false // the chat prefix itself starts with the command prefix
    await say('help.unknown', {}, true)
    return true
  }
}
