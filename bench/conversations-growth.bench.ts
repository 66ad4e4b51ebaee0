// Growth bench: 100,000 stored conversations (LINGXI_BENCH_CONVERSATIONS), seeded by writing
// conversations.json the way the journal store writes its snapshot (lib/core/journal-store.ts).
// Store part: sustained chat turns through the conversation store (4 concurrent writers, each turn = a
// user and an assistant message appended to a random conversation, acked on disk) against an empty
// store, three interleaved rounds, medians; the whole big store is folded once meanwhile. Reports the
// longest event-loop stall (and the longest GC pause, to tell the two apart), the longest the fold held
// the loop, stop time, open/replay time and RSS against the data on disk.
// HTTP part: the whole plugin on the same data, loaded as a host loads it in its own process, POST
// /api/chat against the fake model (tests/support/fake-openai.ts, a process of its own) from a load
// client in its own process; same rounds and figures, the stalls and GC pauses the plugin's own. A turn
// sends the user's history to the model, so two comparisons, each doing the same work per turn:
// new users on the big store against new users on an empty one (what the stored data costs), and the
// big store's own users (4-32 messages of history) against the same users' conversations alone in a
// store of 1,000 (what 100x the data costs a turn that carries that history).
import { spawn } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { PerformanceObserver } from 'node:perf_hooks'
import { join } from 'node:path'
import { ConversationStore, type Conversation, type StoredMessage } from '../lib/chat/store.js'
import type { Runtime } from '../lib/runtime.js'
import { startServerProcess } from './server-child.js'
import { fileMb, loopDelay, makeRng, round, rssMb } from './growth-shared.js'
import type { BenchRow } from './types.js'

const COUNT = Number(process.env.LINGXI_BENCH_CONVERSATIONS ?? 100_000)
/** Seconds of chat at the big size, over all rounds (the target speaks of 60 s; 15 s here). */
const WINDOW_S = Number(process.env.LINGXI_BENCH_WINDOW_S ?? 15)
const ROUNDS = 3
const BIG_WINDOW_S = WINDOW_S / ROUNDS
const EMPTY_WINDOW_S = Math.min(BIG_WINDOW_S, 3)
const CLIENTS = 4
/** Seconds of chat before each HTTP round's measured load. */
const WARMUP_S = 1
const MAX_STORED = 200
/** LINGXI_BENCH_PARTS=store or =http runs one half only (default both). */
const PARTS = (process.env.LINGXI_BENCH_PARTS ?? 'store,http').split(',')
const STORE = PARTS.includes('store')
const HTTP = PARTS.includes('http')

const silent = { error () {}, warn () {}, info () {}, debug () {} }

/** The little of the Runtime the conversation store uses. */
function runtime (dataDir: string): Runtime {
  return {
    paths: { dataDir },
    log: silent,
    clock: { now: () => Date.now() },
    config: { get: () => ({ chat: { maxStoredMessages: MAX_STORED } }) },
    onStop: []
  } as unknown as Runtime
}

const LOREM = '今天天气不错我们去公园散步吧 the quick brown fox jumps over the lazy dog 周末一起吃火锅怎么样 '
function text (rnd: () => number, len: number): string {
  const start = Math.floor(rnd() * (LOREM.length - 10))
  let s = ''
  while (s.length < len) s += LOREM.slice(start) + LOREM
  return s.slice(0, len)
}

/** Writes a snapshot in the store's layout (lib/core/journal-store.ts): a head line, one record per line. */
function writeLineSnapshot<R> (file: string, count: number, record: (i: number) => R): void {
  const fd = openSync(file, 'w', 0o600)
  try {
    let buf = '{"meta":{},"g":0,"records":[\n'
    for (let i = 0; i < count; i++) {
      buf += (i > 0 ? ',\n' : '') + JSON.stringify(record(i))
      if (buf.length > 4_000_000) { writeSync(fd, buf); buf = '' }
    }
    writeSync(fd, buf + '\n]}\n')
  } finally { closeSync(fd) }
}

