// Found by meaning (lib/knowledge/README.md): quality on the labelled Chinese set of
// tests/fixtures/knowledge-set (30 documents, near-duplicate versions, long ones; questions that
// share words with their passage, paraphrases that do not, and questions whose answer is absent)
// with the fake embedder (tests/support/fake-embeddings.ts): passage recall@5 of BM25 alone on the
// word-sharing questions, of the hybrid search on the paraphrases, MRR of each fusion method. Then
// speed at scale in process (a zero-latency embedder: the query vector is given): 50k documents cut
// into ~500k passages, 1024-dimension int8 vectors, hybrid search (BM25 + vectors + fusion) p50, and
// how many of the exact top 10 the coarse sign-bit pass keeps.
import { randomFillSync } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { systemClock } from '../lib/core/clock.js'
import { EventBus } from '../lib/core/event-bus.js'
import { PluginLogger } from '../lib/core/logger.js'
import { chunkText } from '../lib/knowledge/chunk.js'
import { PassageIndex } from '../lib/knowledge/passages.js'
import { KnowledgeService } from '../lib/knowledge/service.js'
import { fuse, type FusionSettings } from '../lib/knowledge/vectors/fusion.js'
import { VectorStore } from '../lib/knowledge/vectors/store.js'
import type { SearchSettings } from '../lib/knowledge/vectors/vectors.js'
import { startFakeEmbeddings } from '../tests/support/fake-embeddings.js'
import { makeRng, round } from './growth-shared.js'
import { percentile, type BenchRow } from './types.js'

const SET = fileURLToPath(new URL('../tests/fixtures/knowledge-set/', import.meta.url))
interface Question { kind: 'words' | 'paraphrase' | 'absent'; query: string; docs: string[]; passage?: string }
interface SetDoc { id: string; title: string; content: string }

const noop = (): void => {}
const quietLog = (): PluginLogger => new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })

