// Shared pieces of the growth benches (bench/memory-growth.bench.ts, bench/knowledge-growth.bench.ts):
// seeding a store file the way JournalStore writes its snapshot ({meta, g, records}, a record a line), streamed in chunks so
// a million records never sit in one string; the event-loop delay monitor; a fake chat turn for the
// prompt contributors; timing helpers; and the plugin restarted on a seeded data folder (restartAndAsk).
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { ResolvedPreset, TurnContext } from '../lib/chat/contracts.js'
import { startLingxi, type Lingxi } from '../tests/support/server.js'

export function makeRng (seed: number): () => number {
  let s = seed
  return () => (s = (s * 16807) % 2147483647) / 2147483647
}

/** Writes the journal store's snapshot layout (head line, one record per line, tail line), ~4 MB a write. */
export function writeSnapshot<R> (file: string, meta: object, count: number, record: (i: number) => R): void {
  const fd = openSync(file, 'w', 0o600)
  try {
    let buf = `{"meta":${JSON.stringify(meta)},"g":0,"records":[\n`
    for (let i = 0; i < count; i++) {
      buf += (i > 0 ? ',\n' : '') + JSON.stringify(record(i))
      if (buf.length > 4_000_000) { writeSync(fd, buf); buf = '' }
    }
    writeSync(fd, buf + '\n]}\n')
  } finally { closeSync(fd) }
}

export const fileMb = (file: string): number => statSync(file).size / 1048576

/** Longest event-loop stall seen between start() and stop(), in ms (perf_hooks, 1 ms resolution). */
export function loopDelay (): { stop: () => { max: number; p99: number } } {
  const h = monitorEventLoopDelay({ resolution: 1 })
  h.enable()
  return { stop: () => { h.disable(); return { max: h.max / 1e6, p99: h.percentile(99) / 1e6 } } }
}

export function turn (input: string, userId: string, presetId = 'default'): TurnContext {
  const preset = { id: presetId, memory: { enabled: true, maxMemories: 10 }, knowledge: { enabled: true } } as unknown as ResolvedPreset
  return { scope: { userId } as TurnContext['scope'], preset, input }
}

export const round = (n: number): number => Math.round(n * 100) / 100
export const rssMb = (): number => process.memoryUsage().rss / 1048576

export function timed<T> (fn: () => T): [T, number] { const a = performance.now(); const v = fn(); return [v, performance.now() - a] }
export async function timedAsync<T> (fn: () => Promise<T>): Promise<[T, number]> { const a = performance.now(); const v = await fn(); return [v, performance.now() - a] }

export interface Restart {
  lx: Lingxi
  /** start until listening */
  listenMs: number
  /** the contributor's first answer after listening, and how long it took */
  first: string | undefined
  firstMs: number
  /** until `ready` resolved (the search index complete), counted from listening */
  buildMs: number
  /** event-loop delay from the first question until the index was complete */
  stall: { max: number; p99: number }
}

/**
 * The plugin restarted on a seeded data folder, as a user meets it: one start on an empty folder
 * first (so loading the modules is not timed), then the timed start, the first answer of the named
 * prompt contributor while the search index builds, and the wait for `ready`.
 */
export async function restartAndAsk (dataDir: string, contributor: string, question: TurnContext, ready: (lx: Lingxi) => Promise<void>): Promise<Restart> {
  process.env.LINGXI_PORT = '0'
  const env = { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' }
  const emptyDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-growth-empty-'))
  await (await startLingxi({ env: { ...env, LINGXI_DATA_DIR: emptyDir } })).stop()
  rmSync(emptyDir, { recursive: true, force: true })

  const t0 = performance.now()
  const lx = await startLingxi({ env })
  const listenMs = performance.now() - t0
  const c = lx.rt.chat.contributors.find((x) => x.name === contributor)
  if (!c) { await lx.stop(); throw new Error(`no prompt contributor named ${contributor}`) }
  const building = loopDelay()
  const [first, firstMs] = await timedAsync(() => c.contribute(question))
  const t1 = performance.now()
  await ready(lx)
  const buildMs = performance.now() - t1 + firstMs
  return { lx, listenMs, first, firstMs, buildMs, stall: building.stop() }
}
