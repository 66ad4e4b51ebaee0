// Measured in a fresh process by foundation.bench.ts: time from importing the plugin to its web
// server listening, and the idle RSS once started.
import { performance } from 'node:perf_hooks'

const t0 = performance.now()
const { startLingxi } = await import('../routes/index.js')
const imported = performance.now()
const lx = await startLingxi()
const ready = performance.now()
await new Promise((r) => setTimeout(r, 500))
;(globalThis as { gc?: () => void }).gc?.()
const rss = process.memoryUsage().rss
await lx.stop()
process.stdout.write(`READY ${JSON.stringify({ importMs: imported - t0, readyMs: ready - t0, rss })}\n`)
process.exit(0)
