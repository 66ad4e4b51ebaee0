// The group log's contract: what one logged message holds and what the service answers. Other domains
// (proactive replies, the get_group_history tool, the context block) code against this; additive changes only.

/** One message seen in a group (addressed to the bot or not), or one of the bot's own answers there. */
export interface GroupLogEntry {
  /** ms, runtime clock */
  at: number
  userId: string
  nickname?: string
  text: string
  /** how many images the message carried */
  images?: number
  /** the bot's own answer */
  fromBot?: boolean
  /** the host's message id, when it gave one */
  messageId?: string
}

export interface GroupLog {
  /** honours groupLog.enabled, excludeUsers, excludeGroups and maxMessages */
  record(groupId: string, entry: GroupLogEntry): void
  /** the newest `limit` entries, oldest first */
  recent(groupId: string, limit: number): GroupLogEntry[]
  /** entries recorded at or after sinceMs (for activity) */
  countSince(groupId: string, sinceMs: number): number
  /** drops a message that was recalled: later turns never see it as context */
  forget(groupId: string, messageId: string): void
}
