// Growth bench: 1,000,000 memories of 100,000 users (about 250 MB on disk), seeded by writing
// memories.json the way the store does. Restart to a first answered chat contributor within 1 s of
// listening; event-loop stalls while the search index builds (proxy for status p99 < 20 ms); stats and
// users p50 < 20 ms; one user's one-character search; a chat turn's recall (the memory contributors: the
// stable summary and the message's memories by the recall score, lib/memory/README.md "Recall") p50 <= 5 ms;
// extraction's plugin CPU per turn (queueing the turn, then its share of a round: prompt, parsing, the
// same-fact check, the writes; the model answering at once) <= 1 ms; RSS under 3x the data on disk.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelGateway, ModelResponse } from '../lib/chat/contracts.js'
import { MemoryExtractor } from '../lib/memory/extract.js'
import { CATEGORIES, type MemoryRecord } from '../lib/memory/types.js'
import { startServerProcess } from './server-child.js'
import { fileMb, makeRng, restartAndAsk, round, timed, timedAsync, turn, writeSnapshot } from './growth-shared.js'
import { percentile, type BenchRow } from './types.js'

const COUNT = Number(process.env.LINGXI_BENCH_MEMORIES ?? 1_000_000)
const USERS = Math.max(1, Math.floor(COUNT / 10))
const ZH = ['喜欢', '火锅', '咖啡', '猫咪', '周末', '爬山', '上海', '北京', '成都', '程序员', '医生', '老师', '生日', '考试', '电影', '音乐', '游戏', '原神', '篮球', '女朋友', '妈妈', '工作', '加班', '旅行', '日本', '读书', '小说', '辣', '甜', '早起']
const EN = ['likes', 'jazz', 'coffee', 'hiking', 'python', 'rust', 'guitar', 'piano', 'cat', 'dog', 'tea', 'marathon', 'chess', 'anime', 'football', 'sister', 'brother', 'exam', 'birthday', 'travel', 'japan', 'novel', 'cooking', 'garden', 'movie', 'night', 'shift', 'nurse', 'teacher', 'student']

