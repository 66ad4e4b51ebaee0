// Records that fall due (reminders, scheduled tasks): one timer on the runtime clock for the earliest, the
// work of each due occurrence done at most once, retried while nothing went out. lib/reminders/README.md
// ("Time and restarts", "Several instances") has the rules; this is their one implementation.
//
// With the files, before an occurrence's work the record's `sending` mark (the occurrence's time) is written
// and synced; after it, the record is advanced (`following`) in one more write. Found at start, the mark means
// the plugin stopped between the two: the work may have been done, so it is not done again. With PostgreSQL
// every instance holds every record and an occurrence is claimed by one (lib/storage/pg/claims.ts): the mark
// lives on the claim, with a lease.
import type { Clock } from '../core/clock.js'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import type { Claimed, DueClaims, DueRecord } from './pg/claims.js'
import type { RecordStore } from './records.js'

/** Thrown by the work when nothing went out (the host not ready, the first send failed): it is tried again later. */
export class NotSentError extends Error {
  override name = 'NotSentError'
}

/** What the runner needs of a record: an id, when it is next due (absent: not scheduled) and its marks. */
export interface DueItem extends DueRecord {
  id: string
  /** the occurrence whose work was started (at most once; see above) */
  sending?: number
  /** failed tries of the current occurrence */
  attempts?: number
}

export interface DueRunnerOptions<R extends DueItem> {
  store: RecordStore<R, string>
  /** set with shared storage: occurrences are claimed before their work */
  claims?: DueClaims<R> | undefined
  clock: Clock
  log: PluginLogger
  /** what a record is called in the log ("reminder", "task") */
  noun: string
  /** The work of a due occurrence (`r.nextAt`); `late`: it is done late (the plugin was down). NotSentError: try again. */
  work: (r: R, o: { late: boolean }) => Promise<void>
  /** How late an occurrence counts as late. */
  lateAfterMs: () => number
  /** The record once occurrence `r.nextAt` is done (or given up) at `now`: the next one, or undefined to remove it. */
  following: (r: R, now: number) => R | undefined
  /** The bots this instance has (a record naming another bot is left to the instance that has it); undefined or empty: any. */
  bots?: () => string[] | undefined
  /** How many occurrences are worked on at once (a model turn takes seconds; a reminder's send, milliseconds). */
  concurrency?: number
}

/** The longest single timer; a later record is reached in steps (setTimeout holds ~24.8 days). */
const MAX_STEP_MS = 24 * 3600_000
const MAX_ATTEMPTS = 10
const retryDelay = (attempt: number): number => Math.min(15_000 * 2 ** (attempt - 1), 600_000)
/** Due records claimed at once (shared storage): a small batch, so instances ticking together share them. */
const CLAIM_BATCH = 20

const scheduled = <T extends DueItem>(r: T): r is T & { nextAt: number } => typeof r.nextAt === 'number' && Number.isFinite(r.nextAt)

export class DueRunner<R extends DueItem> {
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private ticking: Promise<void> | undefined
  private again = false
  /** id -> when a failed try is made again (in memory: a restart tries at once) */
  private readonly retryAt = new Map<string, number>()
  /** Shared storage: id -> the occurrence this instance settled, until its store holds the advanced record. */
  private readonly settled = new Map<string, number>()
  /** Shared storage: when a lease on a due record ends (look again then). */
  private recheckAt: number | undefined
  /** Shared storage: the time the last claim round looked at (what was due then and not claimed is held elsewhere). */
  private lastRound = -Infinity

  constructor (private readonly o: DueRunnerOptions<R>) {
    // another instance's change (a record set, removed, advanced): the timer follows it
    o.store.onRemote((id) => { this.settled.delete(id); this.arm() })
  }

  /** Settles what a stop left half-done (files), then arms the timer: those due now are worked on at once. */
  async start (): Promise<void> {
    // shared: another instance may be working on it right now; the claims' lease rule settles it instead
    if (!this.o.claims) for (const r of [...this.o.store.values()]) {
      if (scheduled(r) && r.sending !== undefined && r.sending === r.nextAt) {
        this.o.log.warn(`A ${this.o.noun} was being done when the plugin stopped; not done again (it may have gone out)`, { id: r.id })
        await this.advance(r, this.o.clock.now())
      }
    }
    this.tick()
  }

