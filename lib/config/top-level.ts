// The plugin-wide settings at the top of the configuration (no section): the command prefix, verbose
// logging, the bot's language. lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc } from './field-doc.js'

export const topLevelShape = {
  commandPrefix: doc(z.string().min(1).max(16).regex(/^[^*%/\s]/, 'must not start with *, %, / or a space'), ['Command prefix', '命令前缀', 'Bot commands start with this, e.g. #lx面板 (must not start with *, %, / or a space).', '机器人命令以它开头，如 #lx面板（不能以 *、%、/ 或空格开头）。'], {
    default: '#lx',
    note: 'Bot command prefix: commands are "#lx面板", "#lx帮助" ...'
  }),
  debug: doc(z.boolean(), ['Verbose logging', '详细日志', 'Write debug messages to the log.', '在日志中写入调试信息。'], { default: false }),
  language: doc(z.enum(['zh-CN', 'en']), ['Bot language', '机器人语言', 'Language of the bot\'s own replies: zh-CN or en.', '机器人自身回复的语言：zh-CN 或 en。'], { default: 'zh-CN' })
}
