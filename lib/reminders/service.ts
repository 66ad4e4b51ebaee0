// The reminders: kept in <data>/reminders.json + its journal (lib/core/journal-store.ts: each change
// one synced line, so an acknowledged reminder survives kill -9), and one timer on the runtime clock
// for the earliest due one, re-armed in steps of at most a day (setTimeout holds ~24.8 days).
//
// Delivery is at most once. Before a reminder is sent, its `sending` mark (the occurrence's time) is
// written and synced; after the send, the reminder is advanced (a recurring one to its next time) or
// removed, in one more write. A plugin that stops between the two (a crash, the host's restart: hosts
// call no stop hook) finds the mark at the next start and does not send that occurrence again: the
// send may have gone out, and a reminder twice is worse than a lost one; it is logged. A send that
// fails before anything went out (the host not connected yet after a restart) is retried with
// backoff (15 s, 30 s, … 10 min) up to MAX_ATTEMPTS times.
// One due while the plugin was down is sent once at start, marked late; a recurring one that missed
// several occurrences is sent once and goes on from its next future time.
//
// With PostgreSQL (openShared, lib/storage/README.md) every instance holds every reminder, and a due
// occurrence is claimed by one instance (lib/storage/pg/claims.ts) before it is sent: the `sending` mark
// lives on the claim, with a lease; a claimer gone after marking is settled by another without a send, one
// gone before marking is taken over (README "Several instances"). The timer, the marks, the claims and the
// retries are lib/storage/due.ts (the scheduled tasks use the same); this file keeps what a reminder is.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { Clock } from '../core/clock.js'
import { AppError } from '../core/errors.js'
import { JournalStore } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import type { Config } from '../config/schema.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import { DueRunner } from '../storage/due.js'
import { openDueClaims, type DueClaims } from '../storage/pg/claims.js'
import { journalAsRecords, type RecordStore, type RemoteListener } from '../storage/records.js'
import { parseWhen, WhenError } from './parse.js'
import { followingOccurrence, intervalMinutes } from './recurrence.js'
import type { Reminder } from './types.js'
import { resolveTimeZone } from './zoned.js'

type Settings = Config['reminders']

/** Who sets or cancels a reminder, and where. */
export interface ReminderActor {
  userId: string
  nickname?: string
  groupId?: string
  botId?: string
  isMaster: boolean
  /** owner or admin of the group */
  isGroupAdmin: boolean
}

export interface NewReminder {
  /** when, as said: "5分钟后", "每周一9点", "tomorrow at 8am" */
  when: string
  message: string
  /** a recurrence said apart from the time ("每天", "every monday"); joined to `when` */
  repeat?: string
}

export interface ReminderFilter { userId?: string; groupId?: string; chat?: 'group' | 'private' }

/** Why a reminder was refused; `reason` picks the user-facing text (lib/i18n.ts `reminders.err.*`). */
export type RefusalReason = 'disabled' | 'empty' | 'noTime' | 'past' | 'tooFar' | 'badRecurrence' | 'tooLong' | 'userLimit' | 'groupLimit' | 'tooOften' | 'needsAdmin' | 'notFound' | 'notYours'

export class ReminderRefused extends AppError {
  constructor (readonly reason: RefusalReason, message: string, readonly vars: Record<string, string | number> = {}) {
    super(reason === 'notFound' ? 'NOT_FOUND' : reason === 'notYours' || reason === 'needsAdmin' ? 'FORBIDDEN' : reason === 'disabled' ? 'SERVICE_UNAVAILABLE' : 'INVALID_ARGS', message)
  }
}

type Deliver = (r: Reminder, o: { late: boolean; timeZone: string }) => Promise<void>

export interface ReminderServiceOptions {
  settings: () => Settings
  clock: Clock
  log: PluginLogger
  deliver: Deliver
  /** The bots this instance has (a reminder naming another bot is left to the instance that has it); undefined or empty: it cannot tell, so it sends any. */
  bots?: () => string[] | undefined
  /** How long a claim holds before another instance may take it over (shared storage only; default 2 min). */
  leaseMs?: number
}

export class ReminderService {
  private readonly runner: DueRunner<Reminder>

  private constructor (private readonly store: RecordStore<Reminder, string>, private readonly o: ReminderServiceOptions, private readonly claims?: DueClaims<Reminder>) {
    this.runner = new DueRunner<Reminder>({
      store,
      claims,
      clock: o.clock,
      log: o.log,
      noun: 'reminder',
      work: async (r, w) => this.o.deliver(r, { late: w.late, timeZone: this.timeZone }),
      lateAfterMs: () => o.settings().lateAfterSeconds * 1000,
      following: (r, now) => this.following(r, now),
      bots: () => o.bots?.()
    })
  }

  static async open (dataDir: string, o: ReminderServiceOptions): Promise<ReminderService> {
    const store = await JournalStore.open<Reminder, string>(join(dataDir, 'reminders.json'), { key: (r) => r.id, log: o.log, now: () => o.clock.now() })
    return new ReminderService(journalAsRecords(store), o)
  }

  /** The store `reminders` on the port: `<dataDir>/reminders.json` as `open`, or PostgreSQL (shared, claimed) when set. */
  static async openShared (deps: RecordsDeps, o: ReminderServiceOptions): Promise<ReminderService> {
    const store = await openRecords<Reminder, string>(deps, 'reminders', { key: (r) => r.id })
    let claims: DueClaims<Reminder> | undefined
    try {
      claims = await openDueClaims<Reminder>(deps, 'reminders', o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {})
    } catch (err) {
      await store.close()
      throw err
    }
    return new ReminderService(store, o, claims)
  }

