// The `groupLog` section: the rolling log of each group's messages. Defaults written to
// config/default.yaml (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

const groupLog = doc(z.strictObject({
  /** keep a rolling log of each group's messages (also those not addressed to the bot) */
  enabled: doc(z.boolean(), ['Keep a group log', '记录群聊', 'Each group\'s recent messages (also those not for the bot), for context, the get_group_history tool and the daily summary.', '记录每个群最近的消息（也包括没叫机器人的），用于上下文、get_group_history 工具和每日总结。'], { default: true }),
  /** messages kept per group */
  maxMessages: doc(z.number().int().min(10).max(5000), ['Messages kept per group', '每个群保留条数', '10-5000.', '10-5000。'], {
    default: 200,
    note: 'Messages kept per group (10-5000).'
  }),
  /** recent messages given to the model as context when the bot is addressed in a group (0: none) */
  contextMessages: doc(z.number().int().min(0).max(500), ['Group messages in context', '带入上下文的群消息', 'When the bot is called in a group, this many recent group messages go to the model; 0 = none (0-500).', '在群里叫机器人时，把最近这么多条群消息交给模型；0 = 不带（0-500）。'], {
    default: 20,
    note: 'Recent group messages given to the model as context when the bot is called (0 = none); groups.<id>.contextMessages overrides it per group.'
  }),
  /** users and groups never logged (opted out) */
  excludeUsers: doc(z.array(z.string()), ['Users not logged', '不记录的用户', 'QQ numbers.', 'QQ 号。'], {
    default: [],
    note: 'Users whose messages are never logged (opt-out), as QQ numbers.'
  }),
  excludeGroups: doc(z.array(z.string()), ['Groups not logged', '不记录的群', 'Group numbers.', '群号。'], {
    default: [],
    note: 'Groups whose messages are never logged, as group numbers.'
  })
}), ['Group log', '群聊记录', 'A rolling log of each group\'s recent messages.', '每个群最近消息的滚动记录。'], {
  note: 'A rolling log of each group\'s recent messages, also those not addressed to the bot. It is given to the model when the bot is called in a group, read by the get_group_history tool and the daily-summary skill. Stored like conversations (<data>/group-log).'
})
export const groupLogSection = groupLog.prefault(sectionDefaults(groupLog))
