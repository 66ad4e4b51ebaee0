// Issue 3 targets: authenticated GET /api/system/status throughput at least 50% of a bare Koa
// "hello" server in the same run; plugin ready under 500 ms after import; idle RSS reported.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Koa from 'koa'
import { startLingxi } from '../tests/support/server.js'
import { load } from './load.js'
import type { BenchRow } from './types.js'

function listen (server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => { resolve((server.address() as AddressInfo).port) }))
}

function readyInFreshProcess (dataDir: string, extraEnv: Record<string, string> = {}): { importMs: number; readyMs: number; rss: number } {
  const script = fileURLToPath(new URL('./foundation-ready.mjs', import.meta.url))
  // plain node, as a host runs it (no tsx loader inherited from the bench runner)
  const { NODE_OPTIONS: _drop, ...env } = process.env
  const r = spawnSync(process.execPath, ['--expose-gc', script], { env: { ...env, LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0', LINGXI_QUIET: '1', ...extraEnv }, encoding: 'utf8' })
  const line = r.stdout.split('\n').find((l) => l.startsWith('READY '))
  if (!line) throw new Error(`ready probe failed: ${r.stderr}`)
  return JSON.parse(line.slice(6)) as { importMs: number; readyMs: number; rss: number }
}

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-'))
  process.env.LINGXI_PORT = '0'
  try {
    const bare = new Koa()
    bare.use((ctx) => { ctx.body = 'hello' })
    const bareServer = createServer(bare.callback())
    const barePort = await listen(bareServer)
    const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir } })
    const { token } = lx.rt.loginTokens.issue({ userId: 'bench', isMaster: true })
    const session = lx.rt.sessions.issue('bench', true).token
    void token
    const headers = { Authorization: `Bearer ${session}` }
    // Warm up both, then measure alternately so machine noise hits both alike.
    await load(`http://127.0.0.1:${barePort}/`, { durationMs: 500 })
    await load(`${lx.web.localUrl}/api/system/status`, { headers, durationMs: 500 })
    let bareRps = 0
    let statusRps = 0
    let statusErrors = 0
    for (let i = 0; i < 2; i++) {
      bareRps += (await load(`http://127.0.0.1:${barePort}/`, { durationMs: 1500 })).rps
      const s = await load(`${lx.web.localUrl}/api/system/status`, { headers, durationMs: 1500 })
      statusRps += s.rps
      statusErrors += s.errors
    }
    await lx.stop()
    await new Promise<void>((r) => bareServer.close(() => { r() }))
    const ratio = statusRps / bareRps
    const root = fileURLToPath(new URL('..', import.meta.url))
    const loader = await import(pathToFileURL(join(root, 'boot/load-plugin.mjs')).href) as { bundleFor(root: string): Promise<string> }
    const b0 = performance.now()
    rmSync(await loader.bundleFor(root))
    await loader.bundleFor(root) // built once per version (first start after install or pull)
    const buildMs = performance.now() - b0
    const samples = [0, 1, 2].map(() => readyInFreshProcess(dataDir))
    const ready = samples.map((s) => s.readyMs).sort((a, b) => a - b)[1] as number
    const viaTsx = [0, 1, 2].map(() => readyInFreshProcess(dataDir, { LINGXI_BUNDLE: '0' })).map((s) => s.readyMs).sort((a, b) => a - b)[1] as number
    const rss = samples.map((s) => s.rss).sort((a, b) => a - b)[1] as number
    return [
      { name: 'bare Koa hello', figure: bareRps / 2, unit: 'req/s', target: 'reference', pass: true },
      { name: 'GET /api/system/status (auth)', figure: statusRps / 2, unit: 'req/s', target: 'no errors', pass: statusErrors === 0 },
      { name: 'status vs bare Koa', figure: ratio * 100, unit: '%', target: '>= 50%', pass: ratio >= 0.5 },
      { name: 'import index.js to listening (median of 3)', figure: ready, unit: 'ms', target: '< 500 ms', pass: ready < 500 },
      { name: 'bundle build after a source change (once per version)', figure: buildMs, unit: 'ms', target: 'reported', pass: true },
      { name: 'import to listening through tsx (LINGXI_BUNDLE=0)', figure: viaTsx, unit: 'ms', target: 'reported', pass: true },
      { name: 'idle RSS after start', figure: rss / 1048576, unit: 'MiB', target: 'reported', pass: true }
    ]
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
