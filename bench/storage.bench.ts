// The shared storage (lib/storage/README.md) as an owner meets it: the same data served from the data
// folder's files and from PostgreSQL, and two instances on one PostgreSQL against one.
// Data at the growth sizes (LINGXI_BENCH_STORAGE_SCALE scales them; 1 = 100,000 conversations and
// 1,000,000 memories): the files written as the stores write them (the growth benches' seeders), then
// copied into a real PostgreSQL (tests/support/postgres.ts) by the migration command's own code.
// Each plugin runs in its own process on its own data folder (the PostgreSQL ones share the database),
// loaded as a host loads it; the fake model (tests/support/fake-openai.ts) and each load client run in
// processes of their own. Three rounds, the parties interleaved, medians:
// - chat turns/s, POST /api/chat, 16 clients; the conversations list; one user's memory search;
// - two PostgreSQL instances loaded at once (16 clients each) against one instance with 32 clients.
// Targets (issue "Several bots"): PostgreSQL within 0.8x of the files; two instances >= 1.6x one.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyToPostgres } from '../lib/storage/copy.js'
import { PgRecordStore } from '../lib/storage/pg/record-store.js'
import { PORTED_STORES } from '../lib/storage/ported.js'
import { freshDatabase, startPostgres } from '../tests/support/postgres.js'
import { seed as seedConversations } from './conversations-growth.bench.js'
import { round } from './growth-shared.js'
import { CLIENT_WARMUP_MS, runLoad, SERVER_WARMUP_MS, type LoadResult } from './load-client.js'
import { seedMemories } from './memory-growth.bench.js'
import { startServerProcess, type ServerProcess } from './server-child.js'
import { percentile, type BenchRow } from './types.js'

const SCALE = Number(process.env.LINGXI_BENCH_STORAGE_SCALE ?? 1)
const CONVERSATIONS = Math.round(100_000 * SCALE)
const MEMORIES = Math.round(1_000_000 * SCALE)
const DURATION_MS = Number(process.env.LINGXI_BENCH_LOAD_MS ?? 3000)
const ROUNDS = 3
const CLIENTS = 16
const MODEL = 'gpt-bench'

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

interface Party { server: ServerProcess; listenMs: number }

async function startPlugin (dataDir: string | undefined, modelUrl: string, env: Record<string, string> = {}): Promise<Party> {
  const t0 = performance.now()
  const server = await startServerProcess('plugin', {
    ...(dataDir ? { dataDir } : {}),
    env,
    ready: ['memory'],
    config: { channels: [{ name: 'fake', baseUrl: modelUrl, apiKey: 'sk-bench', model: MODEL, models: [MODEL] }], chat: { userRateLimitPerMinute: 0 } }
  })
  return { server, listenMs: performance.now() - t0 }
}

/** The three loads of one instance: chat turns, the conversations list, one user's memory search. */
function loads (s: ServerProcess, clients = CLIENTS, offset = 0): Record<'chat' | 'list' | 'search', Parameters<typeof runLoad>[0]> {
  const headers = { Authorization: `Bearer ${s.token ?? ''}`, 'Content-Type': 'application/json' }
  return {
    // the seeded users (u<n>): each turn appends to a stored conversation of 4-32 messages
    chat: { url: `${s.url}/api/chat`, method: 'POST', headers, connections: clients, durationMs: DURATION_MS, bodies: Array.from({ length: clients }, (_, i) => JSON.stringify({ message: `hello ${i}`, userId: `u${(i + offset) * 7 + 1}` })) },
    list: { url: `${s.url}/api/conversations?limit=20`, headers, connections: 4, durationMs: DURATION_MS },
    search: { url: `${s.url}/api/memory/search`, method: 'POST', headers, connections: 4, durationMs: DURATION_MS, bodies: Array.from({ length: 4 }, (_, i) => JSON.stringify({ query: i % 2 ? '周末爬山 coffee' : '火锅', userId: `u${i * 37 + 5}` })) }
  }
}

/**
 * How long a change written by one instance takes to be applied by another (the issue asks within 2 s):
 * two stores on one database (each its own LISTEN connection and instance id, as two plugins), a record
 * put on one, timed until the other's onRemote reports it; 200 in a row.
 */
async function propagation (url: string): Promise<number[]> {
  type Rec = { id: string; n: number }
  const a = await PgRecordStore.open<Rec, string>(url, 'bench-propagation', { key: (r) => r.id })
  const b = await PgRecordStore.open<Rec, string>(url, 'bench-propagation', { key: (r) => r.id })
  const lags: number[] = []
  try {
    for (let i = 0; i < 200; i++) {
      const seen = new Promise<number>((resolve) => { const off = b.onRemote((id) => { if (id === `r${i}`) { off(); resolve(performance.now()) } }) })
      const t0 = performance.now()
      await a.put({ id: `r${i}`, n: i })
      lags.push((await seen) - t0)
    }
  } finally { await a.close(); await b.close() }
  return lags
}

