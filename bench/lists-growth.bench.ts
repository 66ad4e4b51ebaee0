// Growth bench of the paged list routes (docs/api.md, "Paging"): 50,000 knowledge documents, 100,000
// conversations and 1,000,000 memories (LINGXI_BENCH_DOCS / _CONVERSATIONS / _MEMORIES), seeded by
// writing the store files the way the journal store writes its snapshot (bench/growth-shared.ts), then
// the whole plugin started on them and the dashboard's list pages asked for through HTTP (a logged-in
// session, pages of 50 at random offsets, p50). Also reported: the whole-store default call of the
// knowledge and conversation lists (what a client that does not page gets), and a page right after a
// write (the order index is kept on write, nothing is re-sorted).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Conversation, StoredMessage } from '../lib/chat/store.js'
import type { KnowledgeDoc } from '../lib/knowledge/types.js'
import { CATEGORIES, type MemoryRecord } from '../lib/memory/types.js'
import { startTestServer, type TestServer } from '../tests/support/server.js'
import { makeRng, round, writeSnapshot } from './growth-shared.js'
import { percentile, type BenchRow } from './types.js'

const DOCS = Number(process.env.LINGXI_BENCH_DOCS ?? 50_000)
const CONVERSATIONS = Number(process.env.LINGXI_BENCH_CONVERSATIONS ?? 100_000)
const MEMORIES = Number(process.env.LINGXI_BENCH_MEMORIES ?? 1_000_000)
const USERS = Math.max(1, Math.floor(MEMORIES / 10))
const SAMPLES = 60
const PAGE = 50
const TARGET_MS = 20

const LOREM = '今天天气不错我们去公园散步吧 the quick brown fox jumps over the lazy dog 周末一起吃火锅怎么样 '
const text = (rnd: () => number, len: number): string => {
  const start = Math.floor(rnd() * (LOREM.length - 10))
  let s = ''
  while (s.length < len) s += LOREM.slice(start) + LOREM
  return s.slice(0, len)
}

function seed (dataDir: string): void {
  const rnd = makeRng(13)
  const now = Date.now()
  writeSnapshot<KnowledgeDoc>(join(dataDir, 'knowledge.json'), {}, DOCS, (d) => {
    const at = new Date(now - (DOCS - d) * 1000).toISOString()
    return { id: `doc-${d}`, title: `文档 ${d}`, content: text(rnd, 1000 + (d % 7) * 300), presetId: d % 2 ? `p${d % 10}` : '', createdAt: at, updatedAt: at }
  })
  writeSnapshot<Conversation>(join(dataDir, 'conversations.json'), {}, CONVERSATIONS, (i) => {
    const n = 2 * (2 + (i % 15)) // 4..32 messages
    const messages: StoredMessage[] = []
    for (let m = 0; m < n; m++) messages.push({ role: m % 2 ? 'assistant' : 'user', content: text(rnd, m % 2 ? 60 : 30), timestamp: now - (n - m) * 60_000 })
    const owner = i % 3 === 0 ? { id: `group:g${i % 500}:u${i}`, userId: `u${i}`, groupId: `g${i % 500}` } : { id: `private:u${i}`, userId: `u${i}` }
    return { ...owner, createdAt: now - n * 60_000, updatedAt: now - (i % 5000) * 1000, messages }
  })
  writeSnapshot<MemoryRecord>(join(dataDir, 'memories.json'), { nextId: MEMORIES + 1 }, MEMORIES, (i) => {
    const id = i + 1
    return {
      id, userId: `u${id % USERS}`, content: `${text(rnd, 12)} #${id}`, category: CATEGORIES[id % 6]!, subType: '', confidence: 0.5 + rnd() / 2,
      groupId: id % 3 === 0 ? `g${id % 50}` : '', metadata: {}, source: 'auto', createdAt: now - id * 1000, updatedAt: now - id * 1000
    }
  })
}