async function quality (): Promise<BenchRow[]> {
  const docs = JSON.parse(readFileSync(join(SET, 'docs.json'), 'utf8')) as SetDoc[]
  const questions = JSON.parse(readFileSync(join(SET, 'questions.json'), 'utf8')) as Question[]
  const fake = await startFakeEmbeddings({ dims: 1024, maxBatch: 64 })
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-kbq-'))
  const settings: SearchSettings = {
    embedding: { baseUrl: fake.url, apiKey: 'k', model: 'fake', batchSize: 0 },
    fusion: { method: 'rrf', bm25Weight: 1, vectorWeight: 1, rrfK: 60 },
    rerank: { baseUrl: '', apiKey: '', model: '', topN: 20 }
  }
  const kb = await KnowledgeService.open(join(dataDir, 'knowledge.json'), {
    clock: systemClock, log: quietLog(), access: () => ({ allowAddresses: new Set(['127.0.0.1']) }),
    vectors: { file: join(dataDir, 'v.bin'), metaFile: join(dataDir, 'v.json'), settings: () => settings }
  })
  try {
    const idOf = new Map<string, string>()
    for (const d of docs) idOf.set((await kb.create({ title: d.title, content: d.content })).id, d.id)
    await kb.vectors!.whenIdle()
    /** 1-based rank of the first labelled passage in the top 5, 0 if none */
    const rankOf = async (q: Question): Promise<number> => {
      const hits = await kb.search(q.query, { limit: 5 })
      const i = hits.findIndex((h) => q.docs.includes(idOf.get(h.docId) ?? '') && (q.passage === undefined || h.text.includes(q.passage)))
      return i + 1
    }
    const of = (kind: Question['kind']): Question[] => questions.filter((q) => q.kind === kind)
    const recall = async (qs: Question[]): Promise<number> => { let n = 0; for (const q of qs) if (await rankOf(q) > 0) n++; return n / qs.length }
    const mrr = async (qs: Question[]): Promise<number> => { let s = 0; for (const q of qs) { const r = await rankOf(q); if (r > 0) s += 1 / r } return s / qs.length }
    const answered = [...of('words'), ...of('paraphrase')]
    const rows: BenchRow[] = []
    const saved = settings.embedding.baseUrl
    settings.embedding.baseUrl = '' // BM25 alone
    const bm25Words = await recall(of('words'))
    const bm25Para = await recall(of('paraphrase'))
    const bm25Mrr = await mrr(answered)
    settings.embedding.baseUrl = saved
    rows.push({ name: 'knowledge-quality: BM25 alone, passage recall@5, word-sharing questions', figure: round(bm25Words), unit: 'ratio', target: '>= 0.9', pass: bm25Words >= 0.9 })
    rows.push({ name: 'knowledge-quality: BM25 alone, passage recall@5, paraphrases (for comparison)', figure: round(bm25Para), unit: 'ratio', target: 'none', pass: true })
    rows.push({ name: 'knowledge-quality: BM25 alone, MRR@5 (words and paraphrases)', figure: round(bm25Mrr), unit: 'MRR', target: 'none', pass: true })
    const methods: Array<[string, FusionSettings]> = [
      ['rrf', { method: 'rrf', bm25Weight: 1, vectorWeight: 1, rrfK: 60 }],
      ['weighted', { method: 'weighted', bm25Weight: 1, vectorWeight: 1, rrfK: 60 }]
    ]
    for (const [name, f] of methods) {
      settings.fusion = f
      const para = await recall(of('paraphrase'))
      const words = await recall(of('words'))
      const m = await mrr(answered)
      rows.push({ name: `knowledge-quality: hybrid (${name}), passage recall@5, paraphrases`, figure: round(para), unit: 'ratio', target: '>= 0.85', pass: para >= 0.85 })
      rows.push({ name: `knowledge-quality: hybrid (${name}), passage recall@5, word-sharing questions`, figure: round(words), unit: 'ratio', target: '>= 0.9', pass: words >= 0.9 })
      rows.push({ name: `knowledge-quality: hybrid (${name}), MRR@5 (words and paraphrases)`, figure: round(m), unit: 'MRR', target: 'none', pass: true })
    }
    return rows
  } finally {
    await kb.close()
    await fake.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const DOCS = Number(process.env.LINGXI_BENCH_DOCS ?? 50_000)
const DIMS = 1024
const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞'

/** A document's passage vectors (int8): a topic direction shared by its passages plus each one's noise. */
function docVectors (count: number): { values: Int8Array; scales: Float32Array } {
  const topic = new Int8Array(DIMS)
  randomFillSync(topic)
  const noise = new Int8Array(count * DIMS)
  randomFillSync(noise)
  const values = new Int8Array(count * DIMS)
  for (let i = 0; i < values.length; i++) values[i] = Math.max(-127, Math.min(127, (topic[i % DIMS]! >> 1) + (noise[i]! >> 2)))
  return { values, scales: new Float32Array(count).fill(1 / 127) }
}

/** A query near a passage: its values plus noise, as floats. */
function queryNear (values: Int8Array, at: number, rnd: () => number): Float32Array {
  const q = new Float32Array(DIMS)
  for (let k = 0; k < DIMS; k++) q[k] = values[at + k]! + (rnd() - 0.5) * 40
  return q
}

async function scale (): Promise<BenchRow[]> {
  const rnd = makeRng(23)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!
  const zipf = <T>(a: readonly T[]): T => a[Math.min(a.length - 1, Math.floor(Math.exp(rnd() * Math.log(a.length + 1))) - 1)]!
  const han = [...HAN]
  const words = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(han)).join(''))
  const topicWords = Array.from({ length: 3000 }, (_, i) => `${pick(han)}${pick(han)}${pick(han)}${i.toString(36)}`)
  const passages = new PassageIndex()
  const store = new VectorStore(DIMS)
  const docTopics: Array<{ words: string[]; first: Int8Array }> = []
  const t0 = performance.now()
  for (let d = 0; d < DOCS; d++) {
    const topics = [pick(topicWords), pick(topicWords)]
    const parts: string[] = []
    let len = 0
    while (len < 2000) { const w = rnd() < 0.06 ? pick(topics) : zipf(words); parts.push(w); len += w.length }
    const content = parts.join('')
    // passages of ~200 characters: 10 a document, 500k for 50k documents
    const chunks = chunkText(content, { size: 200, overlap: 20 })
    passages.add({ id: `d${d}`, title: `${topics[0]} 文档${d}`, presetId: '', content }, chunks)
    const v = docVectors(chunks.length)
    store.put({ docId: `d${d}`, presetId: '', fingerprint: 'f', ...v })
    if (d < 400) docTopics.push({ words: topics, first: v.values.slice(0, DIMS) })
  }
  const buildS = (performance.now() - t0) / 1000
  const fusion: FusionSettings = { method: 'rrf', bm25Weight: 1, vectorWeight: 1, rrfK: 60 }
  const totals: number[] = []
  const vectorMs: number[] = []
  const bm25Ms: number[] = []
  for (let i = 0; i < 200; i++) {
    const target = docTopics[i % docTopics.length]!
    const query = queryNear(target.first, 0, rnd)
    const a = performance.now()
    const words = passages.search(`${target.words[0]} ${target.words[1]}`, { limit: 20 })
    const b = performance.now()
    const near = store.search(query, { limit: 20 })
    const c = performance.now()
    fuse(words, near, fusion)
    const e = performance.now()
    bm25Ms.push(b - a); vectorMs.push(c - b); totals.push(e - a)
  }
  // the coarse pass against exact scoring: the exact top 10 of a few queries, by brute force
  let kept = 0
  let wanted = 0
  const all = [...store.all()]
  for (let i = 0; i < 10; i++) {
    const target = docTopics[i]!
    const query = queryNear(target.first, 0, rnd)
    const exact: Array<{ key: string; score: number }> = []
    for (const d of all) {
      for (let n = 0; n < d.scales.length; n++) {
        let s = 0
        for (let k = 0; k < DIMS; k++) s += d.values[n * DIMS + k]! * query[k]!
        exact.push({ key: `${d.docId}/${n}`, score: s * d.scales[n]! })
      }
    }
    exact.sort((x, y) => y.score - x.score)
    const got = new Set(store.search(query, { limit: 10 }).map((h) => `${h.docId}/${h.n}`))
    for (const e of exact.slice(0, 10)) { wanted++; if (got.has(e.key)) kept++ }
  }
  const p50 = percentile(totals, 50)
  return [
    { name: `knowledge-quality: ${DOCS} documents, ${store.size} passages of ${DIMS}-dim int8 vectors, built in process`, figure: round(buildS), unit: 's', target: 'none', pass: true },
    { name: 'knowledge-quality: hybrid search p50 (BM25 + vectors + fusion, query vector given)', figure: round(p50), unit: 'ms', target: '<= 60', pass: p50 <= 60 },
    { name: 'knowledge-quality: of which BM25 p50', figure: round(percentile(bm25Ms, 50)), unit: 'ms', target: 'none', pass: true },
    { name: 'knowledge-quality: of which vectors p50 (sign-bit pass + int8 rescoring)', figure: round(percentile(vectorMs, 50)), unit: 'ms', target: 'none', pass: true },
    { name: 'knowledge-quality: exact top 10 kept by the sign-bit pass', figure: round(kept / wanted), unit: 'ratio', target: '>= 0.9', pass: kept / wanted >= 0.9 },
    { name: 'knowledge-quality: RSS after building', figure: round(process.memoryUsage().rss / 1048576), unit: 'MB', target: 'none', pass: true }
  ]
}

export async function run (): Promise<BenchRow[]> {
  const rows = await quality()
  if (process.env.LINGXI_BENCH_QUALITY_ONLY) return rows
  return [...rows, ...await scale()]
}
