// Measured in a fresh plain-node process by foundation.bench.ts, the way a host loads the plugin:
// time from importing index.js to the web server listening, and the idle RSS once started.
import { performance } from 'node:perf_hooks'

// the one host global a plugin needs to load (the hosts' `plugin` base class)
globalThis.plugin = class { constructor (o) { Object.assign(this, o) } }
const t0 = performance.now()
const { lingxi } = await import('../index.js')
const imported = performance.now()
await lingxi.start()
const ready = performance.now()
await new Promise((r) => setTimeout(r, 500))
globalThis.gc?.()
const rss = process.memoryUsage().rss
await lingxi.stop()
process.stdout.write(`READY ${JSON.stringify({ importMs: imported - t0, readyMs: ready - t0, rss })}\n`)
process.exit(0)
