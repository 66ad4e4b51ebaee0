// The `initiative` section (openers after silence: the bot opens a topic in a group that has been quiet)
// and its per-group overrides groups.<id>.initiative: one shape without zod defaults, filled from the
// defaults below globally, every field optional per group (lib/config/README.md, "A domain's section").
import { z } from 'zod'
import { HOURS_WINDOW } from '../core/hours.js'
import { doc, sectionDefaults } from '../config/field-doc.js'

export const initiativeShape = {
  /** openers after silence, drawn from the group log and the group's knowledge */
  enabled: doc(z.boolean(), ['Openers after silence', '冷场开话题', 'When a group has been quiet for a while, the bot may open a topic; off by default.', '群里冷场一段时间后，机器人可以主动开个话题；默认关闭。'], { default: false }),
  quietHours: doc(z.number().min(0.25).max(168), ['Quiet for (hours)', '冷场多久（小时）', 'No message in the group for this long makes it quiet.', '群里这么久没有消息就算冷场。'], { default: 3 }),
  hours: doc(z.string().regex(HOURS_WINDOW, 'a window "HH:MM-HH:MM", e.g. 09:00-22:00'), ['Allowed hours', '允许的时段', 'Openers only within this window ("09:00-22:00"), in the reminders\' timezone; never outside it.', '只在这个时段内开话题（如 "09:00-22:00"，按提醒的时区）；其他时间（如夜里）从不。'], {
    default: '09:00-22:00',
    note: 'Openers go out only within this window ("HH:MM-HH:MM", in reminders.timezone); a quiet spell that ends at night waits for the window to open.'
  }),
  dailyCap: doc(z.number().int().min(0).max(24), ['Per day at most', '每天最多', 'Openers per group per local day.', '每个群每天最多开几次话题。'], { default: 1 }),
  cooldownHours: doc(z.number().min(0).max(720), ['Cooldown (hours)', '冷却（小时）', 'At least this long between two openers in a group.', '同一个群两次开话题之间至少间隔这么久。'], { default: 6 }),
  answerWindowMinutes: doc(z.number().int().min(1).max(1440), ['Answer window (minutes)', '等待回应（分钟）', 'An opener nobody answers within this long counts as unanswered; after two in a row the group gets no more until a member talks to the bot or a master resumes it.', '开话题后这么久内没人回应就算冷场；连续两次后不再开话题，直到有群友找机器人说话或主人恢复。'], { default: 60 })
}

const initiative = doc(z.strictObject(initiativeShape), ['Openers after silence', '冷场开话题', 'The bot opens a topic in a group that has been quiet.', '群里冷场时，机器人主动开个话题。'], {
  note: 'Openers after silence: when a group has had no message for quietHours within the allowed hours, the bot may open a topic drawn from the group log and the knowledge bound to the group. Off by default; groups.<id>.initiative overrides any field per group. Two unanswered openers in a row stop it in that group until a member talks to the bot or a master sends #lx开场 恢复.'
})
export const initiativeSection = initiative.prefault(sectionDefaults(initiative))
