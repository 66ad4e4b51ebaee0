// The memory store: records in a JournalStore (`memories.json` + journal), a per-user
// id index and running totals (counts by category and by user, each user's last update) kept on every
// write, so stats and the users list cost what they return, and a BM25 index for search partitioned by
// user. The index is built in the background at start in slices of a few milliseconds; a search issued
// before it is complete never waits for it: a user's search scores that user's records directly (the
// user's share, bounded), any other answers from what is indexed so far. Both HTTP variants, the chat
// contributor, background extraction and the bot command all go through this class.
// Opened through the storage port (lib/storage/open.ts): the files of the data folder, or PostgreSQL shared
// with other instances, whose changes arrive through onRemote and update every derived state here.
import { badRequest, notFound } from '../core/errors.js'
import type { Clock } from '../core/clock.js'
import { JournalStore } from '../core/journal-store.js'
import { Listeners } from '../core/listeners.js'
import { RecencyOrder } from '../core/recency-order.js'
import type { PluginLogger } from '../core/logger.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import { Bm25Index } from '../search/bm25.js'
import { revised } from './history.js'
import { IdSet } from './id-set.js'
import { type MemoryUse, usableIn } from './scope.js'
import { SAME_FACT, similarity } from './similar.js'
import type { MemoryVectors } from './vectors.js'
import {
  CATEGORIES, MAX_CONTENT, type MemoryCategory, type MemoryHit, type MemoryPatch, type MemoryQuery,
  type MemoryRecord, type MemoryStats, type NewMemory, type UserEntry
} from './types.js'

interface Meta { nextId: number }
export interface CleanupResult { removed: number; remaining: number; reasons: { lowConfidence: number; expired: number; tooOld: number; tooShort: number } }
export interface MergeResult { merged: number; remaining: number }

// Cleanup thresholds: what counts as a low-quality memory (documented in lib/memory/README.md).
const CLEANUP = { minConfidence: 0.3, maxAgeDays: 365, oldKeepsConfidence: 0.8, minChars: 2 }
const DAY = 86_400_000

const emptyByCategory = (): Record<MemoryCategory, number> =>
  Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>

/** Hits each retriever gives a hybrid search at least (README, "Recall by meaning"). */
const POOL = 20

/** Records a search scores directly while the index is still being built (one user's share, ~10 ms at most). */
const SCAN_LIMIT = 2_000

interface UserTotals { count: number; lastUpdate: number; byCategory: Record<MemoryCategory, number> }

/**
 * The one `metadata` object of every record without metadata (most of them): a parsed `{}` per record
 * costs ~56 bytes, 56 MB at a million memories. Frozen: a shared object must never be written to.
 */
const NO_METADATA: Record<string, unknown> = Object.freeze({})
function sharedMetadata (m: Record<string, unknown> | undefined): Record<string, unknown> {
  if (m === undefined) return NO_METADATA
  if (m === null || typeof m !== 'object' || Object.getPrototypeOf(m) !== Object.prototype) return m // as stored
  for (const key in m) if (key !== '') return m // (a loop: no array of keys per record at load)
  return Object.getOwnPropertyNames(m).length === 0 && Object.getOwnPropertySymbols(m).length === 0 ? NO_METADATA : m
}

export class MemoryService {
  private readonly byUser = new Map<string, IdSet>()
  /** live ids per group (records with a groupId): a group's list reads its share, not the store */
  private readonly byGroup = new Map<string, IdSet>()
  private readonly totals = new Map<string, UserTotals>()
  /** soft-deleted ids per user (erased by a hard clearUser) */
  private readonly softDeleted = new Map<string, Set<number>>()
  private readonly byCategory = emptyByCategory()
  /** live ids by review state (lib/memory/README.md, "Review"): the queue and its counts read these, never every record */
  private readonly byState = new Map<ReviewState, Set<number>>([['pending', new Set()], ['superseded', new Set()], ['confirmed', new Set()]])
  private liveCount = 0
  private usersCache: UserEntry[] | undefined
  /** users by their newest memory's time, kept on write (built once the store is loaded) */
  private userOrder: RecencyOrder<string> | undefined
  private readonly index = new Bm25Index<number>()
  private readonly indexReady: Promise<void>
  private indexed = false
  /**
   * Shared store only: the record each id's derived state was computed from. onRemote hands the new record
   * once the old one is gone from the store, and unlinking needs the old user, group, category and time.
   * (A reference per record; the embedded store has no remote changes and keeps none.)
   */
  private readonly derivedFrom: Map<number, MemoryRecord> | undefined
  /** the memories' vectors (README, "Recall by meaning"): set with knowledge.embedding */
  private vectors: MemoryVectors | undefined

