// Runs one benchmark file and prints its rows as one JSON line for bench/run.ts.
import { pathToFileURL } from 'node:url'
import type { BenchRow } from './types.js'

const file = process.argv[2]
if (!file) throw new Error('usage: child.ts <file.bench.ts>')
const mod = await import(pathToFileURL(file).href) as { run(): Promise<BenchRow[]> }
const rows = await mod.run()
process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`)
process.exit(0)
