// Shared pieces of the growth benches (bench/memory-growth.bench.ts, bench/knowledge-growth.bench.ts):
// seeding a store file the way JournalStore writes its snapshot ({meta, g, records}, a record a line), streamed in chunks so
// a million records never sit in one string; the event-loop delay monitor; a fake chat turn for the
// prompt contributors; and the plugin started on a data folder.
import { closeSync, openSync, statSync, writeSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { ResolvedPreset, TurnContext } from '../lib/chat/contracts.js'

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