  /** Stops the timer and waits for the round under way. */
  async close (): Promise<void> {
    this.closed = true
    if (this.timer) this.o.clock.clearTimeout(this.timer)
    this.timer = undefined
    await this.ticking
  }

  /** After a record was set, changed or removed here: its retry is forgotten and the timer follows. */
  changed (id?: string): void {
    if (id !== undefined) this.retryAt.delete(id)
    this.arm()
  }

  /** Waits for a round under way (tests, stop). */
  async idle (): Promise<void> {
    while (this.ticking) await this.ticking
  }

  private dueAt (r: DueItem & { nextAt: number }): number { return Math.max(r.nextAt, this.retryAt.get(r.id) ?? 0) }

  /** The bots to claim for; undefined: this instance cannot tell, so it claims any. */
  private bots (): string[] | undefined {
    const ids = this.o.bots?.()
    return ids && ids.length > 0 ? ids : undefined
  }

  /**
   * Shared storage: when to claim next. A record due since the last round is claimed at once; one that was
   * due then and not claimed is held elsewhere: looked at again when its lease ends (recheckAt) and at the
   * latest a lease from now (a claim taken meanwhile, whose claimer may die). One for a bot this instance
   * lacks, or one it settled (its store not yet updated), is not its to wait for.
   */
  private sharedNext (now: number): number {
    const bots = this.bots()
    let next = this.recheckAt ?? Infinity
    for (const r of this.o.store.values()) {
      if (!scheduled(r) || this.settled.get(r.id) === r.nextAt) continue
      if (bots && r.botId !== undefined && !bots.includes(r.botId)) continue
      const at = this.dueAt(r)
      next = Math.min(next, at > this.lastRound ? at : now + (this.o.claims?.leaseMs ?? MAX_STEP_MS))
    }
    return next
  }

  private arm (): void {
    if (this.timer) this.o.clock.clearTimeout(this.timer)
    this.timer = undefined
    if (this.closed) return
    let next = Infinity
    if (this.o.claims) next = this.sharedNext(this.o.clock.now())
    else for (const r of this.o.store.values()) if (scheduled(r)) next = Math.min(next, this.dueAt(r))
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
    if (this.o.claims) return this.runShared(this.o.claims)
    const now = this.o.clock.now()
    const due = [...this.o.store.values()].filter((r) => scheduled(r)).filter((r) => this.dueAt(r) <= now).sort((a, b) => a.nextAt - b.nextAt)
    await this.each(due, async (r) => this.fire(r))
  }

