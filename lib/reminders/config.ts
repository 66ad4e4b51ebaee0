// The `reminders` section: reminders and scheduled tasks (lib/reminders), set by the set_reminder tool,
// listed and cancelled by commands and the dashboard, delivered through the host at their time (also
// after restarts). lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

const reminders = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Reminders can be set', '允许设置提醒', 'Off: no new reminders; those already set are still sent, listed and cancellable.', '关闭后不能新建提醒，已有的照常发送，也能查看和取消。'], { default: true }),
  /** IANA timezone of the times people say ('' = the machine's); a name Intl does not know is refused */
  timezone: doc(z.string().max(64).refine((tz) => {
    if (!tz) return true
    try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true } catch { return false }
  }, 'not a timezone Intl knows (e.g. Asia/Shanghai, UTC)'), ['Timezone', '时区', 'Of the times people say ("tomorrow at 8"), e.g. Asia/Shanghai; empty = the machine\'s.', '理解“明天早上8点”用的时区，如 Asia/Shanghai；留空 = 本机时区。'], {
    default: '',
    note: 'IANA timezone of the times people say (e.g. Asia/Shanghai); "" = the machine\'s.'
  }),
  /** active reminders per user, and per group (all users together) */
  maxPerUser: doc(z.number().int().min(1).max(1000), ['Reminders per user', '每人最多提醒', 'Active reminders one person may have.', '一个人同时有效的提醒数上限。'], { default: 20 }),
  maxPerGroup: doc(z.number().int().min(1).max(10000), ['Reminders per group', '每群最多提醒', 'Active reminders of everyone in one group together.', '一个群里所有人的提醒加起来的上限。'], { default: 50 }),
  /** smallest interval of a recurring reminder */
  minIntervalMinutes: doc(z.number().int().min(1).max(1440), ['Shortest repeat (minutes)', '重复提醒最短间隔（分钟）', 'The smallest N of "every N minutes".', '“每隔 N 分钟”最小的 N。'], {
    default: 1,
    note: 'Smallest interval of a recurring reminder ("every N minutes"), in minutes.'
  }),
  /** longest reminder text */
  maxMessageChars: doc(z.number().int().min(10).max(4000), ['Longest reminder text', '提醒内容最长字数', 'Longer reminders are not set.', '超过的提醒不会被设置。'], {
    default: 500,
    note: 'Longest reminder text (characters); longer reminders are not set.'
  }),
  /** a recurring reminder in a group needs a group admin, the owner or a master */
  groupRecurringNeedsAdmin: doc(z.boolean(), ['Repeating group reminders need an admin', '群里的重复提醒需要管理员', 'On: only the group\'s owner and admins and the masters set repeating reminders in a group.', '开启时，群里的重复提醒只有群主、管理员和主人能设置。'], {
    default: true,
    note: 'A recurring reminder in a group needs a group admin, the owner or a master (members can set one-off reminders there, and recurring ones in a private chat).'
  }),
  /** a delivery this late or later is marked late (seconds) */
  lateAfterSeconds: doc(z.number().int().min(1).max(86400), ['Late after (seconds)', '迟到判定（秒）', 'A reminder sent this long after its time says it is late (e.g. missed while the bot was restarting).', '晚于提醒时间这么多秒才发出的提醒会注明“迟到”（例如机器人重启期间错过的）。'], { default: 60 })
}), ['Reminders', '提醒', 'Reminders and scheduled tasks set in chat.', '在聊天中设置的提醒和定时任务。'], {
  note: 'Reminders and scheduled tasks ("5分钟后提醒我喝水", "每周一9点在群里发周报提醒", "every day at 7pm ..."): the model sets them with the set_reminder tool; #lx提醒列表 / #lx取消提醒 <id> and the dashboard list and cancel them. Kept in <data>/reminders.json (+ journal) and sent at their time, also after a restart: one missed while the bot was down is sent once at start, marked late.'
})
export const remindersSection = reminders.prefault(sectionDefaults(reminders))
