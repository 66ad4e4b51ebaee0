// Knowledge bases (lib/knowledge/README.md, "Bases"): named collections of documents, held in a
// JournalStore beside the documents (`knowledge-bases.json` + journal). The default base always
// exists (written at the first open): a document without `baseId` belongs to it, so the documents
// written before bases are in it without any migration. It can be renamed, never removed.
// Which documents a base holds is the service's business (service.ts counts them per base).
// On the storage port (lib/storage/README.md): `openShared` takes the store `knowledge-bases` from
// openRecords, the same file as before, or PostgreSQL shared by every instance (nothing here is derived
// from the records, so another instance's base is listed as soon as its change is applied).
import { randomUUID } from 'node:crypto'
import { AppError, notFound } from '../core/errors.js'
import type { Clock } from '../core/clock.js'
import { JournalStore } from '../core/journal-store.js'
import type { PluginLogger } from '../core/logger.js'
import { openRecords, type RecordsDeps } from '../storage/open.js'
import type { RecordStore } from '../storage/records.js'
import { checkedBaseId, checkedBaseName, checkedDescription, checkedPresetIds } from './checks.js'
import type { KnowledgeBase } from './types.js'

export const DEFAULT_BASE = 'default'

/** The base a document belongs to (absent: the default one). */
export const baseOf = (d: { baseId?: string | undefined }): string => d.baseId || DEFAULT_BASE

export interface BaseInput { id?: string; name: string; description?: string; presetIds?: string[] }
export type BasePatch = Partial<Omit<BaseInput, 'id'>>

export class KnowledgeBases {
  private constructor (private readonly store: RecordStore<KnowledgeBase, string>, private readonly clock: Clock) {}

  /** The bases of one file (tests, benches); the plugin opens `openShared`. */
  static async open (file: string, deps: { clock: Clock; log: PluginLogger }): Promise<KnowledgeBases> {
    return KnowledgeBases.made(await JournalStore.open<KnowledgeBase, string>(file, { key: (b) => b.id, log: deps.log, now: () => deps.clock.now() }), deps.clock)
  }

  /** The store `knowledge-bases` on the port: `<dataDir>/knowledge-bases.json` as before, or PostgreSQL when set. */
  static async openShared (deps: RecordsDeps & { clock: Clock }): Promise<KnowledgeBases> {
    return KnowledgeBases.made(await openRecords<KnowledgeBase, string>(deps, 'knowledge-bases', { key: (b) => b.id }), deps.clock)
  }

  private static async made (store: RecordStore<KnowledgeBase, string>, clock: Clock): Promise<KnowledgeBases> {
    const bases = new KnowledgeBases(store, clock)
    // (two instances opening an empty database both write it: the same base, the later write wins)
    if (!store.get(DEFAULT_BASE)) {
      const at = bases.now()
      await store.put({ id: DEFAULT_BASE, name: '默认知识库', description: '', presetIds: [], createdAt: at, updatedAt: at })
    }
    return bases
  }

  private now (): string { return new Date(this.clock.now()).toISOString() }

  /** The default base first, then the others oldest first (the order they were made in). */
  list (): KnowledgeBase[] {
    return [...this.store.values()].sort((a, b) => a.id === DEFAULT_BASE ? -1 : b.id === DEFAULT_BASE ? 1 : a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
  }

  has (id: string): boolean { return this.store.get(id) !== undefined }

  /** The base, or 404 BASE_NOT_FOUND naming it. */
  get (id: string): KnowledgeBase {
    const b = this.store.get(id)
    if (!b) throw notFound(`Knowledge base not found: ${id.slice(0, 64)}`, 'BASE_NOT_FOUND')
    return b
  }

  /** The bases the chats of a preset draw on. */
  boundTo (presetId: string): string[] {
    const out: string[] = []
    for (const b of this.store.values()) if (b.presetIds.includes(presetId)) out.push(b.id)
    return out
  }

  async create (input: BaseInput): Promise<KnowledgeBase> {
    const id = input.id === undefined ? randomUUID() : checkedBaseId(input.id)
    if (this.store.get(id)) throw new AppError('CONFLICT', `A knowledge base with id ${id} exists`)
    const at = this.now()
    const base: KnowledgeBase = {
      id, name: checkedBaseName(input.name), description: checkedDescription(input.description ?? ''),
      presetIds: checkedPresetIds(input.presetIds ?? []), createdAt: at, updatedAt: at
    }
    await this.store.put(base)
    return base
  }

  async update (id: string, patch: BasePatch): Promise<KnowledgeBase> {
    const old = this.get(id)
    const next: KnowledgeBase = {
      ...old,
      ...(patch.name !== undefined ? { name: checkedBaseName(patch.name) } : {}),
      ...(patch.description !== undefined ? { description: checkedDescription(patch.description) } : {}),
      ...(patch.presetIds !== undefined ? { presetIds: checkedPresetIds(patch.presetIds) } : {}),
      updatedAt: this.now()
    }
    await this.store.put(next)
    return next
  }

  /** Removes the record only (the service removes or refuses the documents first); the default base stays. */
  async remove (id: string): Promise<void> {
    this.get(id)
    if (id === DEFAULT_BASE) throw new AppError('CONFLICT', 'The default knowledge base cannot be removed')
    await this.store.delete(id)
  }

  close (): Promise<void> { return this.store.close() }
}
