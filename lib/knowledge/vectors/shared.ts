// The passage vectors in PostgreSQL, shared by every instance (lib/knowledge/README.md, "Several
// instances"). Each document's vectors are one record of the store `knowledge-vectors` on the port
// (lib/storage/README.md: every instance holds them in memory and hears another's change by notice), with
// the model key they were made with. Without pgvector the record holds the int8 values and scales the
// index holds (base64), and every instance searches its embedded index; with pgvector (the table
// lx_knowledge_vectors of migration 004, made only where the extension is available) the record holds the
// fingerprint only, the vectors are rows with a vector column and an HNSW index, and the search asks the
// database. Who embeds a document is decided by a claim row (lx_knowledge_claims), so it is embedded once.
// The meta (model, dimensions, batch size learned) stays in this instance's data folder: each instance
// reads its own config.
import { randomUUID } from 'node:crypto'
import type { Pool } from 'pg'
import type { PluginLogger } from '../../core/logger.js'
import { openRecords, type RecordsDeps } from '../../storage/open.js'
import { acquirePool, releasePool } from '../../storage/pg/pool.js'
import type { RecordStore } from '../../storage/records.js'
import { databaseUrl } from '../../storage/settings.js'
import type { HeldMeta, VectorBackend } from './backend.js'
import { VectorFile } from './file.js'
import { enablePgvector, PgVectorTable, pgvectorState } from './pgvector.js'
import type { DocVectors, VectorHit } from './store.js'

/** A claim younger than this keeps the other instances from embedding the document (its maker may have died). */
const CLAIM_LEASE_SECONDS = 300

/** One document's vectors as a record (values and scales absent when pgvector holds them). */
export interface VectorRecord { docId: string; key: string; presetId: string; fingerprint: string; count: number; values?: string; scales?: string }