  private constructor (
    private readonly store: RecordStore<MemoryRecord, number, Meta>,
    private readonly clock: Clock,
    private readonly log: PluginLogger
  ) {
    this.derivedFrom = store instanceof JournalStore ? undefined : new Map()
    let maxId = 0
    for (const r of store.values()) {
      r.metadata = sharedMetadata(r.metadata) // the store's own objects: compacted in place, as loaded
      this.derivedFrom?.set(r.id, r)
      if (r.deleted) this.hide(r, true)
      else this.link(r)
      if (r.id > maxId) maxId = r.id
    }
    // the index's arrays sized for what the build adds, with some room for the memories written next:
    // grown by doubling mid-build they were copied all at once (lib/search/bm25.ts `reserve`)
    const room = (n: number): number => Math.ceil(n * 1.1) + 1024
    this.index.reserve(room(this.liveCount), { partitions: room(this.byUser.size), maxId: room(maxId) })
    this.userOrder = new RecencyOrder([...this.totals].map(([userId, t]) => [userId, t.lastUpdate]))
    // partitioned by user: a search for one user's memories skips everybody else's. Records written
    // meanwhile are indexed by the write itself (and skipped here).
    const index = this.index
    const live = (function * (s: RecordStore<MemoryRecord, number, Meta>): Generator<[number, string, string]> {
      for (const r of s.values()) if (!r.deleted && !index.has(r.id)) yield [r.id, r.content, r.userId]
    })(store)
    this.indexReady = this.index.addManyAsync(live)
      .catch((err: unknown) => { log.error('Building the memory search index failed', {}, err) })
      .finally(() => { this.indexed = true })
    store.onRemote((id, r) => { this.remoteChange(id, r) })
  }

  /** The store of one file (tests, benches); the plugin opens `openShared`. */
  static async open (file: string, deps: { clock: Clock; log: PluginLogger }): Promise<MemoryService> {
    const store = await JournalStore.open<MemoryRecord, number, Meta>(file, { ...storeOptions(), log: deps.log, now: () => deps.clock.now() })
    return new MemoryService(store, deps.clock, deps.log)
  }

  /** The store `memories` on the port: `<dataDir>/memories.json` as before, or PostgreSQL when set. */
  static async openShared (deps: RecordsDeps & { clock: Clock }): Promise<MemoryService> {
    const store = await openRecords<MemoryRecord, number, Meta>(deps, 'memories', storeOptions())
    return new MemoryService(store, deps.clock, deps.log)
  }

  // Another instance added, changed or erased a memory (the store already holds the new state): undo what
  // was derived from the old record, then derive from the new one, as a local write does.
  private remoteChange (id: number, r: MemoryRecord | undefined): void {
    const known = this.derivedFrom
    if (!known) return
    const old = known.get(id)
    if (old) {
      if (old.deleted) this.hide(old, false)
      else this.unlink(old)
      this.index.remove(id, old.content)
    }
    if (!r || r.deleted) this.vectors?.removed(id)
    else this.vectors?.changed(r)
    if (!r) { known.delete(id); return }
    r.metadata = sharedMetadata(r.metadata)
    known.set(id, r)
    if (r.deleted) this.hide(r, true)
    else {
      this.link(r)
      this.index.add(id, r.content, r.userId)
    }
  }

  /** Makes the answering searches hybrid (README, "Recall by meaning"); every write keeps the vectors in step. */
  useVectors (v: MemoryVectors): void { this.vectors = v }
  /** The memories' vectors (undefined: no knowledge domain): their status and `whenIdle`. */
  get meaning (): MemoryVectors | undefined { return this.vectors }

  /** Every live memory (the vectors' start-up check). */
  liveRecords (): Iterable<MemoryRecord> { return this.candidates(undefined) }

  /** Calls `listener` after another instance's change of a memory is applied here (undefined: erased). */
  onRemote (listener: (id: number, r: MemoryRecord | undefined) => void): () => void { return this.store.onRemote(listener) }

  /** Resolves once the search index holds every record present at start (searches never wait for it). */
  ready (): Promise<void> { return this.indexReady }
  /** The search index holds every record. */
  get indexComplete (): boolean { return this.indexed }
  close (): Promise<void> { return this.store.close() }

