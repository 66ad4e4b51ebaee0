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
// gone before marking is taken over (README "Several instances").
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { Clock } from '../core/clock.js'
import { AppError, errorText } from '../core/errors.js'
import { JournalStore } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import type { Config } from '../config/schema.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import { openDueClaims, type Claimed, type DueClaims } from '../storage/pg/claims.js'
import { journalAsRecords, type RecordStore, type RemoteListener } from '../storage/records.js'
import { NotSentError } from './deliver.js'
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

/** The longest single timer; a later reminder is reached in steps. */
const MAX_STEP_MS = 24 * 3600_000
const MAX_ATTEMPTS = 10
const retryDelay = (attempt: number): number => Math.min(15_000 * 2 ** (attempt - 1), 600_000)
/** Due reminders claimed at once (shared storage): a small batch, so instances ticking together share them. */
const CLAIM_BATCH = 20

export class ReminderService {
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private ticking: Promise<void> | undefined
  private again = false
  /** id -> when a failed delivery is tried again (in memory: a restart tries at once) */
  private readonly retryAt = new Map<string, number>()
  /** Shared storage: id -> the occurrence this instance settled, until its store holds the advanced record. */
  private readonly settled = new Map<string, number>()
  /** Shared storage: when a lease on a due reminder ends (look again then). */
  private recheckAt: number | undefined
  /** Shared storage: the time the last claim round looked at (what was due then and not claimed is held elsewhere). */
  private lastRound = -Infinity