  /** Works on `items` `concurrency` at a time, in order; one's failure is logged and does not stop the others. */
  private async each<T extends { id: string } | Claimed<R>>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0
    const lane = async (): Promise<void> => {
      while (next < items.length && !this.closed) {
        const item = items[next++] as T
        try { await fn(item) } catch (err) {
          this.o.log.error(`A ${this.o.noun} failed`, { id: 'key' in item ? item.key : item.id, error: errorText(err) })
        }
      }
    }
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.o.concurrency ?? 1, items.length)) }, lane))
  }

  private isLate (r: DueItem & { nextAt: number }, now: number): boolean { return now - r.nextAt >= this.o.lateAfterMs() }

  private async fire (r: R & { nextAt: number }): Promise<void> {
    if (this.o.store.get(r.id) !== r) return // removed (or changed) since the round began
    const marked: R & { nextAt: number } = { ...r, sending: r.nextAt }
    await this.o.store.put(marked)
    try {
      await this.o.work(marked, { late: this.isLate(r, this.o.clock.now()) })
    } catch (err) {
      if (!(err instanceof NotSentError)) {
        // part of it went out: the occurrence counts as done (never twice)
        this.o.log.warn(`A ${this.o.noun} was done only in part`, { id: r.id, error: errorText(err) })
        await this.advance(marked, this.o.clock.now())
        return
      }
      const attempts = (r.attempts ?? 0) + 1
      if (attempts >= MAX_ATTEMPTS) {
        this.o.log.error(`A ${this.o.noun} could not be done; this time is given up`, { id: r.id, attempts, error: errorText(err) })
        await this.advance(marked, this.o.clock.now())
        return
      }
      if (!this.o.store.has(r.id)) return // removed while it was being done
      const { sending: _, ...released } = marked
      await this.o.store.put({ ...released, attempts } as R)
      this.retryAt.set(r.id, this.o.clock.now() + retryDelay(attempts))
      this.o.log.warn(`A ${this.o.noun} could not be done yet; retrying`, { id: r.id, attempts, error: errorText(err) })
      return
    }
    await this.advance(marked, this.o.clock.now())
  }

  // Shared storage: claims due records in small batches (other instances take the others) and works on them.
  private async runShared (claims: DueClaims<R>): Promise<void> {
    const now = this.o.clock.now()
    this.lastRound = now
    for (;;) {
      if (this.closed) return
      let round
      try {
        round = await claims.claimDue(now, { limit: CLAIM_BATCH, bots: this.bots() })
      } catch (err) {
        this.o.log.error(`Could not claim the due ${this.o.noun}s`, { error: errorText(err) })
        this.recheckAt = now + retryDelay(1)
        return
      }
      this.recheckAt = round.nextLook
      await this.each(round.claimed, async (c) => this.fireShared(claims, c))
      if (round.claimed.length < CLAIM_BATCH) return
    }
  }

  private async fireShared (claims: DueClaims<R>, c: Claimed<R>): Promise<void> {
    const r = c.record
    const now = this.o.clock.now()
    if (c.settle) {
      this.o.log.warn(`A ${this.o.noun} was being done by an instance that is gone; not done again (it may have gone out)`, { id: r.id })
      await this.finishShared(claims, c, now)
      return
    }
    if (!await claims.markSending(c.key, c.occurrence, now)) return // taken over meanwhile: the other instance does it
    const marked: R = { ...r, sending: c.occurrence }
    try {
      await this.o.work(marked, { late: now - c.occurrence >= this.o.lateAfterMs() })
    } catch (err) {
      if (!(err instanceof NotSentError)) {
        this.o.log.warn(`A ${this.o.noun} was done only in part`, { id: r.id, error: errorText(err) })
        await this.finishShared(claims, c, this.o.clock.now())
        return
      }
      const attempts = (r.attempts ?? 0) + 1
      if (attempts >= MAX_ATTEMPTS) {
        this.o.log.error(`A ${this.o.noun} could not be done; this time is given up`, { id: r.id, attempts, error: errorText(err) })
        await this.finishShared(claims, c, this.o.clock.now())
        return
      }
      // the claim stays this instance's until the retry, not marked: after it, any instance may try
      const at = this.o.clock.now() + retryDelay(attempts)
      await claims.hold(c.key, c.occurrence, at, { attempts } as Partial<R>)
      this.retryAt.set(r.id, at)
      this.o.log.warn(`A ${this.o.noun} could not be done yet; retrying`, { id: r.id, attempts, error: errorText(err) })
      return
    }
    await this.finishShared(claims, c, this.o.clock.now())
  }

  /** advance() on the claims: the record moves on (or goes) once, and only while at the claimed occurrence. */
  private async finishShared (claims: DueClaims<R>, c: Claimed<R>, now: number): Promise<void> {
    this.retryAt.delete(c.record.id)
    // what the work wrote on this instance (its own write, so its store holds it) or else the database's record
    const own = this.o.store.get(c.record.id)
    const base = own?.nextAt === c.occurrence ? own : c.record
    const { sending: _s, attempts: _a, ...rest } = base
    if (await claims.finish(c.key, c.occurrence, this.o.following(rest as R, now))) this.settled.set(c.record.id, c.occurrence)
  }

  /** After an occurrence was done (or given up): the record moves to its next time, or goes. */
  private async advance (r: R, now: number): Promise<void> {
    this.retryAt.delete(r.id)
    const current = this.o.store.get(r.id)
    if (!current) return // removed meanwhile
    if (current.nextAt !== r.nextAt) return // rescheduled meanwhile: the new time stands
    const { sending: _s, attempts: _a, ...rest } = current
    const next = this.o.following(rest as R, now)
    if (next === undefined) await this.o.store.delete(r.id)
    else await this.o.store.put(next)
  }
}
