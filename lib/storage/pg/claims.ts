// Claims of due records in PostgreSQL (lib/reminders/README.md, "Several instances"): every instance sees
// every reminder (the store `reminders` in lx_records), and a due occurrence is claimed by one instance in
// `lx_reminder_claims` (migration 002) before it is sent. Claiming locks the due rows with
// FOR UPDATE SKIP LOCKED, so instances claiming at the same instant take different ones. A claim holds for
// a lease; the claimer sets `sending` before the send. A claim whose lease lapsed (its claimer is gone) is
// taken over when `sending` is not set (nothing went out), and settled without a send when it is (it may
// have gone out): the same at-most-once rule as the `sending` mark of the files. The record is advanced (or
// removed) together with dropping the claim, only while it is still at the claimed occurrence, so an
// occurrence is advanced once; the change is announced like a store's (notices.ts) so every instance's
// store re-reads it, this one's included.
import { randomBytes } from 'node:crypto'
import type { Pool, PoolClient } from 'pg'
import type { PluginLogger } from '../../core/logger.js'
import type { RecordsDeps } from '../open.js'
import { databaseUrl } from '../settings.js'
import { ensureMigrated } from './migrate.js'
import { CHANNEL, encodeNotice } from './notices.js'
import { acquirePool, inTransaction, releasePool } from './pool.js'

/** What a claimable record holds: when it is next due (ms; absent: not scheduled, never claimed) and, optionally, the bot that must send it. */
export interface DueRecord { nextAt?: number; botId?: string }

export interface Claimed<R> {
  key: string
  /** the record as the database holds it (newer than a store's memory may be) */
  record: R
  /** the nextAt claimed */
  occurrence: number
  /** true: its claimer is gone after marking it sending; settle it (advance) without sending */
  settle: boolean
}

interface ClaimRound<R> {
  claimed: Array<Claimed<R>>
  /** the earliest end of a lease held on a due record (another instance's, or this one's retry): look again then */
  nextLook: number | undefined
}

interface ClaimOptions {
  /** how many at most */
  limit: number
  /** the bots this instance has; undefined: it cannot tell, so it claims any */
  bots: string[] | undefined
}

export interface DueClaims<R extends DueRecord> {
  readonly claimer: string
  readonly leaseMs: number
  /** Claims due records (nextAt <= now) that no live claim holds, soonest first. */
  claimDue(now: number, o: ClaimOptions): Promise<ClaimRound<R>>
  /** Marks a claimed occurrence as being sent (and renews the lease); false: the claim was taken over, do not send. */
  markSending(key: string, occurrence: number, now: number): Promise<boolean>
  /** Keeps the claim, not sending, until `until` (a retry later; another instance may take it over after), setting `set` on the record. */
  hold(key: string, occurrence: number, until: number, set: Partial<R>): Promise<void>
  /** Advances the record to `next` (undefined: removes it) if still at `occurrence`, and drops the claim; false: it was not at that occurrence. */
  finish(key: string, occurrence: number, next: R | undefined): Promise<boolean>
  close(): Promise<void>
}

const DEFAULT_LEASE_MS = 120_000

/** The claims of store `store` when a database address is set; undefined with the embedded files (one instance). */
export async function openDueClaims<R extends DueRecord> (deps: Pick<RecordsDeps, 'config' | 'env' | 'log'>, store: string, o: { leaseMs?: number } = {}): Promise<DueClaims<R> | undefined> {
  const url = databaseUrl(deps.env ?? process.env, deps.config.get().storage)
  if (!url) return undefined
  const pool = await acquirePool(url, deps.log)
  try { await ensureMigrated(pool) } catch (err) { await releasePool(url); throw err }
  return new PgDueClaims<R>(url, pool, store, o.leaseMs ?? DEFAULT_LEASE_MS, deps.log)
}

class PgDueClaims<R extends DueRecord> implements DueClaims<R> {
  /** Also the instance id of the notices it sends: no store has it, so every store (this process's too) re-reads. */
  readonly claimer = 'claims-' + randomBytes(8).toString('hex')
  private closed = false

  constructor (private readonly url: string, private readonly pool: Pool, private readonly store: string, readonly leaseMs: number, private readonly log?: PluginLogger) {}

  async claimDue (now: number, o: ClaimOptions): Promise<ClaimRound<R>> {
    return this.transaction(async (c) => {
      const due = await c.query<{ key: string; value: R }>(DUE_SQL, [this.store, now, o.bots ?? null, o.limit])
      const keys = due.rows.map((r) => r.key)
      const occurrences = due.rows.map((r) => Number(r.value.nextAt))
      const settle = new Set((await c.query<{ key: string }>(SETTLE_SQL, [this.store, keys, occurrences, this.claimer, now, now + this.leaseMs])).rows.map((r) => r.key))
      const rest = due.rows.filter((r) => !settle.has(r.key))
      const fresh = new Set((await c.query<{ key: string }>(CLAIM_SQL, [this.store, rest.map((r) => r.key), rest.map((r) => Number(r.value.nextAt)), this.claimer, now + this.leaseMs, now])).rows.map((r) => r.key))
      const look = await c.query<{ at: string | null }>(NEXT_LOOK_SQL, [this.store, now])
      const claimed: Array<Claimed<R>> = []
      for (const r of due.rows) {
        if (settle.has(r.key) || fresh.has(r.key)) claimed.push({ key: r.key, record: r.value, occurrence: Number(r.value.nextAt), settle: settle.has(r.key) })
      }
      const at = look.rows[0]?.at
      return { claimed, nextLook: at === null || at === undefined ? undefined : Number(at) }
    })
  }

