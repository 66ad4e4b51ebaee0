// Recall by meaning (lib/memory/README.md, "Recall by meaning"): recall@3 of BM25 alone and of the hybrid
// search (BM25 fused with the memories' vectors) on the labelled set tests/fixtures/memory-set (four users'
// memories, questions mostly in other words), with the fake embeddings server (tests/support/fake-embeddings.ts,
// real HTTP); and a turn's recall search p50 with 10,000 memories (100 users), BM25 alone and hybrid (the
// hybrid figure includes the round trip that embeds the message on the local fake).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MemoryRecord } from '../lib/memory/types.js'
import { startFakeEmbeddings } from '../tests/support/fake-embeddings.js'
import { startLingxi } from '../tests/support/server.js'
import { writeSnapshot } from './growth-shared.js'
import { percentile, type BenchRow } from './types.js'

interface LabelledSet { memories: Array<{ key: string; userId: string; content: string }>; questions: Array<{ userId: string; text: string; answer: string }> }

const K = 3
const NOISE = 10_000
const WORDS = ['喜欢', '火锅', '咖啡', '猫咪', '周末', '爬山', '上海', '北京', '成都', '程序员', '医生', '老师', '生日', '考试', '电影', '音乐', '游戏', '篮球', '妈妈', '工作', '加班', '旅行', '日本', '读书', '小说', '早起', '跑步', '吉他', '钢琴', '摄影']

export async function run (): Promise<BenchRow[]> {
  const set = JSON.parse(readFileSync(new URL('../tests/fixtures/memory-set/set.json', import.meta.url), 'utf8')) as LabelledSet
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-memory-hybrid-'))
  const now = Date.now()
  let seed = 11
  const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647
  const noise = (id: number): MemoryRecord => ({
    id, userId: `n${id % 100}`, content: Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(''),
    category: 'topic', subType: '', confidence: 0.9, groupId: '', metadata: {}, source: 'manual', createdAt: now - id * 1000, updatedAt: now - id * 1000,
    origin: { kind: 'manual', chat: 'api', at: now - id * 1000 }
  })
  writeSnapshot(join(dataDir, 'memories.json'), { nextId: NOISE + 1 }, NOISE, (i) => noise(i + 1))
  const fake = await startFakeEmbeddings({ dims: 256 })
  const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0', LINGXI_QUIET: '1' } })
  try {
    await lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
    const mem = lx.rt.need('memory')
    await mem.ready()
    const ids = new Map<string, number>()
    for (const m of set.memories) ids.set(m.key, (await mem.add({ userId: m.userId, content: m.content, category: 'profile', confidence: 0.9 })).id)
    const use = { now, privateInGroups: false }
    const recall = async (): Promise<number> => {
      let found = 0
      for (const q of set.questions) {
        const hits = await mem.search({ query: q.text, userId: q.userId, limit: K, use })
        if (hits.some((h) => h.id === ids.get(q.answer))) found++
      }
      return found / set.questions.length
    }
    const latency = async (): Promise<number> => {
      const times: number[] = []
      for (let i = 0; i < 300; i++) {
        const a = performance.now()
        await mem.search({ query: `${WORDS[i % WORDS.length]!}${WORDS[(i * 7) % WORDS.length]!}`, userId: `n${i % 100}`, limit: 30, use })
        times.push(performance.now() - a)
      }
      return percentile(times, 50)
    }
    const bm25Recall = await recall()
    const bm25P50 = await latency()
    await lx.rt.config.update({ knowledge: { embedding: { baseUrl: fake.url, apiKey: 'sk-bench', model: 'fake-embed', batchSize: 0 } } })
    const t0 = performance.now()
    await mem.meaning!.whenIdle()
    const embedMs = performance.now() - t0
    const hybridRecall = await recall()
    const hybridP50 = await latency()
    // what of it is the message's embedding (the HTTP round trip to the local fake)
    const kit = lx.rt.need('knowledge').embedder!
    const trips: number[] = []
    for (let i = 0; i < 100; i++) { const a = performance.now(); await kit.embed([`${WORDS[i % WORDS.length]!}`], { attempts: 1 }); trips.push(performance.now() - a) }
    const tripP50 = percentile(trips, 50)
    const r = (n: number): number => Math.round(n * 1000) / 1000
    return [
      { name: `memory-hybrid: recall@${K}, BM25 alone (${set.questions.length} questions, ${set.memories.length} memories)`, figure: r(bm25Recall), unit: 'ratio', target: '(report)', pass: true },
      { name: `memory-hybrid: recall@${K}, hybrid (BM25 + vectors, fake embedder)`, figure: r(hybridRecall), unit: 'ratio', target: '> BM25 alone', pass: hybridRecall > bm25Recall },
      { name: `memory-hybrid: embedding ${NOISE + set.memories.length} memories in the background`, figure: Math.round(embedMs), unit: 'ms', target: '(report)', pass: true },
      { name: `memory-hybrid: recall search p50 at ${NOISE / 1000}k memories, BM25 alone`, figure: r(bm25P50), unit: 'ms', target: '(report)', pass: true },
      { name: `memory-hybrid: recall search p50 at ${NOISE / 1000}k memories, hybrid (message embedded on the local fake)`, figure: r(hybridP50), unit: 'ms', target: '< 20', pass: hybridP50 < 20 },
      { name: 'memory-hybrid: of which the message\'s embedding round trip p50', figure: r(tripP50), unit: 'ms', target: '(report)', pass: true }
    ]
  } finally {
    await lx.stop()
    await fake.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