/** Writes `count` memories of count/10 users (`u<n>`) into `file` as the store's snapshot. Also used by bench/storage.bench.ts. */
export function seedMemories (file: string, count: number): void {
  const users = Math.max(1, Math.floor(count / 10))
  const rnd = makeRng(7)
  const fact = (): string => {
    const words: string[] = []
    const n = 3 + Math.floor(rnd() * 6)
    for (let i = 0; i < n; i++) words.push(rnd() < 0.5 ? ZH[Math.floor(rnd() * ZH.length)]! : EN[Math.floor(rnd() * EN.length)]!)
    return words.join(rnd() < 0.5 ? '' : ' ') + ` #${Math.floor(rnd() * 1e6)}`
  }
  const now = Date.now()
  writeSnapshot<MemoryRecord>(file, { nextId: count + 1 }, count, (i) => {
    const id = i + 1
    return {
      id, userId: `u${id % users}`, content: fact(), category: CATEGORIES[id % 6]!, subType: '', confidence: 0.5 + rnd() / 2,
      groupId: id % 3 === 0 ? `g${id % 50}` : '', metadata: {}, source: 'auto', createdAt: now - id * 1000, updatedAt: now - id * 1000
    }
  })
}

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-memgrowth-'))
  const file = join(dataDir, 'memories.json')
  seedMemories(file, COUNT)
  const diskMb = fileMb(file)
  const { lx, listenMs, first, firstMs, buildMs, stall } = await restartAndAsk(dataDir, 'memory', turn('我周末喜欢吃火锅', 'u42'), (l) => l.rt.need('memory').ready())
  let stopped = false
  try {
    const mem = lx.rt.need('memory')

    const stats: number[] = []
    const users: number[] = []
    const oneChar: number[] = []
    const userSearch: number[] = []
    const recall: number[] = []
    const parts = lx.rt.chat.contributors.filter((c) => c.name === 'memory-summary' || c.name === 'memory')
    for (let i = 0; i < 60; i++) {
      stats.push(timed(() => mem.stats())[1])
      users.push(timed(() => mem.users())[1])
    }
    for (let i = 0; i < 300; i++) {
      oneChar.push((await timedAsync(() => mem.search({ query: i % 2 ? '辣' : '猫', userId: `u${(i * 37) % USERS}`, limit: 20 })))[1])
      userSearch.push((await timedAsync(() => mem.search({ query: '周末爬山 coffee', userId: `u${(i * 53) % USERS}`, limit: 20 })))[1])
      const t = turn(i % 2 ? '周末去爬山吗' : 'coffee or tea', `u${(i * 71) % USERS}`) // a turn as the pipeline asks it: both parts
      recall.push((await timedAsync(async () => { for (const c of parts) await c.contribute(t) }))[1])
    }
    const extractCpu = await extractionCpuPerTurn(lx.rt)
    // RSS as the host process holds it: the plugin loaded the way a host loads it (index.js and its
    // bundle under plain node, bench/plain-servers.mjs) on the same data, once its index is complete.
    // In this process the figure would also count the bench's own tsx loader and what it measured.
    await lx.stop()
    stopped = true
    const child = await startServerProcess('plugin', { nodeArgs: ['--expose-gc'], dataDir, ready: ['memory'] })
    await child.stop()
    const rss = child.rssMb ?? NaN
    const p = (a: number[]): number => round(percentile(a, 50))
    const k = `${COUNT / 1000}k`
    return [
      { name: `memory-growth: ${k} memories on disk`, figure: round(diskMb), unit: 'MB', target: '(report)', pass: true },
      { name: `memory-growth: restart until listening (${k})`, figure: round(listenMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'memory-growth: first chat contributor answered after listening', figure: round(firstMs), unit: 'ms', target: '< 1000', pass: firstMs < 1000 && first !== undefined },
      { name: 'memory-growth: search index complete after listening', figure: round(buildMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'memory-growth: event-loop delay p99 while the index builds (status p99 proxy)', figure: round(stall.p99), unit: 'ms', target: '< 20', pass: stall.p99 < 20 },
      { name: 'memory-growth: longest event-loop stall while the index builds', figure: round(stall.max), unit: 'ms', target: '(report: GC, other work)', pass: true },
      { name: 'memory-growth: stats p50', figure: p(stats), unit: 'ms', target: '< 20', pass: p(stats) < 20 },
      { name: 'memory-growth: users p50', figure: p(users), unit: 'ms', target: '< 20', pass: p(users) < 20 },
      { name: 'memory-growth: one user, one-character search p50', figure: p(oneChar), unit: 'ms', target: '< 1', pass: p(oneChar) < 1 },
      { name: 'memory-growth: one user, two-term search p50', figure: p(userSearch), unit: 'ms', target: '< 10', pass: p(userSearch) < 10 },
      { name: 'memory-growth: one chat turn\'s recall (summary + recalled memories, recall score) p50', figure: p(recall), unit: 'ms', target: '<= 5', pass: parts.length === 2 && p(recall) <= 5 },
      { name: 'memory-growth: extraction plugin CPU per turn (queue + its share of a round, 3 facts per answer)', figure: round(extractCpu), unit: 'ms', target: '<= 1', pass: extractCpu <= 1 },
      { name: 'memory-growth: RSS / data on disk', figure: round(rss / diskMb), unit: 'x', target: '< 3', pass: rss / diskMb < 3 },
      { name: 'memory-growth: RSS', figure: round(rss), unit: 'MB', target: '(report)', pass: true }
    ]
  } finally {
    if (!stopped) await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * Plugin CPU (process.cpuUsage, user + system) of 200 chat turns of 50 users through an extractor on the
 * same store: each turn queued (afterTurn, on the turn's path), then one round whose model (in process,
 * no network) answers three facts per queue: one already known, two new.
 */
async function extractionCpuPerTurn (rt: Awaited<ReturnType<typeof restartAndAsk>>['lx']['rt']): Promise<number> {
  const memory = rt.need('memory')
  const answer = (userId: string): ModelResponse => ({
    content: JSON.stringify([
      { content: memory.list({ userId, limit: 1 })[0]?.content ?? '喜欢火锅', category: 'preference', kind: 'stated', confidence: 0.9 },
      { content: `周末常去爬山 ${userId}`, category: 'topic', kind: 'stated', confidence: 0.9 },
      { content: `可能是程序员 ${userId}`, category: 'profile', kind: 'inferred', confidence: 0.6 }
    ]),
    toolCalls: [], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, model: 'bench', channel: 'bench', finishReason: 'stop', latencyMs: 0
  })
  const models: ModelGateway = {
    complete: async (req) => answer(req.scope?.userId ?? ''),
    stream: async (req) => answer(req.scope?.userId ?? '')
  }
  const settings = (): { enabled: boolean; pollIntervalMinutes: number; reviewBelow: number } => ({ enabled: true, pollIntervalMinutes: 5, reviewBelow: 0.7 })
  const extractor = new MemoryExtractor({ memory, models: () => models, clock: rt.clock, log: rt.log, settings })
  const turns = 200
  const before = process.cpuUsage()
  for (let i = 0; i < turns; i++) {
    const userId = `u${(i % 50) * 97 + 3}`
    extractor.afterTurn(turn('我周末喜欢去爬山，平时写代码', userId), { user: '我周末喜欢去爬山，平时写代码', assistant: '听起来很充实！' })
  }
  await extractor.runOnce()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000 / turns
}

