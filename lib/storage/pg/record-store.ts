// A RecordStore (lib/storage/records.ts) kept in PostgreSQL (lib/storage/README.md, "PostgreSQL"): like
// JournalStore it holds its records in memory, read whole at open, and answers reads from there; each
// change is applied in memory at once and written to `lx_records` (one row per record) or `lx_store_meta`.
// Changes queued while a write is in flight go together in the next transaction, in the order they were
// made; a caller's promise resolves once that transaction is committed. Deltas (appendTo, patch) are done
// by the database on the row, so two instances appending to one record both land; the committed row comes
// back (RETURNING) and replaces the memory copy when nothing newer of this instance is queued for it.
// Other instances' changes arrive as notices (notices.ts): the rows named are re-read (on the write
// chain, after this instance's own queued writes) and the onRemote listeners told.
import { randomBytes } from 'node:crypto'
import type { Pool, PoolClient } from 'pg'
import type { PluginLogger } from '../../core/logger.js'
import type { ListField, NumberField, RecordStore, RemoteListener } from '../records.js'
import { ensureMigrated } from './migrate.js'
import { CHANNEL, encodeNotice, MAX_KEY_IN_NOTICE, type Notice, subscribe } from './notices.js'
import { acquirePool, connectionError, inTransaction, releasePool } from './pool.js'

export interface PgRecordStoreOptions<R, K, M> {
  key: (r: R) => K
  meta?: M
  log?: PluginLogger
}

/** Rows read per query when a store is read whole (at open, after a lost notice connection). */
const READ_PAGE = 5_000

/** A batch naming more keys than this sends one whole-store notice instead of one per key. */
const NOTICE_KEYS_MAX = 64

type Op<R> =
  | { t: 'put'; key: string; rec: R }
  | { t: 'del'; key: string }
  | { t: 'delta'; key: string; field?: string; items?: unknown[]; max?: number; set?: Record<string, unknown> }
  | { t: 'meta'; patch: Record<string, unknown> }
  | { t: 'clear' }
interface Pending<R> { op: Op<R>; resolve: () => void; reject: (err: unknown) => void }

export class PgRecordStore<R extends object, K extends string | number, M extends object = Record<string, never>> implements RecordStore<R, K, M> {
  /** Keyed by String(key): the database keys are text. */
  private readonly records = new Map<string, R>()
  private currentMeta: M
  private pending: Array<Pending<R>> = []
  private scheduled = false
  private chain: Promise<void> = Promise.resolve()
  /** Local changes per key not yet committed: a re-read must not overwrite them. */
  private readonly unsaved = new Map<string, number>()
  private readonly listeners = new Set<RemoteListener<R, K>>()
  private readonly remoteKeys = new Set<string>()
  private remoteAll = false
  private remoteMeta = false
  private remoteScheduled = false
  private unsubscribe: (() => Promise<void>) | undefined
  private closed = false
  /** This store object's id in the notices it sends (its own are ignored). */
  readonly instanceId = randomBytes(8).toString('hex')

  private constructor (private readonly url: string, private readonly pool: Pool, readonly name: string, private readonly opts: PgRecordStoreOptions<R, K, M>) {
    this.currentMeta = { ...(opts.meta ?? {}) } as M
  }

  static async open<R extends object, K extends string | number, M extends object = Record<string, never>>(
    url: string, name: string, opts: PgRecordStoreOptions<R, K, M>
  ): Promise<PgRecordStore<R, K, M>> {
    const pool = await acquirePool(url, opts.log)
    const store = new PgRecordStore<R, K, M>(url, pool, name, opts)
    try {
      await ensureMigrated(pool)
      // listening before the first read: a change committed in between is re-read, never missed
      store.unsubscribe = await subscribe(url, { store: name, notice: (n) => store.notice(n), resync: () => store.remote({ all: true }) }, opts.log)
      await store.loadAll(pool)
    } catch (err) {
      await store.unsubscribe?.()
      await releasePool(url)
      throw (err as { code?: unknown }).code === undefined || (err as Error).message.includes('PostgreSQL') ? err : connectionError(url, err)
    }
    return store
  }

