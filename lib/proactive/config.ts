// The `proactive` section (replies nobody asked for, "伪人") and its per-group overrides
// groups.<id>.proactive: one shape without zod defaults, filled from the defaults below globally, every
// field optional per group (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

export const proactiveShape = {
  /** replies nobody asked for ("伪人"), drawn from the group log */
  enabled: doc(z.boolean(), ['Proactive replies', '主动发言（伪人）', 'Now and then the bot joins the talk on its own, from the group log; off by default.', '机器人偶尔根据群聊记录主动插话；默认关闭。'], { default: false }),
  /** chance per unaddressed group message, before the multipliers */
  probability: doc(z.number().min(0).max(1), ['Probability', '发言概率', 'Chance per message not addressed to the bot (0-1), before the multipliers below.', '每条没叫机器人的消息触发的概率（0-1），再乘以下面的倍数。'], { default: 0.03 }),
  /** messages in the group's last 10 minutes at or above busyMessages: x busyMultiplier; at or below
   * quietMessages: x quietMultiplier */
  busyMessages: doc(z.number().int().min(1).max(10000), ['Busy: messages in 10 min', '热闹：10 分钟内消息数', 'From this many, the chance is multiplied by the busy multiplier.', '达到这个数时，概率乘以“热闹倍数”。'], {
    default: 30,
    note: 'With busyMessages or more messages in the group\'s last 10 minutes the chance is multiplied by busyMultiplier; with quietMessages or fewer, by quietMultiplier (0 = never speak into silence).'
  }),
  busyMultiplier: doc(z.number().min(0).max(100), ['Busy multiplier', '热闹倍数', '0-100.', '0-100。'], { default: 0.5 }),
  quietMessages: doc(z.number().int().min(0).max(10000), ['Quiet: messages in 10 min', '冷清：10 分钟内消息数', 'Up to this many, the chance is multiplied by the quiet multiplier.', '不超过这个数时，概率乘以“冷清倍数”。'], { default: 3 }),
  quietMultiplier: doc(z.number().min(0).max(100), ['Quiet multiplier', '冷清倍数', '0 = never speak into silence.', '0 = 冷场时不说话。'], { default: 0 }),
  hourlyCap: doc(z.number().int().min(0).max(1000), ['Per hour at most', '每小时最多', 'Proactive replies per group per hour.', '每个群每小时最多主动发言几次。'], {
    default: 3,
    note: 'At most this many proactive replies per group in any hour and per day (local date), and at least cooldownSeconds between two of them. They count the model\'s turns (one that answered [skip], and so said nothing, too) and are kept in memory: a restart starts them from zero.'
  }),
  dailyCap: doc(z.number().int().min(0).max(10000), ['Per day at most', '每天最多', 'Proactive replies per group per day.', '每个群每天最多主动发言几次。'], { default: 12 }),
  cooldownSeconds: doc(z.number().int().min(0).max(86400), ['Cooldown (s)', '冷却（秒）', 'At least this long between two proactive replies.', '两次主动发言之间至少间隔这么久。'], { default: 300 })
}

const proactive = doc(z.strictObject(proactiveShape), ['Proactive replies', '主动发言', 'Replies nobody asked for, drawn from the group log.', '没人叫也会偶尔插话，依据群聊记录。'], {
  note: 'Replies nobody asked for ("伪人"): now and then the bot joins a group\'s talk on its own, from the group log. Off by default; groups.<id>.proactive overrides any field per group.'
})
export const proactiveSection = proactive.prefault(sectionDefaults(proactive))
