// The passage vectors in pgvector (lib/knowledge/README.md, "Several instances"): the table
// lx_knowledge_vectors of migration 004 (made only where the `vector` extension is available), one row
// per passage with its vector, and per dimension count an HNSW index on the vector cast to that size
// (pgvector indexes a column only at a fixed size; the partial index and the query use the same cast, as
// pgvector's README shows for mixed dimensions). The vectors written are the int8 ones of the in-memory
// index scaled back (within about 1% of the endpoint's, as there).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { PLUGIN_DIR } from '../../core/paths.js'
import type { PluginLogger } from '../../core/logger.js'
import type { DocVectors, VectorHit } from './store.js'
import { normalised, quantiseInto } from './quantise.js'
import { inTransaction } from '../../storage/pg/pool.js'

/** pgvector's HNSW index takes vectors of at most this many dimensions. */
const HNSW_MAX_DIMS = 2000

/** 'in-use': the extension and the table are there; 'available': installable, not installed here; 'missing': not on the server. */
export async function pgvectorState (pool: Pool): Promise<'in-use' | 'available' | 'missing'> {
  const { rows } = await pool.query<{ table: boolean; installed: boolean; available: boolean }>(`SELECT
    to_regclass('lx_knowledge_vectors') IS NOT NULL AS table,
    EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
    EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`)
  const r = rows[0]
  return r?.table && r.installed ? 'in-use' : r?.available ? 'available' : 'missing'
}

/**
 * pgvector installed on the server after this database's migration 004 ran: its statements again (they
 * are idempotent, and create the extension only where it is available); answers the state after.
 */
export async function enablePgvector (pool: Pool): Promise<'in-use' | 'available' | 'missing'> {
  await pool.query(await readFile(join(PLUGIN_DIR, 'lib', 'storage', 'pg', 'migrations', '004_knowledge_vectors.sql'), 'utf8'))
  return pgvectorState(pool)
}

const literal = (v: ArrayLike<number>): string => `[${Array.from(v, (x) => Number.isFinite(x) ? x : 0).join(',')}]`

export class PgVectorTable {
  private readonly indexed = new Set<number>()
  constructor (private readonly pool: Pool, private readonly log: PluginLogger) {}

  /** The HNSW index for vectors of `dims` (made once; the dimension is a number of ours, never input). */
  private async ensureIndex (dims: number): Promise<void> {
    if (this.indexed.has(dims) || !Number.isInteger(dims) || dims <= 0) return
    this.indexed.add(dims)
    if (dims > HNSW_MAX_DIMS) { this.log.warn(`Knowledge vectors of ${dims} dimensions: pgvector indexes at most ${HNSW_MAX_DIMS}, searches scan them`); return }
    // (two instances making it at once: one may fail; the next write tries again, the search meanwhile scans)
    await this.pool.query(`CREATE INDEX IF NOT EXISTS lx_knowledge_vectors_hnsw_${dims} ON lx_knowledge_vectors
      USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`).catch((err: unknown) => {
      this.indexed.delete(dims)
      this.log.warn(`Making the pgvector index of ${dims} dimensions failed: ${(err as Error).message}`)
    })
  }

  async put (d: DocVectors, key: string): Promise<void> {
    const count = d.scales.length
    const dims = count ? d.values.length / count : 0
    await this.ensureIndex(dims)
    const texts: string[] = []
    for (let i = 0; i < count; i++) texts.push(literal(Array.from(d.values.subarray(i * dims, (i + 1) * dims), (q) => q * d.scales[i]!)))
    await inTransaction(this.pool, async (c) => {
      await c.query('DELETE FROM lx_knowledge_vectors WHERE doc_id = $1', [d.docId])
      await c.query(`INSERT INTO lx_knowledge_vectors (doc_id, n, model_key, preset_id, dims, embedding)
        SELECT $1, n - 1, $2, $3, $4, e::vector FROM unnest($5::text[]) WITH ORDINALITY AS t(e, n)`, [d.docId, key, d.presetId, dims, texts])
    })
  }

  async delete (docId: string): Promise<void> {
    await this.pool.query('DELETE FROM lx_knowledge_vectors WHERE doc_id = $1', [docId])
  }

  /** The documents' vectors made with `key`, quantised as the in-memory index holds them. */
  async read (docIds: readonly string[], key: string): Promise<Map<string, DocVectors>> {
    const out = new Map<string, DocVectors>()
    if (docIds.length === 0) return out
    const { rows } = await this.pool.query<{ doc_id: string; preset_id: string; dims: number; e: string }>(
      'SELECT doc_id, preset_id, dims, embedding::text AS e FROM lx_knowledge_vectors WHERE doc_id = ANY($1::text[]) AND model_key = $2 ORDER BY doc_id, n',
      [docIds, key])
    const byDoc = new Map<string, Array<{ preset: string; dims: number; v: number[] }>>()
    for (const r of rows) {
      let list = byDoc.get(r.doc_id)
      if (!list) byDoc.set(r.doc_id, (list = []))
      list.push({ preset: r.preset_id, dims: r.dims, v: JSON.parse(r.e) as number[] })
    }
    for (const [docId, list] of byDoc) {
      const dims = list[0]!.dims
      const values = new Int8Array(list.length * dims)
      const scales = new Float32Array(list.length)
      list.forEach((p, i) => { scales[i] = quantiseInto(normalised(p.v), values, i * dims) })
      out.set(docId, { docId, presetId: list[0]!.preset, fingerprint: '', values, scales })
    }
    return out
  }

  /** The nearest passages by cosine distance through the index (filtered by documents when given). */
  async search (v: Float32Array, key: string, opts: { limit: number; docs?: ReadonlySet<string> }): Promise<VectorHit[]> {
    const dims = v.length
    if (!Number.isInteger(dims) || dims <= 0) return []
    const docs = opts.docs ? [...opts.docs] : null
    const { rows } = await this.pool.query<{ doc_id: string; n: number; d: number }>(`
      SELECT doc_id, n, embedding::vector(${dims}) <=> $1::vector(${dims}) AS d FROM lx_knowledge_vectors
      WHERE dims = ${dims} AND model_key = $2 AND ($3::text[] IS NULL OR doc_id = ANY($3::text[]))
      ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims}) LIMIT $4`, [literal(v), key, docs, opts.limit])
    return rows.map((r) => ({ docId: r.doc_id, n: r.n, score: 1 - Number(r.d) }))
  }
}