const b64 = (a: Int8Array | Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')
function fromB64<T extends Int8Array | Float32Array> (s: string, make: (n: number) => T, bytesEach: number): T {
  const buf = Buffer.from(s, 'base64')
  const out = make(buf.length / bytesEach)
  Buffer.from(out.buffer).set(buf)
  return out
}

const STORE = 'knowledge-vectors'

/**
 * The store holds every record in memory (lib/storage/README.md): once decoded into the index (or written,
 * committed), a record keeps its fingerprint and model only, not a second copy of the vectors.
 */
function strip (r: VectorRecord): void {
  delete r.values
  delete r.scales
}

export const PGVECTOR_MISSING = 'PostgreSQL records (pgvector not installed: vectors in the embedded index)'
export const PGVECTOR_IN_USE = 'PostgreSQL with pgvector (table lx_knowledge_vectors, HNSW index)'

export class SharedVectors implements VectorBackend {
  readonly where: string
  private closed = false

  private constructor (
    private readonly records: RecordStore<VectorRecord, string>,
    private readonly pool: Pool,
    private readonly url: string,
    private readonly metaFile: VectorFile,
    private readonly table: PgVectorTable | undefined,
    private readonly log: PluginLogger
  ) {
    this.where = table ? PGVECTOR_IN_USE : PGVECTOR_MISSING
  }

  /** This process's id in the claims. */
  private readonly holder = randomUUID()

  static async open (rt: RecordsDeps, files: { file: string; metaFile: string }): Promise<SharedVectors> {
    const url = databaseUrl(rt.env ?? process.env, rt.config.get().storage)
    if (!url) throw new Error('Shared knowledge vectors need a database address')
    const records = await openRecords<VectorRecord, string>(rt, STORE, { key: (r) => r.docId })
    const pool = await acquirePool(url, rt.log)
    try {
      let state = await pgvectorState(pool)
      // installed since the migration ran: enabled now where this user may (else the reason is logged)
      if (state === 'available') state = await enablePgvector(pool).catch((err: unknown) => { rt.log.warn(`Enabling pgvector failed: ${(err as Error).message}`); return state })
      rt.log.info(state === 'in-use' ? 'Knowledge vectors: PostgreSQL with pgvector' : state === 'available'
        ? 'Knowledge vectors: pgvector is installed on the server but could not be enabled in this database (CREATE EXTENSION vector was refused: run it as a superuser): vectors in the embedded index'
        : 'Knowledge vectors: pgvector not installed: vectors in the embedded index')
      const table = state === 'in-use' ? new PgVectorTable(pool, rt.log) : undefined
      return new SharedVectors(records, pool, url, new VectorFile(files.file, files.metaFile), table, rt.log)
    } catch (err) {
      await releasePool(url)
      await records.close()
      throw err
    }
  }

  async readMeta (): Promise<HeldMeta | undefined> { return await this.metaFile.readMeta() }
  writeMeta (meta: HeldMeta): Promise<void> { return this.metaFile.writeMeta(meta) }

  async load (key: string): Promise<Map<string, DocVectors>> {
    if (this.records.size === 0) return this.importLocal(key)
    const out = new Map<string, DocVectors>()
    const held = [...this.records.values()].filter((r) => r.key === key)
    const fromTable = this.table ? await this.table.read(held.map((r) => r.docId), key) : undefined
    // (records decoded before, under this model, hold no values any more: their rows are read)
    const stripped = this.table ? [] : held.filter((r) => r.values === undefined).map((r) => r.docId)
    const rows = stripped.length === 0 ? new Map<string, VectorRecord>() : await this.rows(stripped)
    for (const r of held) {
      const d = this.decode(rows.get(r.docId) ?? r, fromTable?.get(r.docId))
      if (d) out.set(r.docId, d)
      strip(r)
    }
    return out
  }

  /** The records as stored (with their values). */
  private async rows (docIds: readonly string[]): Promise<Map<string, VectorRecord>> {
    const { rows } = await this.pool.query<{ value: VectorRecord }>('SELECT value FROM lx_records WHERE store = $1 AND key = ANY($2::text[])', [STORE, docIds])
    return new Map(rows.map((r) => [r.value.docId, r.value]))
  }

  /**
   * The first instance on an empty store brings the vectors its data folder holds for this model (made
   * before the database was set; `npm run storage:migrate` copies the documents, not this log): they are
   * not paid for twice. The documents' fingerprints are checked afterwards as at every start (vectors.ts sync).
   */
  private async importLocal (key: string): Promise<Map<string, DocVectors>> {
    const meta: HeldMeta | undefined = await this.metaFile.readMeta()
    if (meta?.key !== key) return new Map()
    const local = await this.metaFile.load()
    await Promise.all([...local.values()].map((d) => this.put(d, key))) // (queued together: a few transactions)
    if (local.size > 0) this.log.info(`Knowledge vectors: ${local.size} documents' vectors brought from the data folder into PostgreSQL`)
    return local
  }

  /** The vectors the store holds for a document at this fingerprint (another instance's, arrived before its document). */
  async current (docId: string, key: string, fingerprint: string): Promise<DocVectors | undefined> {
    const r = this.records.get(docId)
    if (!r || r.key !== key || r.fingerprint !== fingerprint) return undefined
    if (this.table) return this.decode(r, (await this.table.read([docId], key)).get(docId))
    if (r.values !== undefined) return this.decode(r, undefined)
    // (the values held in memory are dropped once decoded: read the row)
    const row = (await this.rows([docId])).get(docId)
    return row && row.key === key && row.fingerprint === fingerprint ? this.decode(row, undefined) : undefined
  }

  private decode (r: VectorRecord, rows: DocVectors | undefined): DocVectors | undefined {
    if (rows) return { ...rows, presetId: r.presetId, fingerprint: r.fingerprint }
    if (r.values === undefined || r.scales === undefined) return undefined
    return { docId: r.docId, presetId: r.presetId, fingerprint: r.fingerprint, values: fromB64(r.values, (n) => new Int8Array(n), 1), scales: fromB64(r.scales, (n) => new Float32Array(n), 4) }
  }

  async put (d: DocVectors, key: string): Promise<void> {
    const rec: VectorRecord = { docId: d.docId, key, presetId: d.presetId, fingerprint: d.fingerprint, count: d.scales.length }
    // the rows first: another instance told of the record finds them
    if (this.table) await this.table.put(d, key)
    else { rec.values = b64(d.values); rec.scales = b64(d.scales) }
    await this.records.put(rec)
    strip(rec)
  }

  async delete (docId: string): Promise<void> {
    await this.records.delete(docId)
    await this.table?.delete(docId)
    await this.pool.query('DELETE FROM lx_knowledge_claims WHERE doc_id = $1', [docId])
  }

  /** Nothing: another instance may use these vectors; this one re-embeds every document and replaces them. */
  async clear (): Promise<void> {}

  async claim (docs: ReadonlyArray<{ docId: string; fingerprint: string }>, key: string): Promise<Set<string>> {
    // taken when nobody holds the document, when the holder's claim lapsed, or was for other passages or another model
    const { rows } = await this.pool.query<{ doc_id: string }>(`
      INSERT INTO lx_knowledge_claims AS c (doc_id, fingerprint, model_key, holder, claimed_at)
      SELECT d, f, $3, $4, now() FROM unnest($1::text[], $2::text[]) AS t(d, f)
      ON CONFLICT (doc_id) DO UPDATE SET fingerprint = excluded.fingerprint, model_key = excluded.model_key, holder = excluded.holder, claimed_at = now()
      WHERE c.holder = excluded.holder OR c.fingerprint <> excluded.fingerprint OR c.model_key <> excluded.model_key
        OR c.claimed_at < now() - make_interval(secs => $5)
      RETURNING doc_id`, [docs.map((d) => d.docId), docs.map((d) => d.fingerprint), key, this.holder, CLAIM_LEASE_SECONDS])
    return new Set(rows.map((r) => r.doc_id))
  }

  onRemote (fn: (docId: string, d: DocVectors | undefined, key: string | undefined) => void): void {
    this.records.onRemote((docId, r) => {
      if (!r) { fn(docId, undefined, undefined); return }
      if (!this.table) { const d = this.decode(r, undefined); strip(r); fn(docId, d, r.key); return }
      this.table.read([docId], r.key).then((rows) => {
        if (!this.closed && this.records.get(docId) === r) fn(docId, this.decode(r, rows.get(docId)), r.key)
      }, (err: unknown) => { this.log.warn(`Could not read another instance's knowledge vectors: ${(err as Error).message}`) })
    })
  }

  get search (): VectorBackend['search'] {
    const table = this.table
    return table ? (v, key, opts): Promise<VectorHit[]> => table.search(v, key, opts) : undefined
  }

  async close (): Promise<void> {
    this.closed = true
    await this.metaFile.close()
    await this.records.close()
    await releasePool(this.url)
  }
}

/** The shared vectors when the documents are in PostgreSQL. */
export function openSharedVectors (rt: RecordsDeps, files: { file: string; metaFile: string }): Promise<SharedVectors> {
  return SharedVectors.open(rt, files)
}