  get size (): number { return this.records.size }
  get meta (): Readonly<M> { return this.currentMeta }
  get (id: K): R | undefined { return this.records.get(String(id)) }
  has (id: K): boolean { return this.records.has(String(id)) }
  values (): IterableIterator<R> { return this.records.values() }

  onRemote (listener: RemoteListener<R, K>): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  put (rec: R, metaPatch?: Partial<M>): Promise<void> {
    const key = String(this.opts.key(rec))
    this.records.set(key, rec)
    const done = this.enqueue({ t: 'put', key, rec })
    if (!metaPatch) return done
    return Promise.all([done, this.setMeta(metaPatch)]).then(() => undefined)
  }

  async putMany (recs: R[]): Promise<void> {
    await Promise.all(recs.map((r) => this.put(r)))
  }

  async appendTo<F extends ListField<R>>(id: K, field: F, items: NonNullable<R[F]>, opts: { max?: number; set?: Partial<R> } = {}): Promise<boolean> {
    const key = String(id)
    if (!this.records.has(key)) return false
    const op: Op<R> = { t: 'delta', key, field, items: items as unknown[], ...(opts.max !== undefined ? { max: opts.max } : {}), ...(opts.set ? { set: opts.set as Record<string, unknown> } : {}) }
    this.applyDelta(op)
    await this.enqueue(op)
    return true
  }

  async patch (id: K, set: Partial<R>): Promise<boolean> {
    const key = String(id)
    if (!this.records.has(key)) return false
    const op: Op<R> = { t: 'delta', key, set: set as Record<string, unknown> }
    this.applyDelta(op)
    await this.enqueue(op)
    return true
  }

  async delete (id: K): Promise<boolean> {
    const key = String(id)
    if (!this.records.delete(key)) return false
    await this.enqueue({ t: 'del', key })
    return true
  }

  setMeta (patch: Partial<M>): Promise<void> {
    this.currentMeta = { ...this.currentMeta, ...patch }
    return this.enqueue({ t: 'meta', patch: patch as Record<string, unknown> })
  }

  async reserve (field: NumberField<M>, count = 1): Promise<number> {
    // after this instance's queued writes (a queued meta patch of the same field lands first), not batched:
    // the row's update is atomic, so instances sharing the store take disjoint numbers
    await this.chain
    const { rows } = await this.pool.query<{ first: string }>(RESERVE_SQL, [this.name, field, count])
    const first = Number(rows[0]?.first)
    this.currentMeta = { ...this.currentMeta, [field]: first + count }
    return first
  }

  clear (): Promise<void> {
    this.records.clear()
    return this.enqueue({ t: 'clear' })
  }

  async idle (): Promise<void> {
    do await this.chain
    while (this.scheduled || this.remoteScheduled)
  }

