// The `guard` section (the account-risk guard, lib/guard) and its per-group overrides groups.<id>.guard:
// the bot's own sends per chat weighed against these limits; past riskAt the chat is guarded (slower
// sends, long answers as forwards, no proactive replies, the master told once) until the figure stays
// below recoverBelow for coolDownMinutes. One shape without zod defaults, filled from the defaults below
// globally, every field optional per group (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

export const guardShape = {
  enabled: doc(z.boolean(), ['Guard on', '开启风控', 'Off by default. On: the bot\'s own sends are counted, and at risk it sends slower, long answers go as forwards, proactive replies pause and the master is told privately.', '默认关闭。开启后统计机器人发出的消息，风险高时放慢发送、长回答改为合并转发、暂停主动发言并私聊告诉主人。'], { default: false }),
  /** sends in the last minute / hour that alone make the figure 100 */
  maxPerMinute: doc(z.number().int().min(1).max(1000), ['Sends per minute', '每分钟条数上限', 'This many sends in a minute in one chat (private chats count together) make the risk 100.', '一个群（私聊合在一起算）一分钟内发这么多条，风险就到 100。'], { default: 20 }),
  maxPerHour: doc(z.number().int().min(1).max(100000), ['Sends per hour', '每小时条数上限', 'This many sends in an hour make the risk 100.', '一小时内发这么多条，风险到 100。'], { default: 300 }),
  /** a plain message at least this long counts as long; maxLongPerHour of them make the figure 100 */
  longChars: doc(z.number().int().min(50).max(100000), ['Long message length', '长消息字数', 'A plain message at least this long counts as long (forwards do not).', '至少这么多字的普通消息算长消息（合并转发里的不算）。'], { default: 500 }),
  maxLongPerHour: doc(z.number().int().min(1).max(10000), ['Long messages per hour', '每小时长消息上限', 'This many long messages in an hour make the risk 100.', '一小时内这么多条长消息，风险到 100。'], { default: 20 }),
  /** the same (or nearly the same) text sent again within repeatWindowMinutes; maxRepeats make 100 */
  repeatWindowMinutes: doc(z.number().int().min(1).max(1440), ['Repeat window (minutes)', '重复检测时间（分钟）', 'The same or nearly the same text sent again within this time is a repeat.', '这段时间内再发相同或几乎相同的内容算重复。'], {
    default: 10,
    note: 'The same or nearly the same text (spaces, punctuation, digits and case ignored) sent again within this many minutes is a repeat.'
  }),
  maxRepeats: doc(z.number().int().min(1).max(1000), ['Repeats', '重复次数上限', 'This many repeats make the risk 100.', '这么多次重复，风险到 100。'], { default: 5 }),
  /** messages with links in the last hour, failed sends in the last hour, that alone make 100 */
  maxLinksPerHour: doc(z.number().int().min(1).max(10000), ['Messages with links per hour', '每小时带链接消息上限', 'This many messages with links in an hour make the risk 100.', '一小时内这么多条带链接的消息，风险到 100。'], { default: 20 }),
  maxFailuresPerHour: doc(z.number().int().min(1).max(1000), ['Failed sends per hour', '每小时发送失败上限', 'This many failed sends in an hour make the risk 100.', '一小时内这么多次发送失败，风险到 100。'], {
    default: 5,
    note: 'This many sends the host reported as failed in an hour make the risk 100.'
  }),
  /** at or above: the chat is guarded; it recovers after coolDownMinutes below recoverBelow */
  riskAt: doc(z.number().int().min(1).max(100), ['Guard at risk', '风控触发值', 'At this risk (0-100) the chat is guarded.', '风险（0-100）达到这个值时进入风控。'], { default: 60 }),
  recoverBelow: doc(z.number().int().min(0).max(100), ['Recover below', '恢复值', 'Below this risk, kept for the cool-down, the chat is back to normal.', '风险低于这个值并保持“冷却时间”后恢复正常。'], { default: 30 }),
  coolDownMinutes: doc(z.number().min(0).max(1440), ['Cool-down (minutes)', '冷却时间（分钟）', 'How long the risk must stay low before the chat is normal again.', '风险回落后要保持这么久才恢复正常。'], { default: 10 }),
  /** guarded: at least this long between two sends in the chat */
  slowDownMs: doc(z.number().int().min(0).max(600000), ['Pause between sends when guarded (ms)', '风控时发送间隔（毫秒）', 'Guarded: at least this long between two answers.', '风控中两次回答之间至少间隔这么久。'], { default: 3000 }),
  /** guarded: answers longer than this go as a forward (or image), whatever delivery.longAnswer says */
  forwardAboveChars: doc(z.number().int().min(0).max(100000), ['Forward above (characters) when guarded', '风控时转发的字数', 'Guarded: answers longer than this go as a forward (or image), whatever the chat\'s delivery says.', '风控中超过这么多字的回答改为合并转发（或图片），不管群里的回复方式设置。'], { default: 200 }),
  forwardAs: doc(z.enum(['forward', 'image']), ['Long answers when guarded', '风控时长回答的形式', 'A merged forward or a rendered image.', '合并转发或渲染成图片。'], { default: 'forward' }),
  /** guarded: no proactive replies in the chat */
  pauseProactive: doc(z.boolean(), ['Pause proactive replies when guarded', '风控时暂停主动发言', 'Guarded: the bot does not join in on its own.', '风控中不主动插话。'], { default: true }),
  /** tell the masters privately when a chat becomes guarded (once per episode) */
  tellMaster: doc(z.boolean(), ['Tell the master privately', '私聊告诉主人', 'Tell the masters once when a chat becomes guarded.', '进入风控时私聊告诉主人一次。'], { default: true })
}

const guard = doc(z.strictObject(guardShape), ['Account-risk guard', '账号风控', 'Slows the bot down when it sends too much.', '机器人发送过多时自动放慢。'], {
  note: 'Account-risk guard: QQ freezes bot accounts that send too much, too long or the same thing. Every message the bot sends is counted per group (private chats together as one bucket). Each signal below has the level at which it alone makes the chat\'s risk figure 100 (the strongest signal counts in full, the others a quarter). At riskAt or above the chat is guarded: every message goes out at least slowDownMs apart, answers longer than forwardAboveChars go as a forward (or an image: forwardAs) even where delivery.longAnswer is off, proactive replies pause (pauseProactive) and the masters are told privately once (tellMaster). Once the figure stays below recoverBelow for coolDownMinutes the chat is back to normal. groups.<id>.guard overrides any key per group. The dashboard overview shows the chats at risk (GET /api/guard). Off by default: turn it on for a bot in busy groups.'
})
export const guardSection = guard.prefault(sectionDefaults(guard))