/** Seeds `count` conversations; returns their owners (what a chat turn names). Also used by bench/storage.bench.ts. */
export function seed (file: string, count: number, now: number): Array<{ id: string; userId: string; groupId?: string }> {
  const rnd = makeRng(11)
  const owners: Array<{ id: string; userId: string; groupId?: string }> = []
  writeLineSnapshot<Conversation>(file, count, (i) => {
    const n = 2 * (2 + (i % 15)) // 4..32 messages, 18 on average
    const messages: StoredMessage[] = []
    for (let m = 0; m < n; m++) messages.push({ role: m % 2 ? 'assistant' : 'user', content: text(rnd, m % 2 ? 60 : 30), timestamp: now - (n - m) * 60_000 })
    const group = i % 3 === 0
    const owner = group ? { id: `group:g${i % 500}:u${i}`, userId: `u${i}`, groupId: `g${i % 500}` } : { id: `private:u${i}`, userId: `u${i}` }
    owners.push(owner)
    return { ...owner, createdAt: now - n * 60_000, updatedAt: now - 60_000, messages }
  })
  return owners
}

interface Sustained { turnsPerS: number; maxTurnMs: number; stallMax: number; gcMax: number; peakRssMb: number; foldMs: number; foldSliceMs: number }

/**
 * CLIENTS writers chat for `seconds`; with `foldAt`, the journal is also folded (the whole store
 * rewritten) that far into the window, as happens every few tens of thousands of turns.
 */
async function sustained (store: ConversationStore, ids: Array<{ id: string; userId: string; groupId?: string }>, seconds: number, foldAt?: number): Promise<Sustained> {
  const rnd = makeRng(5)
  let turns = 0
  let maxTurnMs = 0
  let peak = rssMb()
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb()) }, 200)
  const stall = loopDelay()
  const gc = gcPauses()
  const end = performance.now() + seconds * 1000
  const client = async (): Promise<void> => {
    while (performance.now() < end) {
      const owner = ids[Math.floor(rnd() * ids.length)]!
      const t = Date.now()
      const a = performance.now()
      await store.append(owner, [{ role: 'user', content: text(rnd, 30), timestamp: t }, { role: 'assistant', content: text(rnd, 80), timestamp: t + 1 }])
      maxTurnMs = Math.max(maxTurnMs, performance.now() - a)
      turns++
    }
  }
  let foldMs = NaN
  let foldSliceMs = NaN
  const folded = foldAt === undefined
    ? Promise.resolve()
    : new Promise<void>((resolve) => setTimeout(() => {
      const a = performance.now()
      void store.fold().then((r) => { foldMs = performance.now() - a; foldSliceMs = r?.longestSliceMs ?? NaN; resolve() })
    }, foldAt * 1000))
  const t0 = performance.now()
  await Promise.all(Array.from({ length: CLIENTS }, client))
  const elapsed = (performance.now() - t0) / 1000
  await folded
  clearInterval(sampler)
  return { turnsPerS: turns / elapsed, maxTurnMs, stallMax: stall.stop().max, gcMax: gc.stop(), peakRssMb: peak, foldMs, foldSliceMs }
}

/** The longest garbage-collection pause between start() and stop(), in ms (to tell GC from our code). */
function gcPauses (): { stop: () => number } {
  let max = 0
  const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) max = Math.max(max, e.duration) })
  obs.observe({ entryTypes: ['gc'] })
  return { stop: () => { obs.disconnect(); return max } }
}

// The load client, in its own process: CLIENTS keep-alive connections posting chat turns for a while.
const CLIENT = `
import { Agent, request } from 'node:http'
const [url, token, seconds, users, prefix] = process.argv.slice(1)
const agent = new Agent({ keepAlive: true, maxSockets: ${CLIENTS} })
const end = performance.now() + Number(seconds) * 1000
const times = []
let errors = 0
let n = 0
const user = () => { let i; do { i = Math.floor(Math.random() * Number(users)) } while (i % 3 === 0); return prefix + i }
const one = () => new Promise((resolve) => {
  const body = JSON.stringify({ message: 'hello number ' + (n++), userId: user() })
  const a = performance.now()
  const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token, 'content-length': Buffer.byteLength(body) } }, (res) => {
    if (res.statusCode !== 200) errors++
    res.resume()
    res.on('end', () => { times.push(performance.now() - a); resolve() })
  })
  req.on('error', () => { errors++; resolve() })
  req.end(body)
})
const t0 = performance.now()
await Promise.all(Array.from({ length: ${CLIENTS} }, async () => { while (performance.now() < end) await one() }))
const elapsed = (performance.now() - t0) / 1000
times.sort((a, b) => a - b)
process.stdout.write(JSON.stringify({ turnsPerS: times.length / elapsed, maxMs: times.at(-1) ?? NaN, p99Ms: times[Math.floor(times.length * 0.99)] ?? NaN, errors }) + '\\n')
`

