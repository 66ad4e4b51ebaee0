// The reminders domain's records: one reminder (one-off or recurring) in one chat, and its recurrence.

/** When a recurring reminder comes back; times of day are wall-clock times in the owner's timezone. */
export type Recurrence =
  | { kind: 'daily'; hour: number; minute: number }
  /** weekday: 0 = Sunday … 6 = Saturday */
  | { kind: 'weekly'; weekday: number; hour: number; minute: number }
  /** day of the month 1-31; a month without that day fires on its last day */
  | { kind: 'monthly'; day: number; hour: number; minute: number }
  | { kind: 'interval'; minutes: number }

type ReminderStatus = 'active' | 'done' | 'cancelled'

export interface Reminder {
  /** short, unique (`r` + base36), what `#lx取消提醒 <id>` takes */
  id: string
  /** who set it (the one @-mentioned in a group, the one it is sent to in private) */
  userId: string
  nickname?: string
  /** absent: a private reminder */
  groupId?: string
  /** the bot account it was set through (TRSS runs several) */
  botId?: string
  message: string
  createdAt: number
  /** when it is next due (ms) */
  nextAt: number
  recurrence?: Recurrence
  status: ReminderStatus
  /** deliveries so far */
  fired: number
  lastFiredAt?: number
  /**
   * The `nextAt` a delivery was started for: written (and synced) before the send, cleared with the
   * advance after it. Found at start, it means the plugin stopped between the two: the send may have
   * gone out, so that occurrence is not sent again (at most once).
   */
  sending?: number
  /** failed sends of the current occurrence (the host not ready, a send error) */
  attempts?: number
  cancelledBy?: string
}