  private constructor (private readonly store: RecordStore<Reminder, string>, private readonly o: ReminderServiceOptions, private readonly claims?: DueClaims<Reminder>) {
    // another instance's change (a reminder set, cancelled, advanced): the timer follows it
    store.onRemote((id) => { this.settled.delete(id); this.arm() })
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

  /** Settles what a stop left half-done, then arms the timer (due ones are sent at once). */
  async start (): Promise<void> {
    // shared: another instance may be sending it right now; the claims' lease rule settles it instead
    if (!this.claims) for (const r of [...this.store.values()]) {
      if (r.sending !== undefined && r.sending === r.nextAt) {
        this.o.log.warn('A reminder was being sent when the plugin stopped; not sent again (it may have gone out)', { id: r.id })
        await this.advance(r, this.o.clock.now())
      }
    }
    // those due now (missed while stopped) go out at once, the rest on the timer
    this.tick()
  }

  async close (): Promise<void> {
    this.closed = true
    if (this.timer) this.o.clock.clearTimeout(this.timer)
    this.timer = undefined
    await this.ticking
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
    this.arm()
    return r
  }

  /** Cancels a reminder: its owner, or a master (`isMaster`) any. */
  async cancel (id: string, by: { userId?: string; isMaster: boolean }): Promise<Reminder> {
    const r = this.store.get(id)
    if (!r) throw new ReminderRefused('notFound', `No active reminder ${id}`, { id })
    if (!by.isMaster && r.userId !== by.userId) throw new ReminderRefused('notYours', `Reminder ${id} is not yours`, { id })
    this.retryAt.delete(id)
    await this.store.delete(id)
    this.arm()
    return { ...r, status: 'cancelled', ...(by.userId !== undefined ? { cancelledBy: by.userId } : {}) }
  }

  /** Waits for a delivery round under way (tests, stop). */
  async idle (): Promise<void> {
    while (this.ticking) await this.ticking
  }

  private newId (): string {
    for (;;) {
      const id = 'r' + (randomBytes(4).readUInt32BE() % 36 ** 5).toString(36).padStart(5, '0')
      if (!this.store.has(id)) return id
    }
  }

  private dueAt (r: Reminder): number { return Math.max(r.nextAt, this.retryAt.get(r.id) ?? 0) }

  /** The bots to claim for; undefined: this instance cannot tell, so it claims any. */
  private bots (): string[] | undefined {
    const ids = this.o.bots?.()
    return ids && ids.length > 0 ? ids : undefined
  }

  /**
   * Shared storage: when to claim next. A reminder due since the last round is claimed at once; one that was
   * due then and not claimed is held elsewhere: looked at again when its lease ends (recheckAt) and at the
   * latest a lease from now (a claim taken meanwhile, whose claimer may die). One for a bot this instance
   * lacks, or one it settled (its store not yet updated), is not its to wait for.
   */
  private sharedNext (now: number): number {
    const bots = this.bots()
    let next = this.recheckAt ?? Infinity
    for (const r of this.store.values()) {
      if (this.settled.get(r.id) === r.nextAt) continue
      if (bots && r.botId !== undefined && !bots.includes(r.botId)) continue
      const at = this.dueAt(r)
      next = Math.min(next, at > this.lastRound ? at : now + (this.claims?.leaseMs ?? MAX_STEP_MS))
    }
    return next
  }

  private arm (): void {
    if (this.timer) this.o.clock.clearTimeout(this.timer)
    this.timer = undefined
    if (this.closed) return
    let next = Infinity
    if (this.claims) next = this.sharedNext(this.o.clock.now())
    else for (const r of this.store.values()) next = Math.min(next, this.dueAt(r))
    if (next === Infinity) return
    const delay = Math.min(Math.max(0, next - this.o.clock.now()), MAX_STEP_MS)
    this.timer = this.o.clock.setTimeout(() => { this.timer = undefined; this.tick() }, delay)
  }

  private tick (): void {
    if (this.ticking) { this.again = true; return }
    this.ticking = this.run().finally(() => {
      this.ticking = undefined
      if (this.again) { this.again = false; this.tick() } else this.arm()
    })
  }

  private async run (): Promise<void> {
    if (this.claims) return this.runShared(this.claims)
    const now = this.o.clock.now()
    const due = [...this.store.values()].filter((r) => this.dueAt(r) <= now).sort((a, b) => a.nextAt - b.nextAt)
    for (const r of due) {
      if (this.closed) return
      try { await this.fire(r) } catch (err) { this.o.log.error('Reminder delivery failed', { id: r.id, error: errorText(err) }) }
    }
  }

  private async fire (r: Reminder): Promise<void> {
    const now = this.o.clock.now()
    const late = now - r.nextAt >= this.o.settings().lateAfterSeconds * 1000
    if (this.store.get(r.id) !== r) return // cancelled (or changed) since the round began
    const claimed: Reminder = { ...r, sending: r.nextAt }
    await this.store.put(claimed)
    try {
      await this.o.deliver(claimed, { late, timeZone: this.timeZone })
    } catch (err) {
      if (!(err instanceof NotSentError)) {
        // part of it went out: the occurrence counts as delivered (never twice)
        this.o.log.warn('A reminder was sent only in part', { id: r.id, error: errorText(err) })
        await this.advance(claimed, this.o.clock.now())
        return
      }
      const attempts = (r.attempts ?? 0) + 1
      if (attempts >= MAX_ATTEMPTS) {
        this.o.log.error('A reminder could not be sent; this time is given up', { id: r.id, attempts, error: errorText(err) })
        await this.advance(claimed, this.o.clock.now())
        return
      }
      if (!this.store.has(r.id)) return // cancelled while it was being sent
      const { sending: _, ...released } = claimed
      await this.store.put({ ...released, attempts })
      this.retryAt.set(r.id, this.o.clock.now() + retryDelay(attempts))
      this.o.log.warn('A reminder could not be sent yet; retrying', { id: r.id, attempts, error: errorText(err) })
      return
    }
    await this.advance(claimed, this.o.clock.now())
  }

  // Shared storage: claims due reminders in small batches (other instances take the others) and sends them.
  private async runShared (claims: DueClaims<Reminder>): Promise<void> {
    const now = this.o.clock.now()
    this.lastRound = now
    for (;;) {
      if (this.closed) return
      let round
      try {
        round = await claims.claimDue(now, { limit: CLAIM_BATCH, bots: this.bots() })
      } catch (err) {
        this.o.log.error('Could not claim the due reminders', { error: errorText(err) })
        this.recheckAt = now + retryDelay(1)
        return
      }
      this.recheckAt = round.nextLook
      for (const c of round.claimed) {
        if (this.closed) return
        try { await this.fireShared(claims, c) } catch (err) { this.o.log.error('Reminder delivery failed', { id: c.key, error: errorText(err) }) }
      }
      if (round.claimed.length < CLAIM_BATCH) return
    }
  }

  private async fireShared (claims: DueClaims<Reminder>, c: Claimed<Reminder>): Promise<void> {
    const r = c.record
    const now = this.o.clock.now()
    if (c.settle) {
      this.o.log.warn('A reminder was being sent by an instance that is gone; not sent again (it may have gone out)', { id: r.id })
      await this.finishShared(claims, c, now)
      return
    }
    if (!await claims.markSending(c.key, c.occurrence, now)) return // taken over meanwhile: the other instance sends it
    const late = now - r.nextAt >= this.o.settings().lateAfterSeconds * 1000
    const sending: Reminder = { ...r, sending: c.occurrence }
    try {
      await this.o.deliver(sending, { late, timeZone: this.timeZone })
    } catch (err) {
      if (!(err instanceof NotSentError)) {
        this.o.log.warn('A reminder was sent only in part', { id: r.id, error: errorText(err) })
        await this.finishShared(claims, c, this.o.clock.now())
        return
      }
      const attempts = (r.attempts ?? 0) + 1
      if (attempts >= MAX_ATTEMPTS) {
        this.o.log.error('A reminder could not be sent; this time is given up', { id: r.id, attempts, error: errorText(err) })
        await this.finishShared(claims, c, this.o.clock.now())
        return
      }
      // the claim stays this instance's until the retry, not marked: after it, any instance may try
      const at = this.o.clock.now() + retryDelay(attempts)
      await claims.hold(c.key, c.occurrence, at, { attempts })
      this.retryAt.set(r.id, at)
      this.o.log.warn('A reminder could not be sent yet; retrying', { id: r.id, attempts, error: errorText(err) })
      return
    }
    await this.finishShared(claims, c, this.o.clock.now())
  }

  /** advance() on the claims: the record moves on (or goes) once, and only while at the claimed occurrence. */
  private async finishShared (claims: DueClaims<Reminder>, c: Claimed<Reminder>, now: number): Promise<void> {
    this.retryAt.delete(c.record.id)
    const { sending: _s, attempts: _a, ...rest } = c.record
    const next = c.record.recurrence
      ? { ...rest, nextAt: followingOccurrence(c.record.recurrence, this.timeZone, c.record.nextAt, now), fired: c.record.fired + 1, lastFiredAt: now }
      : undefined
    if (await claims.finish(c.key, c.occurrence, next)) this.settled.set(c.record.id, c.occurrence)
  }

  /** After a delivery (or one given up): a recurring reminder moves to its next time, a one-off goes. */
  private async advance (r: Reminder, now: number): Promise<void> {
    this.retryAt.delete(r.id)
    if (!this.store.has(r.id)) return // cancelled meanwhile
    if (!r.recurrence) { await this.store.delete(r.id); return }
    const { sending: _s, attempts: _a, ...rest } = r
    await this.store.put({ ...rest, nextAt: followingOccurrence(r.recurrence, this.timeZone, r.nextAt, now), fired: r.fired + 1, lastFiredAt: now })
  }
}