  get (id: number): MemoryRecord | undefined {
    const r = this.store.get(id)
    return r && !r.deleted ? r : undefined
  }

  mustGet (id: number): MemoryRecord {
    const r = this.get(id)
    if (!r) throw notFound('Memory not found')
    return r
  }

  /** Live records of a user (or everyone), newest first. */
  list (q: MemoryQuery = {}): MemoryRecord[] {
    const out: MemoryRecord[] = []
    for (const r of this.candidates(q.userId, q.groupId)) {
      if (q.userId !== undefined && r.userId !== q.userId) continue
      if (q.groupId !== undefined && r.groupId !== q.groupId) continue
      if (q.category && r.category !== q.category) continue
      out.push(r)
    }
    out.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id)
    return q.limit !== undefined ? out.slice(0, q.limit) : out
  }

  async add (input: NewMemory): Promise<MemoryRecord> {
    const now = this.clock.now()
    // reserved from the shared counter: two instances adding at once take different ids; an id held by a
    // record written without the counter (an older copy) is skipped, never written over
    let id = await this.store.reserve('nextId')
    while (this.store.has(id)) id = await this.store.reserve('nextId')
    const rec: MemoryRecord = {
      id,
      userId: input.userId,
      content: checkContent(input.content),
      category: input.category ?? 'custom',
      subType: input.subType ?? '',
      confidence: clamp01(input.confidence ?? 0.9),
      groupId: input.groupId ?? '',
      metadata: sharedMetadata(input.metadata),
      source: input.source ?? 'manual',
      createdAt: now,
      updatedAt: now,
      ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
      origin: input.origin ?? { kind: 'manual', chat: 'api', at: now },
      ...(input.status !== undefined ? { status: input.status } : {})
    }
    if (!rec.userId) throw badRequest('userId is required')
    const written = this.store.put(rec)
    this.derivedFrom?.set(id, rec)
    this.link(rec)
    this.index.add(rec.id, rec.content, rec.userId)
    this.vectors?.changed(rec)
    await written
    return rec
  }

  async update (id: number, patch: MemoryPatch): Promise<MemoryRecord> {
    const old = this.mustGet(id)
    const next: MemoryRecord = { ...old, ...patch, updatedAt: this.clock.now() }
    if (patch.content !== undefined) next.content = checkContent(patch.content)
    // an edit of the text or category through the API keeps the earlier state (lib/memory/history.ts);
    // the review's own changes bring their history entry
    if (patch.history === undefined && (next.content !== old.content || next.category !== old.category)) next.history = revised(old, 'api', 'edited', next.updatedAt)
    if (patch.confidence !== undefined) next.confidence = clamp01(patch.confidence)
    next.metadata = sharedMetadata(next.metadata)
    if (!next.userId) throw badRequest('userId must not be empty')
    await this.replace(old, next)
    return next
  }

  /** Soft delete keeps the record on disk, hidden; hard delete removes it. */
  async remove (id: number, hard: boolean): Promise<void> {
    const r = this.store.get(id)
    if (!r || (r.deleted && !hard)) throw notFound('Memory not found')
    if (hard) await this.erase(r)
    else {
      await this.replace(r, { ...r, deleted: true, deletedAt: this.clock.now() })
    }
  }

  /** Deletes every memory of a user; hard also erases soft-deleted ones. Answers how many were live. */
  async clearUser (userId: string, hard: boolean): Promise<number> {
    // the user's share only: live ids, and the soft-deleted ones when erasing
    const ids = [...(this.byUser.get(userId) ?? []), ...(hard ? this.softDeleted.get(userId) ?? [] : [])]
    const all = ids.map((id) => this.store.get(id)).filter((r): r is MemoryRecord => r !== undefined)
    const live = all.filter((r) => !r.deleted).length
    await Promise.all(all.map((r) => hard ? this.erase(r) : this.remove(r.id, false)))
    return live
  }

  /** Users with live memories, most recently updated first (from the running totals; cached between writes). */
  users (): UserEntry[] {
    this.usersCache ??= this.userEntries(this.userOrder?.newest() ?? [])
    return this.usersCache.slice()
  }

  /** One page of users(), without building the others, and the number of users. */
  usersPage (offset: number, limit: number): { items: UserEntry[]; total: number } {
    if (this.usersCache) return { items: this.usersCache.slice(offset, offset + limit), total: this.usersCache.length }
    return { items: this.userEntries(this.userOrder?.page(offset, limit) ?? []), total: this.totals.size }
  }

  private userEntries (ids: Iterable<string>): UserEntry[] {
    const out: UserEntry[] = []
    for (const userId of ids) {
      const t = this.totals.get(userId)
      // frozen: the cached entries are handed out as they are
      if (t) out.push(Object.freeze({ userId, count: t.count, lastUpdate: t.lastUpdate, categories: Object.freeze(CATEGORIES.filter((c) => t.byCategory[c] > 0)) as MemoryCategory[] }))
    }
    return out
  }

  /** The live memories in a review state, oldest first (at most `limit`). */
  inState (state: ReviewState, limit = Infinity): MemoryRecord[] {
    const out: MemoryRecord[] = []
    for (const id of this.byState.get(state)!) { const r = this.store.get(id); if (r && !r.deleted) out.push(r) }
    out.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)
    return out.slice(0, limit)
  }

  /** How many live memories are in each review state. */
  stateCounts (): Record<ReviewState, number> {
    return { pending: this.byState.get('pending')!.size, superseded: this.byState.get('superseded')!.size, confirmed: this.byState.get('confirmed')!.size }
  }

  stats (): MemoryStats {
    return { total: this.liveCount, users: this.totals.size, byCategory: { ...this.byCategory } }
  }

  private readonly presence = new Listeners<[userId: string]>()
  /** Calls `fn` when a user gets a first live memory or loses the last (search_memory is offered to users with one). */
  onPresenceChange (fn: (userId: string) => void): () => void { return this.presence.add(fn) }

  /** Whether the user has a live memory (the running totals: O(1), asked on every chat turn). */
  hasMemories (userId: string): boolean { return (this.totals.get(userId)?.count ?? 0) > 0 }

  userStats (userId: string): { total: number; byCategory: Record<MemoryCategory, number> } {
    const byCategory = emptyByCategory()
    const list = this.list({ userId })
    for (const r of list) byCategory[r.category]++
    return { total: list.length, byCategory }
  }

  /**
   * BM25 over contents, filtered by user/group/category; best first. With `use`, only the memories that
   * may answer there (lib/memory/scope.ts): what the prompt and the search_memory tool ask. Those, for one
   * user, are hybrid when the memories have vectors (README, "Recall by meaning"): the nearest usable
   * memories by meaning fused with the BM25 hits, the score the fused one.
   */
  async search (q: { query: string; userId?: string; groupId?: string; category?: MemoryCategory; limit?: number; use?: MemoryUse }): Promise<MemoryHit[]> {
    const now = this.clock.now()
    const limit = q.limit ?? 20
    const filter = (id: number): boolean => {
      const r = this.store.get(id)
      return r !== undefined && !r.deleted && (q.userId === undefined || r.userId === q.userId) &&
        (q.groupId === undefined || r.groupId === q.groupId) && (!q.category || r.category === q.category) &&
        (r.expiresAt === undefined || r.expiresAt > now) && (q.use === undefined || usableIn(r, q.use))
    }
    const hybrid = this.vectors !== undefined && q.use !== undefined && q.userId !== undefined && q.query.trim() !== ''
    // still building: a user's records are scored on their own (a small index of that user's share)
    const scan = !this.indexed && q.userId !== undefined && (this.byUser.get(q.userId)?.size ?? 0) <= SCAN_LIMIT
    const index = scan ? this.userIndex(q.userId!) : this.index
    const hits = index.search(q.query, { limit: hybrid ? Math.max(limit, POOL) : limit, ...(q.userId !== undefined ? { partition: q.userId } : {}), filter })
    const meaning = hybrid ? await this.vectors!.query(q.query, q.userId!, () => this.usableIds(q.userId!, filter), Math.max(limit, POOL)) : undefined
    const out: MemoryHit[] = []
    if (!meaning) {
      for (const h of hits.slice(0, limit)) {
        const r = this.store.get(h.id)
        if (r) out.push({ ...r, score: Math.round(h.score * 1000) / 1000 })
      }
      return out
    }
    // the scope rule again after the wait for the vector: a memory deleted meanwhile is not answered
    for (const h of this.vectors!.fuse(hits.map((h) => ({ docId: String(h.id), n: 0, score: h.score })), meaning)) {
      const id = Number(h.docId)
      const r = this.store.get(id)
      if (r && filter(id)) out.push({ ...r, score: Math.round(h.score * 1e6) / 1e6 })
      if (out.length >= limit) break
    }
    return out
  }

  /** The ids (as the vector index keys them) of a user's live memories that pass `filter`. */
  private usableIds (userId: string, filter: (id: number) => boolean): Set<string> {
    const out = new Set<string>()
    for (const id of this.byUser.get(userId) ?? []) if (filter(id)) out.add(String(id))
    return out
  }

  /** A throwaway index of one user's live records (searches while the main index is being built). */
  private userIndex (userId: string): Bm25Index<number> {
    const idx = new Bm25Index<number>()
    for (const r of this.candidates(userId)) idx.add(r.id, r.content, r.userId)
    return idx
  }

  /** Removes a user's low-quality memories (no model): low confidence, expired, too old, too short. */
  async cleanup (userId: string): Promise<CleanupResult> {
    const now = this.clock.now()
    const reasons = { lowConfidence: 0, expired: 0, tooOld: 0, tooShort: 0 }
    const doomed: MemoryRecord[] = []
    for (const r of this.list({ userId })) {
      const reason = r.expiresAt !== undefined && r.expiresAt <= now ? 'expired'
        : r.confidence < CLEANUP.minConfidence ? 'lowConfidence'
          : [...r.content.trim()].length < CLEANUP.minChars ? 'tooShort'
            : now - r.updatedAt > CLEANUP.maxAgeDays * DAY && r.confidence < CLEANUP.oldKeepsConfidence ? 'tooOld'
              : undefined
      if (reason) { reasons[reason]++; doomed.push(r) }
    }
    await Promise.all(doomed.map((r) => this.remove(r.id, true)))
    return { removed: doomed.length, remaining: this.list({ userId }).length, reasons }
  }

  /** Folds near-duplicates of the same category into one record (newest text kept, highest confidence). */
  async merge (userId: string, groupId?: string): Promise<MergeResult> {
    const list = this.list({ userId, ...(groupId !== undefined ? { groupId } : {}) })
    const kept: MemoryRecord[] = []
    const merges = new Map<number, MemoryRecord[]>()
    for (const r of list) { // newest first: the first of a family is kept
      const same = kept.find((k) => k.category === r.category && similarity(k.content, r.content) >= SAME_FACT)
      if (same) merges.get(same.id)?.push(r)
      else { kept.push(r); merges.set(r.id, []) }
    }
    let merged = 0
    for (const k of kept) {
      const dupes = merges.get(k.id) ?? []
      if (dupes.length === 0) continue
      const longest = [k, ...dupes].reduce((a, b) => [...b.content].length > [...a.content].length ? b : a)
      await this.update(k.id, {
        content: longest.content,
        confidence: Math.max(k.confidence, ...dupes.map((d) => d.confidence)),
        // spread, not Object.assign: a stored `__proto__` key stays a key instead of hitting the setter
        metadata: { ...dupes.map((d) => d.metadata).reverse().reduce<Record<string, unknown>>((acc, m) => ({ ...acc, ...m }), {}), ...k.metadata, mergedFrom: dupes.map((d) => d.id) }
      })
      for (const d of dupes) await this.remove(d.id, true)
      merged += dupes.length
    }
    return { merged, remaining: this.list({ userId }).length }
  }

  /** The existing record stating the same fact for this user and category, if any. */
  findSame (userId: string, category: MemoryCategory, content: string): MemoryRecord | undefined {
    let best: MemoryRecord | undefined
    let bestScore = SAME_FACT
    for (const r of this.candidates(userId)) {
      if (r.category !== category) continue
      const s = similarity(r.content, content)
      if (s >= bestScore) { best = r; bestScore = s }
    }
    return best
  }

  private * candidates (userId: string | undefined, groupId?: string): Generator<MemoryRecord> {
    // the smaller of the user's and the group's share (a group '' = private records: not indexed)
    const user = userId !== undefined ? this.byUser.get(userId) ?? new IdSet() : undefined
    const group = groupId ? this.byGroup.get(groupId) ?? new IdSet() : undefined
    const ids = user && group ? (group.size < user.size ? group : user) : user ?? group
    if (ids === undefined) {
      for (const r of this.store.values()) if (!r.deleted) yield r
      return
    }
    for (const id of ids) {
      const r = this.store.get(id)
      if (r && !r.deleted) yield r
    }
  }

  private async replace (old: MemoryRecord, next: MemoryRecord): Promise<void> {
    if (!old.deleted) this.unlink(old)
    const written = this.store.put(next)
    this.derivedFrom?.set(next.id, next)
    if (next.deleted) {
      this.hide(next, true)
      this.index.remove(next.id, old.content)
      this.vectors?.removed(next.id)
    }
    else {
      this.link(next)
      // (a record the start-up build has not reached yet is indexed here; the build skips it)
      if (next.content !== old.content || next.userId !== old.userId || !this.index.has(next.id)) {
        this.index.remove(next.id, old.content)
        this.index.add(next.id, next.content, next.userId)
        this.vectors?.changed(next)
      }
    }
    await written
  }

  /** Tracks (or forgets) a soft-deleted record under its user. */
  private hide (r: MemoryRecord, on: boolean): void {
    let ids = this.softDeleted.get(r.userId)
    if (on) {
      if (!ids) this.softDeleted.set(r.userId, (ids = new Set()))
      ids.add(r.id)
    } else if (ids?.delete(r.id) && ids.size === 0) this.softDeleted.delete(r.userId)
  }

  /** Adds a live record to the per-user ids and the running totals. */
  private link (r: MemoryRecord): void {
    let ids = this.byUser.get(r.userId)
    if (!ids) this.byUser.set(r.userId, (ids = new IdSet()))
    if (ids.has(r.id)) return
    ids.add(r.id)
    if (r.groupId) {
      let g = this.byGroup.get(r.groupId)
      if (!g) this.byGroup.set(r.groupId, (g = new IdSet()))
      g.add(r.id)
    }
    let t = this.totals.get(r.userId)
    const first = !t
    if (!t) this.totals.set(r.userId, (t = { count: 0, lastUpdate: 0, byCategory: emptyByCategory() }))
    t.count++
    t.byCategory[r.category]++
    if (r.updatedAt > t.lastUpdate) t.lastUpdate = r.updatedAt
    this.userOrder?.set(r.userId, t.lastUpdate)
    this.byCategory[r.category]++
    const state = reviewStateOf(r)
    if (state) this.byState.get(state)!.add(r.id)
    this.liveCount++
    this.usersCache = undefined
    if (first) this.presence.emit(r.userId)
  }

  private unlink (r: MemoryRecord): void {
    const ids = this.byUser.get(r.userId)
    if (!ids?.delete(r.id)) return
    const g = r.groupId ? this.byGroup.get(r.groupId) : undefined
    if (g?.delete(r.id) && g.size === 0) this.byGroup.delete(r.groupId)
    this.byCategory[r.category]--
    const state = reviewStateOf(r)
    if (state) this.byState.get(state)!.delete(r.id)
    this.liveCount--
    this.usersCache = undefined
    const t = this.totals.get(r.userId)!
    t.count--
    t.byCategory[r.category]--
    if (ids.size === 0) {
      this.byUser.delete(r.userId)
      this.totals.delete(r.userId)
      this.userOrder?.delete(r.userId)
      this.presence.emit(r.userId)
    } else if (r.updatedAt >= t.lastUpdate) { // the newest went: recount over this user's share
      t.lastUpdate = 0
      for (const id of ids) t.lastUpdate = Math.max(t.lastUpdate, this.store.get(id)?.updatedAt ?? 0)
      this.userOrder?.set(r.userId, t.lastUpdate)
    }
  }

  private async erase (r: MemoryRecord): Promise<void> {
    if (!r.deleted) this.unlink(r)
    else this.hide(r, false)
    this.index.remove(r.id, r.content)
    this.vectors?.removed(r.id)
    this.derivedFrom?.delete(r.id)
    await this.store.delete(r.id)
  }
}

function checkContent (s: string): string {
  const c = s.trim()
  if (!c) throw badRequest('content is required')
  if (c.length > MAX_CONTENT) throw badRequest(`content is longer than ${MAX_CONTENT} characters`)
  return c
}

// a fresh object per store: a store may keep its `meta` default as its own meta object
const storeOptions = (): { key: (r: MemoryRecord) => number; meta: Meta; revive: (r: MemoryRecord) => MemoryRecord } => ({
  key: (r) => r.id,
  meta: { nextId: 1 },
  revive: (r) => { r.metadata = sharedMetadata(r.metadata); return r }
})

const clamp01 = (n: number): number => Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.5

/** pending and superseded: the record's status; confirmed: in use after a confirmation in its history. */
export type ReviewState = 'pending' | 'superseded' | 'confirmed'
function reviewStateOf (r: MemoryRecord): ReviewState | undefined {
  if (r.status !== undefined) return r.status
  return r.history?.some((h) => h.what === 'confirmed') ? 'confirmed' : undefined
}
