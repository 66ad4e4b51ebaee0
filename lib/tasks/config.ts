// The `tasks` section: prompts the bot runs by itself on a schedule (lib/tasks), their answers sent to a chat.
// lib/config/README.md, "A domain's section". Times are in `reminders.timezone` (one timezone for the bot).
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'
import { HOURS_WINDOW } from '../core/hours.js'

const tasks = doc(z.strictObject({
  enabled: doc(z.boolean(), ['Scheduled tasks run', '运行定时任务', 'Off: no task runs (they stay listed and can be edited).', '关闭后任务都不运行（仍可查看和编辑）。'], { default: true }),
  maxTasks: doc(z.number().int().min(1).max(100000), ['Most tasks', '任务数上限', 'Tasks kept at most (paused ones included).', '最多保存的任务数（含暂停的）。'], { default: 200 }),
  /** smallest gap between two runs of a repeating task */
  minIntervalMinutes: doc(z.number().int().min(1).max(1440), ['Shortest repeat (minutes)', '最短重复间隔（分钟）', 'A task runs at most this often.', '一个任务最频繁多久运行一次。'], { default: 30 }),
  /** group admins may create tasks for their own group (`#lx任务`) */
  groupAdminsMay: doc(z.boolean(), ['Group admins may add tasks', '群管理可添加任务', 'On: a group\'s owner and admins add tasks for their group in chat; off: only the masters.', '开启后群主和管理员可在群里为本群添加任务；关闭则只有主人可以。'], { default: false }),
  /** money: the sum over all tasks in a calendar month, in the price table's currency; 0 = no cap */
  monthlyBudget: doc(z.number().min(0), ['Monthly budget of all tasks', '所有任务每月预算', 'In the price table\'s currency; once spent, runs are skipped until next month. 0 = no cap.', '以价格表的货币计；用完后本月的运行都跳过。0 = 不限。'], { default: 0 }),
  pauseAfterFailures: doc(z.number().int().min(1).max(100), ['Pause after failed runs', '连续失败几次后暂停', 'A task whose runs fail this many times in a row pauses itself and tells the masters once.', '连续失败这么多次的任务会自动暂停，并私聊告诉主人一次。'], { default: 3 }),
  /** a run this late or later counts as missed (the bot was down at its time) */
  missedAfterMinutes: doc(z.number().int().min(1).max(1440), ['Missed after (minutes)', '错过判定（分钟）', 'A run this late counts as missed: skipped, or run once late by the task\'s choice.', '晚了这么多分钟的运行算作错过：按任务设置跳过或补跑一次。'], { default: 10 }),
  /** no late run in these hours (local); a task scheduled inside them still runs at its own time */
  nightHours: doc(z.string().regex(HOURS_WINDOW, 'HH:MM-HH:MM'), ['Night hours', '夜间时段', 'A missed run is never made up in these hours (HH:MM-HH:MM).', '错过的运行不会在这个时段补跑（HH:MM-HH:MM）。'], { default: '23:00-08:00' }),
  runsKept: doc(z.number().int().min(1).max(1000), ['Runs kept per task', '每个任务保留的运行记录', 'The newest runs of each task are kept, older ones removed.', '每个任务保留最近的这么多条运行记录。'], { default: 50 })
}), ['Scheduled tasks', '定时任务', 'Prompts the bot runs by itself on a schedule.', '机器人按计划自己运行的提示词任务。'], {
  note: 'Scheduled tasks: a prompt (with a preset, channel/model and allowed tools) run on a schedule (once, a cron expression, or words such as "每天早上8点"), its answer sent to a group or a private chat. Made on the dashboard (Tasks) or by chat (#lx任务); each run is recorded with its answer, tokens and cost.'
})
export const tasksSection = tasks.prefault(sectionDefaults(tasks))
