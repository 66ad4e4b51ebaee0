// The servers of the external benchmarks that run under plain node, with no loader, as a host runs
// them: the plugin (index.js and its bundle, boot/load-plugin.mjs) and the bare Koa and node:http
// "hello" baselines. Started by startServerProcess (server-child.ts); under tsx, importing index.js
// would load index.ts and its sources instead of the bundle a user runs.
// Run as: node bench/plain-servers.mjs <plugin|koa|koa-status|koa-chat|http> '<JSON options>' -> one `SERVER {...}` line.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => { resolve(`http://127.0.0.1:${server.address().port}`) }))
const closer = (server) => () => new Promise((resolve) => { server.close(() => { resolve() }); server.closeAllConnections() })

async function serve (kind, opts) {
  if (kind === 'http') {
    const server = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('hello') })
    return { info: { url: await listen(server) }, close: closer(server) }
  }
  if (kind === 'koa') {
    const { default: Koa } = await import('koa')
    const app = new Koa()
    app.use((ctx) => { ctx.body = 'hello' })
    const server = createServer(app.callback())
    return { info: { url: await listen(server) }, close: closer(server) }
  }
  if (kind === 'koa-status') {
    // bare Koa answering what the plugin's /api/system/status answers (same headers and body size):
    // tells the cost of the answer itself from the cost of the plugin's middleware
    const { default: Koa } = await import('koa')
    const app = new Koa()
    const started = new Date().toISOString()
    app.use((ctx) => {
      ctx.set('X-Content-Type-Options', 'nosniff')
      ctx.set('X-Frame-Options', 'DENY')
      ctx.set('Referrer-Policy', 'no-referrer')
      ctx.set('Cache-Control', 'no-store')
      ctx.body = { success: true, data: { status: 'running', version: '0.1.0', uptime: Math.floor(process.uptime()), startTime: started, runtime: `Node.js ${process.version}`, memory: { used: 81801216, total: 25276514304, percentage: 0.32 }, bot: { connected: false, platform: 'miao', uin: '' } } }
    })
    const server = createServer(app.callback())
    server.keepAliveTimeout = 65_000
    return { info: { url: await listen(server) }, close: closer(server) }
  }
  if (kind === 'koa-chat') {
    // the floor of any Koa + openai design: bare Koa parsing the JSON body and relaying the message to
    // the fake model through the openai client (opts.modelUrl, opts.model), answering its reply; no
    // auth, history, tools or records (the chat-turn bench's second reference)
    const [{ default: Koa }, { koaBody }, { default: OpenAI }] = await Promise.all([import('koa'), import('koa-body'), import('openai')])
    const client = new OpenAI({ apiKey: 'sk-bench', baseURL: opts.modelUrl, maxRetries: 0 })
    const app = new Koa()
    app.use(koaBody())
    app.use(async (ctx) => {
      const r = await client.chat.completions.create({ model: opts.model, messages: [{ role: 'user', content: String(ctx.request.body.message) }] })
      ctx.body = { success: true, data: { reply: r.choices[0]?.message?.content ?? '' } }
    })
    const server = createServer(app.callback())
    server.keepAliveTimeout = 65_000
    return { info: { url: await listen(server) }, close: closer(server) }
  }
  if (kind !== 'plugin') throw new Error(`unknown server kind ${kind}`)
  // opts.dataDir: a seeded data folder (growth benches), kept at the end; else a new empty one
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'lingxi-bench-'))
  process.env.LINGXI_DATA_DIR = dataDir
  process.env.LINGXI_PORT = '0'
  globalThis.plugin ??= class { constructor (o = {}) { Object.assign(this, o) } }
  const root = fileURLToPath(new URL('..', import.meta.url))
  // build the bundle first: a build failure stops the bench instead of measuring the tsx fallback
  const { bundleFor } = await import(pathToFileURL(join(root, 'boot/load-plugin.mjs')).href)
  await bundleFor(root)
  const { lingxi } = await import(pathToFileURL(join(root, 'index.js')).href)
  const run = await lingxi.start()
  if (opts.config) await run.rt.config.update(opts.config)
  const token = run.rt.sessions.issue('bench', true).token
  // opts.ready: services whose ready() is awaited before answering (a growth bench's search index);
  // then the resident memory after a full collection (with --expose-gc), as the host process holds it
  for (const name of opts.ready ?? []) await run.rt.need(name).ready()
  globalThis.gc?.()
  const rssMb = process.memoryUsage.rss() / 1048576
  // opts.monitor: the longest event-loop stall and GC pause from now on, and the stop time, printed as
  // one `STATS {...}` line when the server is told to close; opts.foldAfterMs: the conversations'
  // journal is folded into their snapshot that long after listening (a growth bench's worst moment)
  const monitor = opts.monitor ? startMonitor() : undefined
  // SIGUSR2: the figures start again (after the parent's warm-up requests)
  if (monitor) process.on('SIGUSR2', () => { monitor.reset() })
  let foldMs = NaN
  if (opts.foldAfterMs !== undefined) {
    setTimeout(() => {
      const a = performance.now()
      void run.rt.need('conversations').store.fold().then(() => { foldMs = performance.now() - a })
    }, opts.foldAfterMs)
  }
  const close = async () => {
    const seen = monitor?.stop()
    const a = performance.now()
    await lingxi.stop()
    if (seen) process.stdout.write(`STATS ${JSON.stringify({ ...seen, foldMs, stopMs: performance.now() - a })}\n`)
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
  return { info: { url: run.localUrl, token, rssMb }, close }
}

function startMonitor () {
  const h = monitorEventLoopDelay({ resolution: 1 })
  h.enable()
  let gcMax = 0
  const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration) })
  obs.observe({ entryTypes: ['gc'] })
  return {
    reset: () => { h.reset(); gcMax = 0 },
    stop: () => { h.disable(); obs.disconnect(); return { stallMax: h.max / 1e6, gcMax } }
  }
}

const s = await serve(process.argv[2], JSON.parse(process.argv[3] ?? '{}'))
let closing = false
const close = async () => {
  if (closing) return
  closing = true
  await s.close()
  process.exit(0) // process.exit also writes a --cpu-prof profile
}
process.on('SIGTERM', () => { void close() })
process.stdin.on('end', () => { void close() })
process.stdin.resume()
process.stdout.write(`SERVER ${JSON.stringify({ ...s.info, pid: process.pid })}\n`)