  async close (): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.chain
    await this.unsubscribe?.()
    await releasePool(this.url)
  }

  // The same record as JournalStore's delta makes: a new object, the list extended and trimmed, fields set.
  private applyDelta (a: Extract<Op<R>, { t: 'delta' }>): void {
    const rec = this.records.get(a.key)
    if (!rec) return
    const next: Record<string, unknown> = { ...rec, ...(a.set ?? {}) }
    if (a.field !== undefined && Array.isArray(a.items)) {
      const old = (rec as Record<string, unknown>)[a.field]
      let list = (Array.isArray(old) ? old : []).concat(a.items)
      if (a.max !== undefined && list.length > a.max) list = list.slice(list.length - Math.max(0, a.max))
      next[a.field] = list
    }
    this.records.set(a.key, next as R)
  }

  private enqueue (op: Op<R>): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The store ${this.name} is closed`))
    const key = 'key' in op ? op.key : undefined
    if (key !== undefined) this.unsaved.set(key, (this.unsaved.get(key) ?? 0) + 1)
    const done = new Promise<void>((resolve, reject) => { this.pending.push({ op, resolve, reject }) })
    if (!this.scheduled) {
      this.scheduled = true
      this.chain = this.chain.then(() => this.drain())
    }
    return done
  }

  // On the chain: everything queued meanwhile is one transaction, in order.
  private async drain (): Promise<void> {
    this.scheduled = false
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return
    let committed: Map<string, R | undefined> | undefined
    try {
      const ops = batch.map((b) => b.op)
      committed = await (this.oneStatement(ops) ?? this.transaction((c) => this.write(c, ops)))
    } catch (err) {
      const e = (err as { code?: string }).code?.startsWith('E') ? connectionError(this.url, err) : err
      this.opts.log?.error(`Could not write the store ${this.name} to PostgreSQL`, {}, e)
      this.settle(batch)
      for (const b of batch) b.reject(e)
      return
    }
    this.settle(batch)
    // the committed rows of the deltas, unless a newer local change of that record is still queued
    for (const [key, value] of committed) {
      if (this.unsaved.has(key) || !this.records.has(key)) continue
      if (value === undefined) this.records.delete(key)
      else this.records.set(key, value)
    }
    for (const b of batch) b.resolve()
  }

  /**
   * The common batch, deltas of different records only or puts only, as one statement with its notices
   * (one round trip instead of BEGIN, the write, the notices and COMMIT: a single statement is its own
   * transaction, and pg_notify in it is sent at its commit). Undefined for any other batch.
   */
  private oneStatement (ops: Array<Op<R>>): Promise<Map<string, R | undefined>> | undefined {
    if (ops.length === 0 || ops.length > NOTICE_KEYS_MAX) return undefined
    const prefix = encodeNotice({ instance: this.instanceId, store: this.name, kind: 'k', key: '' })
    if (ops.every((o) => o.t === 'delta')) {
      const ds = ops as Array<Extract<Op<R>, { t: 'delta' }>>
      if (new Set(ds.map((d) => d.key)).size !== ds.length || ds.some((d) => d.key.length > MAX_KEY_IN_NOTICE)) return undefined
      return this.pool.query<{ key: string }>(`WITH u AS (${DELTAS_SQL}) SELECT u.key, pg_notify($7, $8 || u.key) FROM u`, [
        this.name, ds.map((d) => d.key), ds.map((d) => JSON.stringify(d.set ?? {})), ds.map((d) => d.field ?? null),
        ds.map((d) => JSON.stringify(d.items ?? [])), ds.map((d) => d.max ?? null), CHANNEL, prefix
      ]).then((r) => gone(ds, r.rows))
    }
    if (ops.every((o) => o.t === 'put')) {
      const puts = new Map<string, R>()
      for (const o of ops as Array<Extract<Op<R>, { t: 'put' }>>) puts.set(o.key, o.rec)
      if ([...puts.keys()].some((k) => k.length > MAX_KEY_IN_NOTICE)) return undefined
      return this.pool.query(`WITH u AS (${PUTS_SQL} RETURNING key) SELECT pg_notify($4, $5 || u.key) FROM u`, [
        this.name, [...puts.keys()], [...puts.values()].map((r) => JSON.stringify(r)), CHANNEL, prefix
      ]).then(() => new Map())
    }
    return undefined
  }

  private settle (batch: Array<Pending<R>>): void {
    for (const { op } of batch) {
      if (!('key' in op)) continue
      const n = (this.unsaved.get(op.key) ?? 1) - 1
      if (n <= 0) this.unsaved.delete(op.key)
      else this.unsaved.set(op.key, n)
    }
  }

  private transaction<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> { return inTransaction(this.pool, fn) }

  /** Writes the ops in order and queues their notices (sent at commit); answers the rows the deltas left. */
  private async write (c: PoolClient, ops: Array<Op<R>>): Promise<Map<string, R | undefined>> {
    const rows = new Map<string, R | undefined>()
    const keys = new Set<string>()
    let all = false
    let meta = false
    let puts = new Map<string, R>()
    const flushPuts = async (): Promise<void> => {
      if (puts.size === 0) return
      await c.query(PUTS_SQL, [this.name, [...puts.keys()], [...puts.values()].map((r) => JSON.stringify(r))])
      for (const k of puts.keys()) rows.delete(k)
      puts = new Map()
    }
    // consecutive deltas of different records are one statement; a second delta of a record waits for the first
    let deltas = new Map<string, Extract<Op<R>, { t: 'delta' }>>()
    const flushDeltas = async (): Promise<void> => {
      if (deltas.size === 0) return
      const ds = [...deltas.values()]
      const r = await c.query<{ key: string }>(DELTAS_SQL, [this.name, ds.map((d) => d.key), ds.map((d) => JSON.stringify(d.set ?? {})),
        ds.map((d) => d.field ?? null), ds.map((d) => JSON.stringify(d.items ?? [])), ds.map((d) => d.max ?? null)])
      for (const [key] of gone(ds, r.rows)) rows.set(key, undefined)
      deltas = new Map()
    }
    for (const op of ops) {
      if (op.t === 'put') { await flushDeltas(); puts.set(op.key, op.rec); keys.add(op.key); continue }
      await flushPuts()
      if (op.t === 'delta') {
        if (deltas.has(op.key)) await flushDeltas()
        deltas.set(op.key, op)
        keys.add(op.key)
        continue
      }
      await flushDeltas()
      if (op.t === 'del') {
        await c.query('DELETE FROM lx_records WHERE store = $1 AND key = $2', [this.name, op.key])
        rows.delete(op.key)
        keys.add(op.key)
      } else if (op.t === 'meta') {
        await c.query(`INSERT INTO lx_store_meta (store, value) VALUES ($1, $2::jsonb)
          ON CONFLICT (store) DO UPDATE SET value = lx_store_meta.value || excluded.value`, [this.name, JSON.stringify(op.patch)])
        meta = true
      } else {
        await c.query('DELETE FROM lx_records WHERE store = $1', [this.name])
        rows.clear()
        all = true
      }
    }
    await flushPuts()
    await flushDeltas()
    const notices: Notice[] = []
    const base = { instance: this.instanceId, store: this.name }
    if (all || keys.size > NOTICE_KEYS_MAX || [...keys].some((k) => k.length > MAX_KEY_IN_NOTICE)) notices.push({ ...base, kind: 'a', key: '' })
    else for (const key of keys) notices.push({ ...base, kind: 'k', key })
    if (meta) notices.push({ ...base, kind: 'm', key: '' })
    if (notices.length) await c.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [CHANNEL, notices.map(encodeNotice)])
    return rows
  }

  private notice (n: Notice): void {
    if (n.instance === this.instanceId || this.closed) return
    this.remote(n.kind === 'a' ? { all: true } : n.kind === 'm' ? { meta: true } : { key: n.key })
  }

  /** Queues a re-read of what another instance changed; several notices in a row are one read. */
  private remote (what: { all?: true; meta?: true; key?: string }): void {
    if (what.all) { this.remoteAll = true; this.remoteMeta = true }
    if (what.meta) this.remoteMeta = true
    if (what.key !== undefined) this.remoteKeys.add(what.key)
    if (this.remoteScheduled || this.closed) return
    this.remoteScheduled = true
    // on the chain: the rows are read after this instance's own writes queued so far are committed
    this.chain = this.chain.then(() => this.reread()).catch((err: unknown) => {
      this.opts.log?.warn(`Could not read another instance's change of ${this.name}: ${(err as Error).message}`)
    })
  }

  private async reread (): Promise<void> {
    this.remoteScheduled = false
    const all = this.remoteAll
    const meta = this.remoteMeta
    const keys = [...this.remoteKeys]
    this.remoteAll = false
    this.remoteMeta = false
    this.remoteKeys.clear()
    if (meta) await this.loadMeta(this.pool)
    if (all) {
      const seen = new Set<string>()
      await this.readAll(this.pool, (key, value) => { seen.add(key); this.applyRemote(key, value) })
      for (const key of [...this.records.keys()]) if (!seen.has(key)) this.applyRemote(key, undefined)
      return
    }
    if (keys.length === 0) return
    const { rows } = await this.pool.query<{ key: string; value: R }>('SELECT key, value FROM lx_records WHERE store = $1 AND key = ANY($2::text[])', [this.name, keys])
    const found = new Map(rows.map((r) => [r.key, r.value]))
    for (const key of keys) this.applyRemote(key, found.get(key))
  }

  private applyRemote (key: string, value: R | undefined): void {
    if (this.unsaved.has(key)) return // this instance's own newer change lands after (and brings the row back)
    const old = this.records.get(key)
    if (value === undefined) {
      if (!old) return
      this.records.delete(key)
    } else {
      if (old && JSON.stringify(old) === JSON.stringify(value)) return
      this.records.set(key, value)
    }
    const k = this.opts.key((value ?? old) as R)
    for (const l of this.listeners) {
      try { l(k, value) } catch (err) { this.opts.log?.error(`A change listener of ${this.name} failed`, {}, err) }
    }
  }

  private async loadAll (pool: Pool): Promise<void> {
    await this.readAll(pool, (key, value) => { this.records.set(key, value) })
    await this.loadMeta(pool)
  }

  /**
   * Every row of the store, a page of READ_PAGE at a time in key order: a million memories never arrive as
   * one result (the client holds a whole result in memory: a start or a migration of that size ran out of heap).
   */
  private async readAll (pool: Pool, each: (key: string, value: R) => void): Promise<void> {
    let after: string | null = null
    for (;;) {
      const { rows }: { rows: Array<{ key: string; value: R }> } = await pool.query<{ key: string; value: R }>(
        'SELECT key, value FROM lx_records WHERE store = $1 AND ($2::text IS NULL OR key > $2) ORDER BY key LIMIT $3', [this.name, after, READ_PAGE])
      for (const row of rows) each(row.key, row.value)
      if (rows.length < READ_PAGE) return
      after = rows[rows.length - 1]!.key
    }
  }

  private async loadMeta (pool: Pool): Promise<void> {
    const { rows } = await pool.query<{ value: Partial<M> }>('SELECT value FROM lx_store_meta WHERE store = $1', [this.name])
    this.currentMeta = { ...(this.opts.meta ?? {}), ...(rows[0]?.value ?? {}) } as M
  }
}