  /** Calls `listener` when another instance set, changed or removed a reminder (shared storage only). */
  onRemote (listener: RemoteListener<Reminder, string>): () => void { return this.store.onRemote(listener) }

  get timeZone (): string { return resolveTimeZone(this.o.settings().timezone) }

  /** Settles what a stop left half-done, then arms the timer (due ones are sent at once; lib/storage/due.ts). */
  async start (): Promise<void> { await this.runner.start() }

  async close (): Promise<void> {
    await this.runner.close()
    await this.store.close()
    await this.claims?.close()
  }

  get (id: string): Reminder | undefined { return this.store.get(id) }

  /** Active reminders matching `f`, soonest first. */
  list (f: ReminderFilter = {}): Reminder[] {
    const out: Reminder[] = []
    for (const r of this.store.values()) {
      if (f.userId !== undefined && r.userId !== f.userId) continue
      if (f.groupId !== undefined && r.groupId !== f.groupId) continue
      if (f.chat === 'group' && r.groupId === undefined) continue
      if (f.chat === 'private' && r.groupId !== undefined) continue
      out.push(r)
    }
    // the id last: reminders set at one instant for one time list in the same order from the files and from PostgreSQL
    return out.sort((a, b) => a.nextAt - b.nextAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }

  /** Sets a reminder in the actor's chat; a ReminderRefused says why not. */
  async create (actor: ReminderActor, input: NewReminder): Promise<Reminder> {
    const s = this.o.settings()
    if (!s.enabled) throw new ReminderRefused('disabled', 'Reminders are turned off')
    const message = input.message.trim()
    if (!message) throw new ReminderRefused('empty', 'The reminder text is empty')
    if ([...message].length > s.maxMessageChars) throw new ReminderRefused('tooLong', `The reminder text is longer than ${s.maxMessageChars} characters`, { max: s.maxMessageChars })
    const now = this.o.clock.now()
    const whenText = [input.repeat?.trim(), input.when.trim()].filter(Boolean).join(' ')
    let parsed
    try { parsed = await parseWhen(whenText, { now, timeZone: this.timeZone }) } catch (err) {
      if (err instanceof WhenError) throw new ReminderRefused(err.reason, err.message)
      throw err
    }
    if (parsed.recurrence) {
      if (intervalMinutes(parsed.recurrence) < s.minIntervalMinutes) throw new ReminderRefused('tooOften', `A recurring reminder comes at most every ${s.minIntervalMinutes} minute(s)`, { min: s.minIntervalMinutes })
      if (actor.groupId !== undefined && s.groupRecurringNeedsAdmin && !actor.isMaster && !actor.isGroupAdmin) {
        throw new ReminderRefused('needsAdmin', 'Only a group admin or the bot\'s master can set a recurring reminder in a group; set it in a private chat instead')
      }
    }
    if (this.list({ userId: actor.userId }).length >= s.maxPerUser) throw new ReminderRefused('userLimit', `You have ${s.maxPerUser} active reminders already (the most allowed)`, { max: s.maxPerUser })
    if (actor.groupId !== undefined && this.list({ groupId: actor.groupId }).length >= s.maxPerGroup) throw new ReminderRefused('groupLimit', `This group has ${s.maxPerGroup} active reminders already (the most allowed)`, { max: s.maxPerGroup })
    const r: Reminder = {
      id: this.newId(),
      userId: actor.userId,
      ...(actor.nickname ? { nickname: actor.nickname } : {}),
      ...(actor.groupId !== undefined ? { groupId: actor.groupId } : {}),
      ...(actor.botId ? { botId: actor.botId } : {}),
      message,
      createdAt: now,
      nextAt: parsed.at,
      ...(parsed.recurrence ? { recurrence: parsed.recurrence } : {}),
      status: 'active',
      fired: 0
    }
    await this.store.put(r)
    this.runner.changed(r.id)
    return r
  }

  /** Cancels a reminder: its owner, or a master (`isMaster`) any. */
  async cancel (id: string, by: { userId?: string; isMaster: boolean }): Promise<Reminder> {
    const r = this.store.get(id)
    if (!r) throw new ReminderRefused('notFound', `No active reminder ${id}`, { id })
    if (!by.isMaster && r.userId !== by.userId) throw new ReminderRefused('notYours', `Reminder ${id} is not yours`, { id })
    await this.store.delete(id)
    this.runner.changed(id)
    return { ...r, status: 'cancelled', ...(by.userId !== undefined ? { cancelledBy: by.userId } : {}) }
  }

  /** Waits for a delivery round under way (tests, stop). */
  async idle (): Promise<void> { await this.runner.idle() }

  private newId (): string {
    for (;;) {
      const id = 'r' + (randomBytes(4).readUInt32BE() % 36 ** 5).toString(36).padStart(5, '0')
      if (!this.store.has(id)) return id
    }
  }

  /** After an occurrence was sent (or given up): a recurring reminder moves to its next time, a one-off goes. */
  private following (r: Reminder, now: number): Reminder | undefined {
    if (!r.recurrence) return undefined
    return { ...r, nextAt: followingOccurrence(r.recurrence, this.timeZone, r.nextAt, now), fired: r.fired + 1, lastFiredAt: now }
  }
}
