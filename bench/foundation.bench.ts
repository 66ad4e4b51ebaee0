// Issue 3 targets: authenticated GET /api/system/status throughput at least 50% of a bare Koa
// "hello" server in the same run; plugin ready under 500 ms after import; idle RSS reported.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Koa from 'koa'
import { startLingxi } from '../routes/index.js'
import { load } from './load.js'
import type { BenchRow } from './types.js'

function listen (server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => { resolve((server.address() as AddressInfo).port) }))
}

function readyInFreshProcess (dataDir: string): { importMs: number; readyMs: number; rss: number } {
  const script = fileURLToPath(new URL('./foundation-ready.ts', import.meta.url))
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', script], { env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0', LINGXI_QUIET: '1' }, encoding: 'utf8' })
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
    const samples = [0, 1, 2].map(() => readyInFreshProcess(dataDir))
    const ready = samples.map((s) => s.readyMs).sort((a, b) => a - b)[1] as number
    const rss = samples.map((s) => s.rss).sort((a, b) => a - b)[1] as number
    return [
      { name: 'bare Koa hello', figure: bareRps / 2, unit: 'req/s', target: 'reference', pass: true },
      { name: 'GET /api/system/status (auth)', figure: statusRps / 2, unit: 'req/s', target: 'no errors', pass: statusErrors === 0 },
      { name: 'status vs bare Koa', figure: ratio * 100, unit: '%', target: '>= 50%', pass: ratio >= 0.5 },
      { name: 'import to listening (median of 3)', figure: ready, unit: 'ms', target: '< 500 ms', pass: ready < 500 },
      { name: 'idle RSS after start', figure: rss / 1048576, unit: 'MiB', target: 'reported', pass: true }
    ]
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