interface HttpRound { turnsPerS: number; maxMs: number; p99Ms: number; errors: number; stallMax: number; gcMax: number; stopMs: number; foldMs: number }

/**
 * The whole plugin on `dataDir` as a host runs it (index.js and its bundle under plain node, its own
 * process), the fake model in another process, chat turns over HTTP from a client process. The
 * plugin reports its longest event-loop stall and GC pause and its stop time (bench/plain-servers.mjs).
 */
async function httpRound (dataDir: string, seconds: number, users: number, prefix: 'u' | 'n', foldAt?: number): Promise<HttpRound> {
  const fake = await startServerProcess('fake-model')
  const plugin = await startServerProcess('plugin', {
    dataDir,
    monitor: true,
    config: { channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }], chat: { userRateLimitPerMinute: 0 } },
    ...(foldAt === undefined ? {} : { foldAfterMs: (WARMUP_S + foldAt) * 1000 })
  })
  const load = (s: number): Promise<string> => new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, plugin.url + '/api/chat', plugin.token ?? '', String(s), String(users), prefix], { stdio: ['ignore', 'pipe', 'inherit'] })
    let text = ''
    child.stdout.on('data', (d: Buffer) => { text += d.toString() })
    child.on('error', reject)
    child.on('close', () => resolve(text))
  })
  try {
    // warm-up, not measured: the first chat after a start loads the model client and compiles the
    // chat path (the restart benches measure that first answer)
    await load(WARMUP_S)
    plugin.resetStats()
    const out = await load(seconds)
    // a fold still running when the load ends is abandoned by the stop (it resumes at the next start)
    await plugin.stop()
    const seen = plugin.stats()
    if (!seen) throw new Error('the plugin reported no figures')
    const r = JSON.parse(out) as { turnsPerS: number; maxMs: number; p99Ms: number; errors: number }
    return { ...r, stallMax: seen.stallMax, gcMax: seen.gcMax, stopMs: seen.stopMs, foldMs: seen.foldMs }
  } finally {
    await plugin.stop()
    await fake.stop()
  }
}