async function timed (s: TestServer, path: string): Promise<{ ms: number; bytes: number; body: any }> {
  const a = performance.now()
  const r = await s.api(path)
  const ms = performance.now() - a
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 200)}`)
  return { ms, bytes: r.text.length, body: r.body }
}

/** p50 of SAMPLES page requests at offsets spread over the list (`total` from a first request). */
async function pages (s: TestServer, path: string, totalOf: (body: any) => number): Promise<number> {
  const sep = path.includes('?') ? '&' : '?'
  const total = totalOf((await timed(s, `${path}${sep}limit=${PAGE}&offset=0`)).body)
  const rnd = makeRng(3)
  const times: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const offset = i % 4 === 0 ? 0 : Math.floor(rnd() * Math.max(1, total - PAGE))
    times.push((await timed(s, `${path}${sep}limit=${PAGE}&offset=${offset}`)).ms)
  }
  return percentile(times, 50)
}

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-lists-'))
  seed(dataDir)
  process.env.LINGXI_QUIET = '1'
  const s = await startTestServer({ dataDir })
  try {
    // measured once the start-up index builds are done (they run in slices beside the requests)
    await Promise.all([s.lx.rt.need('knowledge').ready(), s.lx.rt.need('memory').ready()])
    const rows: BenchRow[] = []
    const row = (name: string, figure: number, target = `< ${TARGET_MS}`): void => {
      rows.push({ name: `lists-growth: ${name}`, figure: round(figure), unit: 'ms', target, pass: target.startsWith('<') ? figure < TARGET_MS : true })
    }
    const k = (n: number): string => n >= 1e6 ? `${n / 1e6}M` : `${n / 1000}k`
    row(`GET /api/knowledge page of ${PAGE} p50 (${k(DOCS)} documents)`, await pages(s, '/api/knowledge', (b) => b.total))
    row(`GET /api/conversations/list page of ${PAGE} p50 (${k(CONVERSATIONS)} conversations)`, await pages(s, '/api/conversations/list', (b) => b.total))
    row(`GET /api/conversations (A) page of ${PAGE} p50 (${k(CONVERSATIONS)})`, await pages(s, '/api/conversations', (b) => b.data.total))
    row(`GET /api/conversations?userId= (A, one user's, filtered over the order) p50 (${k(CONVERSATIONS)})`, await pages(s, '/api/conversations?userId=u42', (b) => b.data.total))
    row(`GET /api/memory/users page of ${PAGE} p50 (${k(MEMORIES)} memories, ${k(USERS)} users)`, await pages(s, '/api/memory/users', (b) => b.total))
    row(`GET /api/memory/user/:userId?format=list page p50 (${k(MEMORIES)})`, await pages(s, '/api/memory/user/u42?format=list', (b) => b.total))
    row(`GET /api/memory/group/:groupId page p50 (${k(MEMORIES)}, ~${k(Math.round(MEMORIES / 150))} in the group)`, await pages(s, '/api/memory/group/g7', (b) => b.total))
    const stats: number[] = []
    for (let i = 0; i < SAMPLES; i++) stats.push((await timed(s, '/api/memory/stats')).ms)
    row(`GET /api/memory/stats p50 (${k(MEMORIES)})`, percentile(stats, 50))

    // a page right after a write: the written conversation is first, nothing re-sorted
    const store = s.lx.rt.need('conversations').store
    const afterWrite: number[] = []
    for (let i = 0; i < 20; i++) {
      const id = `private:u${(i * 7919) % CONVERSATIONS}`
      await store.append({ id, userId: id.slice(8) }, [{ role: 'user', content: `bench ${i}`, timestamp: Date.now() }])
      const r = await timed(s, `/api/conversations/list?limit=${PAGE}&offset=0`)
      if (r.body.data[0]?.id !== id) throw new Error(`the written conversation is not first: ${r.body.data[0]?.id}`)
      afterWrite.push(r.ms)
    }
    row('GET /api/conversations/list first page right after a chat write p50', percentile(afterWrite, 50))

    // what a client that does not page gets: the whole list as a plain array
    for (const [path, what] of [['/api/knowledge', `knowledge (${k(DOCS)})`], ['/api/conversations/list', `conversations (${k(CONVERSATIONS)})`]] as const) {
      const r = await timed(s, path)
      row(`GET ${path} whole list, unpaged: ${what}`, r.ms, '(report)')
      rows.push({ name: `lists-growth: GET ${path} whole list size`, figure: round(r.bytes / 1048576), unit: 'MB', target: '(report)', pass: true })
    }
    return rows
  } finally {
    await s.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