// A delta done by the database: fields set ($3), then the list $4 (as it was) extended by $5 and trimmed
// to its last $6 items, exactly as JournalStore applies one. No row: nothing (the record is gone).
/** Takes $3 numbers from the meta counter $2 of store $1 (1 when unset); answers the first. */
const RESERVE_SQL = `
  INSERT INTO lx_store_meta AS m (store, value) VALUES ($1, jsonb_build_object($2::text, 1 + $3::bigint))
  ON CONFLICT (store) DO UPDATE
    SET value = m.value || jsonb_build_object($2::text, greatest(coalesce((m.value->>$2::text)::bigint, 1), 1) + $3::bigint)
  RETURNING (value->>$2::text)::bigint - $3::bigint AS first`

/**
 * The records of `ds` whose rows were not there to change (another instance deleted them): gone here too.
 * The changed rows are not read back: this copy applied the same change, and a change another instance
 * made meanwhile arrives by its notice, re-read after this write (lib/storage/README.md).
 */
function gone<R> (ds: Array<{ key: string }>, changed: Array<{ key: string }>): Map<string, R | undefined> {
  const found = new Set(changed.map((row) => row.key))
  return new Map(ds.filter((d) => !found.has(d.key)).map((d) => [d.key, undefined]))
}

/** Records written whole ($2 keys, $3 values). */
const PUTS_SQL = `INSERT INTO lx_records AS r (store, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::jsonb[]) AS t(k, v)
  ON CONFLICT (store, key) DO UPDATE SET value = excluded.value, updated_at = now()`

/**
 * The deltas of several records in one statement (arrays $2..$6, one element per record): fields set
 * ($3), items appended to the list field ($4, $5; none when null) keeping its last $6 (all when null).
 */
const DELTAS_SQL = `
UPDATE lx_records r SET updated_at = now(), value = CASE WHEN t.field IS NULL THEN r.value || t.set ELSE
  r.value || t.set || jsonb_build_object(t.field, (
    SELECT coalesce(jsonb_agg(e ORDER BY i), '[]'::jsonb) FROM (
      SELECT e, i, count(*) OVER () AS n FROM jsonb_array_elements(
        CASE WHEN jsonb_typeof(r.value -> t.field) = 'array' THEN r.value -> t.field ELSE '[]'::jsonb END || t.items
      ) WITH ORDINALITY AS x(e, i)
    ) y WHERE t.max IS NULL OR i > n - t.max))
  END
FROM unnest($2::text[], $3::jsonb[], $4::text[], $5::jsonb[], $6::int[]) AS t(key, set, field, items, max)
WHERE r.store = $1 AND r.key = t.key
RETURNING r.key`
