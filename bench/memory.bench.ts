// Memory store with 100,000 records (1,000 users, mixed Chinese/English facts): add one memory (acked
// after its journal append) p50 < 5 ms with 8 concurrent writers; search p50 < 10 ms; plugin start
// (startLingxi, modules already loaded) with that store < 1 s.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MemoryRecord } from '../lib/memory/types.js'
import { CATEGORIES } from '../lib/memory/types.js'
import { startLingxi } from '../tests/support/server.js'
import { writeSnapshot } from './growth-shared.js'
import { percentile, type BenchRow } from './types.js'

const ZH = ['喜欢', '火锅', '咖啡', '猫咪', '周末', '爬山', '上海', '北京', '成都', '程序员', '医生', '老师', '生日', '考试', '电影', '音乐', '游戏', '原神', '篮球', '女朋友', '妈妈', '工作', '加班', '旅行', '日本', '读书', '小说', '辣', '甜', '早起']
const EN = ['likes', 'jazz', 'coffee', 'hiking', 'python', 'rust', 'guitar', 'piano', 'cat', 'dog', 'tea', 'marathon', 'chess', 'anime', 'football', 'sister', 'brother', 'exam', 'birthday', 'travel', 'japan', 'novel', 'cooking', 'garden', 'movie', 'night', 'shift', 'nurse', 'teacher', 'student']

function makeRng (seed: number): () => number {
  let s = seed
  return () => (s = (s * 16807) % 2147483647) / 2147483647
}

function fact (rnd: () => number): string {
  const words: string[] = []
  const n = 3 + Math.floor(rnd() * 6)
  for (let i = 0; i < n; i++) words.push(rnd() < 0.5 ? ZH[Math.floor(rnd() * ZH.length)]! : EN[Math.floor(rnd() * EN.length)]!)
  return words.join(rnd() < 0.5 ? '' : ' ') + ` #${Math.floor(rnd() * 1e6)}`
}

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-memory-'))
  const rnd = makeRng(7)
  const now = Date.now()
  const records: MemoryRecord[] = []
  for (let id = 1; id <= 100_000; id++) {
    records.push({
      id, userId: `u${id % 1000}`, content: fact(rnd), category: CATEGORIES[id % 6]!, subType: '', confidence: 0.5 + rnd() / 2,
      groupId: id % 3 === 0 ? `g${id % 50}` : '', metadata: {}, source: 'auto', createdAt: now - id * 1000, updatedAt: now - id * 1000
    })
  }
  // the store's own snapshot layout (a record a line)
  writeSnapshot(join(dataDir, 'memories.json'), { nextId: 100_001 }, records.length, (i) => records[i]!)
  process.env.LINGXI_PORT = '0'
  const env = { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' }
  // warm the module cache with an empty store so the start figure is the store's, not the imports'
  const emptyDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-memory-empty-'))
  await (await startLingxi({ env: { ...env, LINGXI_DATA_DIR: emptyDir } })).stop()
  rmSync(emptyDir, { recursive: true, force: true })

  const t0 = performance.now()
  const lx = await startLingxi({ env })
  const startMs = performance.now() - t0
  try {
    const mem = lx.rt.need('memory')
    const t1 = performance.now()
    await mem.ready()
    const indexMs = performance.now() - t1 + startMs

    const addTimes: number[] = []
    let left = 2000
    const writer = async (w: number): Promise<void> => {
      while (left-- > 0) {
        const a = performance.now()
        await mem.add({ userId: `u${w}`, content: fact(rnd), category: 'custom' })
        addTimes.push(performance.now() - a)
      }
    }
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)))

    const queries = ['喜欢火锅', 'coffee jazz', '成都 程序员', 'birthday', '周末爬山', 'guitar piano', '原神', 'nurse night shift']
    const searchUser: number[] = []
    const searchAll: number[] = []
    for (let i = 0; i < 300; i++) {
      const q = queries[i % queries.length]!
      let a = performance.now()
      await mem.search({ query: q, userId: `u${i % 1000}`, limit: 20 })
      searchUser.push(performance.now() - a)
      a = performance.now()
      await mem.search({ query: q, limit: 20 })
      searchAll.push(performance.now() - a)
    }
    const r = (n: number): number => Math.round(n * 100) / 100
    const add50 = percentile(addTimes, 50)
    const su = percentile(searchUser, 50)
    const sa = percentile(searchAll, 50)
    return [
      { name: 'memory: plugin start with 100k memories', figure: r(startMs), unit: 'ms', target: '< 1000', pass: startMs < 1000 },
      { name: 'memory: search index of 100k ready after start', figure: r(indexMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'memory: add p50 (8 writers, acked after append+sync)', figure: r(add50), unit: 'ms', target: '< 5', pass: add50 < 5 },
      { name: 'memory: add p99', figure: r(percentile(addTimes, 99)), unit: 'ms', target: '(report)', pass: true },
      { name: 'memory: search p50, one user of 100k', figure: r(su), unit: 'ms', target: '< 10', pass: su < 10 },
      { name: 'memory: search p50, all users of 100k', figure: r(sa), unit: 'ms', target: '< 10', pass: sa < 10 }
    ]
  } finally {
    await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