  async markSending (key: string, occurrence: number, now: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE lx_reminder_claims SET sending = true, lease_until = $5
       WHERE store = $1 AND key = $2 AND occurrence = $3 AND claimer = $4 AND NOT sending`,
      [this.store, key, occurrence, this.claimer, now + this.leaseMs])
    return r.rowCount === 1
  }

  async hold (key: string, occurrence: number, until: number, set: Partial<R>): Promise<void> {
    await this.transaction(async (c) => {
      const r = await c.query(`UPDATE lx_reminder_claims SET sending = false, lease_until = $5
        WHERE store = $1 AND key = $2 AND occurrence = $3 AND claimer = $4`, [this.store, key, occurrence, this.claimer, until])
      if (r.rowCount !== 1) return
      const u = await c.query(`UPDATE lx_records SET value = value || $4::jsonb, updated_at = now()
        WHERE store = $1 AND key = $2 AND (value->>'nextAt')::bigint = $3`, [this.store, key, occurrence, JSON.stringify(set)])
      if (u.rowCount === 1) await this.announce(c, key)
    })
  }

  async finish (key: string, occurrence: number, next: R | undefined): Promise<boolean> {
    return this.transaction(async (c) => {
      const r = next === undefined
        ? await c.query(`DELETE FROM lx_records WHERE store = $1 AND key = $2 AND (value->>'nextAt')::bigint = $3`, [this.store, key, occurrence])
        : await c.query(`UPDATE lx_records SET value = $4::jsonb, updated_at = now() WHERE store = $1 AND key = $2 AND (value->>'nextAt')::bigint = $3`,
          [this.store, key, occurrence, JSON.stringify(next)])
      // the claim of this occurrence goes whoever holds it now (a delete above took it already)
      await c.query('DELETE FROM lx_reminder_claims WHERE store = $1 AND key = $2 AND occurrence = $3', [this.store, key, occurrence])
      if (r.rowCount !== 1) return false
      await this.announce(c, key)
      return true
    })
  }

  async close (): Promise<void> {
    if (this.closed) return
    this.closed = true
    await releasePool(this.url)
  }

  /** The record's change to every instance's store (sent at commit; lib/storage/README.md, "Changes of other instances"). */
  private async announce (c: PoolClient, key: string): Promise<void> {
    await c.query('SELECT pg_notify($1, $2)', [CHANNEL, encodeNotice({ instance: this.claimer, store: this.store, kind: 'k', key })])
  }

  private async transaction<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`The claims of ${this.store} are closed`)
    return inTransaction(this.pool, fn).catch((err: unknown) => {
      this.log?.debug(`A claim of ${this.store} failed: ${(err as Error).message}`)
      throw err
    })
  }
}

// The due records of store $1 at $2 that this instance may send (bots $3; NULL: any) and no live claim holds
// for their occurrence, soonest first, at most $4; locked, skipping those another instance is claiming now.
const DUE_SQL = `
SELECT r.key, r.value FROM lx_records r
WHERE r.store = $1 AND (r.value->>'nextAt')::bigint <= $2
  AND ($3::text[] IS NULL OR r.value->>'botId' IS NULL OR r.value->>'botId' = ANY($3::text[]))
  AND NOT EXISTS (SELECT 1 FROM lx_reminder_claims c WHERE c.store = r.store AND c.key = r.key
    AND c.occurrence = (r.value->>'nextAt')::bigint AND c.lease_until > $2)
ORDER BY (r.value->>'nextAt')::bigint, r.key
LIMIT $4
FOR UPDATE OF r SKIP LOCKED`

// Claims marked sending whose lease lapsed: taken by $4 to be settled (not sent again).
const SETTLE_SQL = `
UPDATE lx_reminder_claims c SET claimer = $4, lease_until = $6, claimed_at = now()
FROM unnest($2::text[], $3::bigint[]) AS t(key, occ)
WHERE c.store = $1 AND c.key = t.key AND c.occurrence = t.occ AND c.sending AND c.lease_until <= $5
RETURNING c.key`

// New claims, or take-overs of a stale claim (another occurrence) or of a lapsed one not marked sending.
// ON CONFLICT re-checks the condition on the newest row, so a mark set meanwhile by the old claimer wins.
const CLAIM_SQL = `
INSERT INTO lx_reminder_claims AS c (store, key, occurrence, claimer, lease_until, sending)
SELECT $1, t.key, t.occ, $4, $5, false FROM unnest($2::text[], $3::bigint[]) AS t(key, occ)
ON CONFLICT (store, key) DO UPDATE SET occurrence = excluded.occurrence, claimer = excluded.claimer,
  lease_until = excluded.lease_until, sending = false, claimed_at = now()
WHERE c.occurrence <> excluded.occurrence OR (c.lease_until <= $6 AND NOT c.sending)
RETURNING c.key`

// The earliest lease end among the live claims of due records.
const NEXT_LOOK_SQL = `
SELECT min(c.lease_until) AS at FROM lx_reminder_claims c JOIN lx_records r ON r.store = c.store AND r.key = c.key
WHERE c.store = $1 AND c.lease_until > $2 AND c.occurrence = (r.value->>'nextAt')::bigint`