export async function run (): Promise<BenchRow[]> {
  const filesDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-storage-'))
  const servers: ServerProcess[] = []
  const pg = await startPostgres()
  try {
    seedConversations(join(filesDir, 'conversations.json'), CONVERSATIONS, Date.now())
    seedMemories(join(filesDir, 'memories.json'), MEMORIES)
    const url = await freshDatabase(pg.url)
    const c0 = performance.now()
    const copied = await copyToPostgres(filesDir, url, { stores: PORTED_STORES.filter((s) => s.name === 'conversations' || s.name === 'memories') })
    const copyS = (performance.now() - c0) / 1000
    for (const c of copied) if (c.read !== c.written) throw new Error(`copy of ${c.store}: ${c.read} read, ${c.written} written`)

    const lags = await propagation(url)
    const fake = await startServerProcess('fake-model')
    servers.push(fake)
    const files = await startPlugin(filesDir, fake.url)
    servers.push(files.server)
    const pgOne = await startPlugin(undefined, fake.url, { LINGXI_DATABASE_URL: url })
    servers.push(pgOne.server)
    const pgTwo = await startPlugin(undefined, fake.url, { LINGXI_DATABASE_URL: url })
    servers.push(pgTwo.server)

    const kinds = ['chat', 'list', 'search'] as const
    const engines = { files: loads(files.server), postgres: loads(pgOne.server) }
    for (const e of Object.values(engines)) for (const k of kinds) await runLoad({ ...e[k], durationMs: k === 'chat' ? SERVER_WARMUP_MS : 1000 })
    await runLoad({ ...loads(pgTwo.server).chat, durationMs: SERVER_WARMUP_MS })

    const got: Record<'files' | 'postgres', Record<typeof kinds[number], LoadResult[]>> = { files: { chat: [], list: [], search: [] }, postgres: { chat: [], list: [], search: [] } }
    const alone: number[] = []
    const together: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? (['postgres', 'files'] as const) : (['files', 'postgres'] as const)
      for (const k of kinds) for (const e of order) got[e][k].push(await runLoad({ ...engines[e][k], warmupMs: CLIENT_WARMUP_MS }))
      // one PostgreSQL instance with all 32 clients, then two with 16 each at the same time
      alone.push((await runLoad({ ...loads(pgOne.server, 2 * CLIENTS).chat, warmupMs: CLIENT_WARMUP_MS })).rps)
      const both = await Promise.all([runLoad({ ...loads(pgOne.server).chat, warmupMs: CLIENT_WARMUP_MS }), runLoad({ ...loads(pgTwo.server, CLIENTS, CLIENTS).chat, warmupMs: CLIENT_WARMUP_MS })])
      together.push(both[0].rps + both[1].rps)
    }
    const fig = (e: 'files' | 'postgres', k: typeof kinds[number], key: 'rps' | 'p50'): number => median(got[e][k].map((r) => r[key]))
    const errors = Object.values(got).flatMap((g) => kinds.flatMap((k) => g[k])).reduce((n, r) => n + r.errors, 0)
    const chatRatio = fig('postgres', 'chat', 'rps') / fig('files', 'chat', 'rps')
    const listRatio = fig('postgres', 'list', 'rps') / fig('files', 'list', 'rps')
    const searchRatio = fig('postgres', 'search', 'rps') / fig('files', 'search', 'rps')
    const scaleUp = median(together) / median(alone)
    const size = `${CONVERSATIONS / 1000}k conversations, ${MEMORIES / 1000}k memories`
    return [
      { name: `storage: copy of the files into PostgreSQL (${size})`, figure: round(copyS), unit: 's', target: '(report)', pass: true },
      { name: 'storage: a change applied by another instance, p50 (put to onRemote)', figure: round(percentile(lags, 50)), unit: 'ms', target: '(report)', pass: true },
      { name: 'storage: a change applied by another instance, p99', figure: round(percentile(lags, 99)), unit: 'ms', target: '< 2000', pass: percentile(lags, 99) < 2000 },
      { name: 'storage: start until listening, files', figure: Math.round(files.listenMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'storage: start until listening, PostgreSQL', figure: Math.round(pgOne.listenMs), unit: 'ms', target: '(report)', pass: true },
      { name: 'storage: chat turns/s, 16 clients, files', figure: round(fig('files', 'chat', 'rps')), unit: 'turns/s', target: 'no errors', pass: errors === 0 },
      { name: 'storage: chat turns/s, 16 clients, PostgreSQL', figure: round(fig('postgres', 'chat', 'rps')), unit: 'turns/s', target: '(report)', pass: true },
      { name: 'storage: chat turn p50, files / PostgreSQL', figure: round(fig('files', 'chat', 'p50')), unit: `ms / ${round(fig('postgres', 'chat', 'p50'))} ms`, target: '(report)', pass: true },
      { name: 'storage: chat turns/s, PostgreSQL / files', figure: round(chatRatio), unit: 'x', target: '>= 0.8', pass: chatRatio >= 0.8 },
      { name: 'storage: conversations list/s, PostgreSQL / files', figure: round(listRatio), unit: 'x', target: '>= 0.8', pass: listRatio >= 0.8 },
      { name: 'storage: memory searches/s, PostgreSQL / files', figure: round(searchRatio), unit: 'x', target: '>= 0.8', pass: searchRatio >= 0.8 },
      { name: 'storage: chat turns/s, one PostgreSQL instance, 32 clients', figure: round(median(alone)), unit: 'turns/s', target: '(report)', pass: true },
      { name: 'storage: chat turns/s, two PostgreSQL instances, 16 clients each', figure: round(median(together)), unit: 'turns/s', target: '(report)', pass: true },
      { name: 'storage: two instances / one', figure: round(scaleUp), unit: 'x', target: '>= 1.6', pass: scaleUp >= 1.6 }
    ]
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
    await pg.stop()
    rmSync(filesDir, { recursive: true, force: true })
  }
}
