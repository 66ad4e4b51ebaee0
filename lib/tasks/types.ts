// The tasks domain's records: a scheduled task (a prompt run by the bot on a schedule, its answer sent to one
// chat) and the record of one run. README.md of this folder has the rules.
import type { Recurrence } from '../reminders/types.js'

/** When a task runs: once, on a cron expression, or a recurrence said in words ("每天早上8点"). Times in `tasks.timezone`. */
export type TaskSchedule =
  | { kind: 'once'; at: number }
  | { kind: 'cron'; expr: string }
  | { kind: 'recurrence'; recurrence: Recurrence }

/** What a missed run (the bot was down at its time) becomes: skipped, or run once late (not in the night hours). */
export type MissedPolicy = 'skip' | 'late'

/** Why a task is paused: by a person, after `tasks.pauseAfterFailures` failed runs in a row, or its budget spent. */
type PauseReason = 'manual' | 'failures' | 'budget'

export interface Task {
  /** short, unique (`t` + base36): what `#lx任务 暂停 <id>` takes */
  id: string
  name: string
  /** what the model is asked at each run */
  prompt: string
  /** the chat the answer goes to: a group, or a private chat with `userId` */
  target: { groupId?: string; userId?: string }
  /** the bot account it is sent through (TRSS runs several); absent: the default one */
  botId?: string
  presetId?: string
  channel?: string
  model?: string
  /** the tools the model may call in a run (none when empty) */
  tools: string[]
  schedule: TaskSchedule
  /** the schedule as it was given ("0 8 * * *", "每天早上8点") */
  scheduleText: string
  missed: MissedPolicy
  /** most money (the price table's currency) its runs may cost in a month; absent: no cap of its own */
  monthlyBudget?: number
  /** each run starts from an empty conversation (false) or continues the task's conversation (true) */
  keepHistory: boolean
  /** when it is next due (ms); absent while paused or once a one-off has run */
  nextAt?: number
  paused?: PauseReason
  /** failed runs in a row (reset by a good one) */
  failures: number
  runs: number
  lastRunAt?: number
  createdBy: { userId: string; via: 'dashboard' | 'chat' }
  /** the creator is the bot's master (a run's tool calls carry the creator's rights, never more) */
  byMaster: boolean
  createdAt: number
  updatedAt: number
  /** the at-most-once mark and the retries (lib/storage/due.ts) */
  sending?: number
  attempts?: number
}

type RunStatus = 'ok' | 'failed' | 'skipped'

/** One run of a task: its answer, what it cost, what went wrong. */
export interface TaskRun {
  /** `<taskId>-<startedAt base36>` */
  id: string
  taskId: string
  /** the occurrence it was for (ms); a run started by hand: when it was asked */
  scheduledFor: number
  startedAt: number
  finishedAt: number
  trigger: 'schedule' | 'manual'
  status: RunStatus
  /** run after its time (the bot was down) */
  late: boolean
  answer?: string
  /** why it failed or was skipped, in plain words */
  error?: string
  /** `budget`, `night`, `missed`, `guarded`, `quota`, `refused`, `disabled` for a skipped run */
  skipReason?: string
  delivered: boolean
  tokens: { input: number; output: number; cached: number }
  /** in the price table's currency; null: the model has no price */
  cost: number | null
  model?: string
  channel?: string
  tools: string[]
  whyId?: string
}