async function stop (rt: Runtime): Promise<number> {
  const a = performance.now()
  for (const fn of rt.onStop) await fn()
  return performance.now() - a
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

export async function run (): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'lingxi-bench-convgrowth-'))
  const dataDir = join(root, 'big')
  try {
    mkdirSync(dataDir)
    const file = join(dataDir, 'conversations.json')
    const owners = seed(file, COUNT, Date.now())
    const diskMb = fileMb(file)
    const emptyIds = Array.from({ length: 1000 }, (_, i) => ({ id: `private:e${i}`, userId: `e${i}` }))
    // Three interleaved rounds (an empty store, then the big one reopened), medians; the machine's
    // load drifts, so one long run of each would compare different moments. The whole big store is
    // folded once, in the second round; the longest stall is the worst of every big round.
    const emptyRates: number[] = []
    const bigRates: number[] = []
    let stallMax = 0
    let gcMax = 0
    let maxTurnMs = 0
    let peakRssMb = 0
    let stopMs = 0
    let foldMs = NaN
    let foldSliceMs = NaN
    let openMs = NaN
    let reopenMs = NaN
    let rssLoaded = NaN
    let kept = 0
    for (let round = 0; round < (STORE ? ROUNDS : 0); round++) {
      const emptyRt = runtime(mkdtempSync(join(root, 'empty-')))
      const empty = await ConversationStore.open(emptyRt)
      if (round === 0) await sustained(empty, emptyIds, 1) // warm-up (JIT), not measured
      emptyRates.push((await sustained(empty, emptyIds, EMPTY_WINDOW_S)).turnsPerS)
      await stop(emptyRt)

      globalThis.gc?.()
      const rt = runtime(dataDir)
      const t0 = performance.now()
      const store = await ConversationStore.open(rt)
      if (round === 0) {
        openMs = performance.now() - t0
        globalThis.gc?.()
        rssLoaded = rssMb()
      } else reopenMs = performance.now() - t0 // the snapshot plus the journal of the rounds before
      kept = store.list().length
      const big = await sustained(store, owners, BIG_WINDOW_S, round === 1 ? BIG_WINDOW_S / 3 : undefined)
      bigRates.push(big.turnsPerS)
      stallMax = Math.max(stallMax, big.stallMax)
      gcMax = Math.max(gcMax, big.gcMax)
      maxTurnMs = Math.max(maxTurnMs, big.maxTurnMs)
      peakRssMb = Math.max(peakRssMb, big.peakRssMb)
      if (round === 1) { foldMs = big.foldMs; foldSliceMs = big.foldSliceMs }
      stopMs = Math.max(stopMs, await stop(rt))
    }

    const k = `${COUNT / 1000}k`
    const ratio = median(bigRates) / median(emptyRates)
    const window = `${round(BIG_WINDOW_S * ROUNDS)} s`
    const rows: BenchRow[] = [{ name: `conversations-growth: ${k} conversations on disk`, figure: round(diskMb), unit: 'MB', target: '(report)', pass: true }]
    if (STORE) {
      rows.push(
        { name: 'conversations-growth: sustained turns/s, empty store (median)', figure: round(median(emptyRates)), unit: 'turns/s', target: '(report)', pass: true },
        { name: `conversations-growth: sustained turns/s, ${k} conversations (median)`, figure: round(median(bigRates)), unit: 'turns/s', target: '(report)', pass: true },
        { name: `conversations-growth: turns/s ${k} vs empty`, figure: round(ratio * 100), unit: '%', target: '>= 80', pass: ratio >= 0.8 },
        { name: `conversations-growth: longest event-loop stall in ${window} of chat, one whole fold (${k})`, figure: round(stallMax), unit: 'ms', target: '< 100', pass: stallMax < 100 },
        { name: `conversations-growth: longest GC pause in that time (${k})`, figure: round(gcMax), unit: 'ms', target: '(report)', pass: true },
        { name: `conversations-growth: slowest turn, acked on disk (${k})`, figure: round(maxTurnMs), unit: 'ms', target: '< 100', pass: maxTurnMs < 100 },
        { name: `conversations-growth: fold of the whole store while chatting (${k})`, figure: round(foldMs), unit: 'ms', target: '(report)', pass: Number.isFinite(foldMs) },
        { name: `conversations-growth: longest the fold held the event loop (${k})`, figure: round(foldSliceMs), unit: 'ms', target: '< 20', pass: foldSliceMs < 20 },
        { name: `conversations-growth: stop, worst of ${ROUNDS} (${k})`, figure: round(stopMs), unit: 'ms', target: '< 300', pass: stopMs < 300 },
        { name: `conversations-growth: open (${k})`, figure: round(openMs), unit: 'ms', target: '(report)', pass: true },
        { name: `conversations-growth: reopen, journal replayed (${k})`, figure: round(reopenMs), unit: 'ms', target: '(report)', pass: kept >= COUNT },
        { name: 'conversations-growth: RSS loaded / data on disk', figure: round(rssLoaded / diskMb), unit: 'x', target: '< 3', pass: rssLoaded / diskMb < 3 },
        { name: 'conversations-growth: peak RSS while chatting', figure: round(peakRssMb), unit: 'MB', target: '(report)', pass: true }
      )
    }
    if (HTTP) {
      // new users (`n<i>`, no history) on an empty store and on the big one; the big store's own users
      // (`u<i>`, seeded history) on it and on a store of just 1,000 conversations seeded the same way
      const smallDir = join(root, 'small')
      mkdirSync(smallDir)
      seed(join(smallDir, 'conversations.json'), 1000, Date.now())
      // after the store half, a big store of its own, seeded the same way: the store half leaves tens of
      // thousands of journal lines in its folder, whose fold would then run in the background of these rounds
      let bigDir = dataDir
      if (STORE) {
        bigDir = join(root, 'http-big')
        mkdirSync(bigDir)
        seed(join(bigDir, 'conversations.json'), COUNT, Date.now())
      }
      const e: HttpRound[] = []
      const bNew: HttpRound[] = []
      const small: HttpRound[] = []
      const b: HttpRound[] = []
      for (let r = 0; r < ROUNDS; r++) {
        e.push(await httpRound(mkdtempSync(join(root, 'http-empty-')), EMPTY_WINDOW_S, 1000, 'n'))
        bNew.push(await httpRound(bigDir, EMPTY_WINDOW_S, 1000, 'n'))
        small.push(await httpRound(smallDir, EMPTY_WINDOW_S, 1000, 'u'))
        b.push(await httpRound(bigDir, BIG_WINDOW_S, COUNT, 'u', r === 1 ? BIG_WINDOW_S / 3 : undefined))
      }
      const rate = (xs: HttpRound[]): number => median(xs.map((x) => x.turnsPerS))
      const newRatio = rate(bNew) / rate(e)
      const hr = rate(b) / rate(small)
      const worst = (f: (x: HttpRound) => number): number => Math.max(...[...b, ...bNew].map(f))
      const ok = (xs: HttpRound[]): boolean => xs.every((x) => x.errors === 0)
      rows.push(
        { name: 'conversations-growth HTTP: POST /api/chat turns/s, new users, empty store (client process, fake model, median)', figure: round(rate(e)), unit: 'turns/s', target: '(report)', pass: ok(e) },
        { name: `conversations-growth HTTP: turns/s, new users, ${k} conversations (median)`, figure: round(rate(bNew)), unit: 'turns/s', target: '(report)', pass: ok(bNew) },
        { name: `conversations-growth HTTP: new users, turns/s ${k} vs empty`, figure: round(newRatio * 100), unit: '%', target: '>= 80', pass: newRatio >= 0.8 },
        { name: 'conversations-growth HTTP: turns/s, users with 4-32 messages of history, store of 1k (median)', figure: round(rate(small)), unit: 'turns/s', target: '(report)', pass: ok(small) },
        { name: `conversations-growth HTTP: turns/s, the same kind of users, ${k} conversations (median)`, figure: round(rate(b)), unit: 'turns/s', target: '(report)', pass: ok(b) },
        { name: `conversations-growth HTTP: users with history, turns/s ${k} vs 1k`, figure: round(hr * 100), unit: '%', target: '>= 80', pass: hr >= 0.8 },
        { name: `conversations-growth HTTP: users with history on ${k} vs new users on an empty store (report)`, figure: round(rate(b) / rate(e) * 100), unit: '%', target: '(report)', pass: true },
        { name: `conversations-growth HTTP: slowest request in ${window}, one whole fold (${k})`, figure: round(worst((x) => x.maxMs)), unit: 'ms', target: '< 100', pass: worst((x) => x.maxMs) < 100 },
        { name: `conversations-growth HTTP: request p99, worst round (${k})`, figure: round(worst((x) => x.p99Ms)), unit: 'ms', target: '(report)', pass: true },
        { name: `conversations-growth HTTP: longest server event-loop stall (${k})`, figure: round(worst((x) => x.stallMax)), unit: 'ms', target: '< 100', pass: worst((x) => x.stallMax) < 100 },
        { name: `conversations-growth HTTP: longest server GC pause (${k})`, figure: round(worst((x) => x.gcMax)), unit: 'ms', target: '(report)', pass: true },
        { name: `conversations-growth HTTP: plugin stop after chatting, worst (${k})`, figure: round(worst((x) => x.stopMs)), unit: 'ms', target: '< 300', pass: worst((x) => x.stopMs) < 300 }
      )
    }
    return rows
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
