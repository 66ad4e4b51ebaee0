// The group log store: per group, the newest groupLog.maxMessages messages (oldest dropped first), in
// <data>/group-log/groups.json + its journal (lib/core/journal-store.ts, as conversations are): a new
// group is one put line, every later message one appended delta line carrying the bound, so a message
// costs a small append and survives a crash once its line is synced. record() never waits for the
// disk (the chat handler calls it for every group message); a failed write is logged.
// On the storage port (`openShared`, store `group-log/groups`): in PostgreSQL when it is set, where
// appendTo is done by the database on the row, so two instances logging one group at once both land.
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import { errorText } from '../core/errors.js'
import { JournalStore } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import { ensurePrivateDir } from '../core/private-file.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import type { GroupLog, GroupLogEntry } from './types.js'

/** Longer texts are cut when logged (the log is context, not an archive). */
export const MAX_TEXT_CHARS = 1000

type Settings = Config['groupLog']

interface GroupRecord { id: string; entries: GroupLogEntry[] }

/** The store's name on the port: the file `<dataDir>/group-log/groups.json`, as before. */
const GROUP_LOG_STORE = 'group-log/groups'

export class GroupLogService implements GroupLog {
  // the opt-out lists as sets, rebuilt when the config hands out new arrays
  private excluded: { users: string[]; groups: string[]; userSet: Set<string>; groupSet: Set<string> } | undefined

  private constructor (
    private readonly store: RecordStore<GroupRecord, string>,
    private readonly settings: () => Settings,
    private readonly log?: PluginLogger
  ) {}

  static async open (dir: string, opts: { settings: () => Settings; log?: PluginLogger; now?: () => number }): Promise<GroupLogService> {
    await ensurePrivateDir(dir)
    const store = await JournalStore.open<GroupRecord, string>(join(dir, 'groups.json'), {
      key: (r) => r.id,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.now ? { now: opts.now } : {})
    })
    return new GroupLogService(store, opts.settings, opts.log)
  }

  /** The store on the port: `<dataDir>/group-log/groups.json` as before, or PostgreSQL when set. */
  static async openShared (deps: RecordsDeps, settings: () => Settings): Promise<GroupLogService> {
    await ensurePrivateDir(join(deps.paths.dataDir, 'group-log'))
    return new GroupLogService(await openRecords<GroupRecord, string>(deps, GROUP_LOG_STORE, { key: (r) => r.id }), settings, deps.log)
  }

  record (groupId: string, entry: GroupLogEntry): void {
    const cfg = this.settings()
    if (!cfg.enabled) return
    const ex = this.exclusions(cfg)
    if (ex.groupSet.has(groupId) || (!entry.fromBot && ex.userSet.has(entry.userId))) return
    const e = compact(entry)
    // decided and applied synchronously: two messages racing into a new group both land
    const written = this.store.has(groupId)
      ? this.store.appendTo(groupId, 'entries', [e], { max: cfg.maxMessages })
      : this.store.put({ id: groupId, entries: [e] })
    written.catch((err: unknown) => this.log?.warn('Could not write the group log', { groupId, error: errorText(err) }))
  }

  recent (groupId: string, limit: number): GroupLogEntry[] {
    const entries = this.visible(groupId)
    const n = Math.min(Math.max(0, Math.floor(limit)), entries.length)
    return n === 0 ? [] : entries.slice(entries.length - n)
  }

  countSince (groupId: string, sinceMs: number): number {
    const entries = this.visible(groupId)
    let n = 0
    // entries are in arrival order: count back from the newest
    for (let i = entries.length - 1; i >= 0 && (entries[i]?.at ?? 0) >= sinceMs; i--) n++
    return n
  }

  forget (groupId: string, messageId: string): void {
    const entries = this.store.get(groupId)?.entries
    if (!entries?.some((e) => e.messageId === messageId)) return
    // rare (a recall): the group's list is written again without the message
    this.store.patch(groupId, { entries: entries.filter((e) => e.messageId !== messageId) })
      .catch((err: unknown) => this.log?.warn('Could not write the group log', { groupId, error: errorText(err) }))
  }

  /** Calls `listener` after a change another instance made to a group's log is applied here (tests). */
  onRemote (listener: (groupId: string) => void): () => void { return this.store.onRemote((id) => { listener(id) }) }

  /** Resolves once every write so far is on disk (tests, stop). */
  async idle (): Promise<void> { await this.store.idle() }

  async close (): Promise<void> { await this.store.close() }

  /** The group's entries as they may be shown now: none when the log is off or the group opted out,
   * no opted-out user's (also ones logged before they opted out), at most maxMessages. */
  private visible (groupId: string): GroupLogEntry[] {
    const cfg = this.settings()
    if (!cfg.enabled) return []
    const ex = this.exclusions(cfg)
    if (ex.groupSet.has(groupId)) return []
    let entries = this.store.get(groupId)?.entries ?? []
    if (ex.userSet.size > 0) entries = entries.filter((e) => e.fromBot === true || !ex.userSet.has(e.userId))
    return entries.length > cfg.maxMessages ? entries.slice(entries.length - cfg.maxMessages) : entries
  }

  private exclusions (cfg: Settings): NonNullable<GroupLogService['excluded']> {
    const ex = this.excluded
    if (ex && ex.users === cfg.excludeUsers && ex.groups === cfg.excludeGroups) return ex
    return (this.excluded = { users: cfg.excludeUsers, groups: cfg.excludeGroups, userSet: new Set(cfg.excludeUsers), groupSet: new Set(cfg.excludeGroups) })
  }
}

/** The entry as stored: unset fields left out, the text cut. */
function compact (entry: GroupLogEntry): GroupLogEntry {
  const text = entry.text.length > MAX_TEXT_CHARS ? `${entry.text.slice(0, MAX_TEXT_CHARS)}…` : entry.text
  return {
    at: entry.at,
    userId: entry.userId,
    ...(entry.nickname ? { nickname: entry.nickname } : {}),
    text,
    ...(entry.images ? { images: entry.images } : {}),
    ...(entry.fromBot ? { fromBot: true } : {}),
    ...(entry.messageId ? { messageId: entry.messageId } : {})
  }
}
