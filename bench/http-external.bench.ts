// Issue 17: authenticated GET /api/system/status measured from outside, as a user's client meets it.
// The plugin (loaded through index.js), a bare Koa and a bare node:http "hello" server each run in
// their own process; the load client runs in its own process too (bench/load-client.ts). Three
// rounds, the servers interleaved within each round; the figures are the medians of the rounds. Every
// server runs on one CPU and every load client on another (pin.ts: why).
// Targets: status throughput at least 0.6x bare Koa's, p99 at 100 connections at most 2x Koa's.
import { CLIENT_WARMUP_MS, runLoad, SERVER_WARMUP_MS, type LoadResult } from './load-client.js'
import { CLIENT_CPU, SERVER_CPU } from './pin.js'
import { cpuMicros, startServerProcess, type ServerProcess } from './server-child.js'
import type { BenchRow } from './types.js'

const CONNECTIONS = 100
const DURATION_MS = Number(process.env.LINGXI_BENCH_LOAD_MS ?? 3000)
const ROUNDS = 3

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

export async function run (): Promise<BenchRow[]> {
  const servers: ServerProcess[] = []
  try {
    const plugin = await startServerProcess('plugin', { cpu: SERVER_CPU })
    servers.push(plugin)
    const koa = await startServerProcess('koa', { cpu: SERVER_CPU })
    servers.push(koa)
    const http = await startServerProcess('http', { cpu: SERVER_CPU })
    servers.push(http)
    // bare Koa answering the same headers and body as the status route: what the answer itself costs
    // the server and the client (a reference beside the target, which stays against Koa's hello)
    const koaStatus = await startServerProcess('koa-status', { cpu: SERVER_CPU })
    servers.push(koaStatus)
    const targets = [
      { name: 'status', pid: plugin.pid, url: `${plugin.url}/api/system/status`, headers: { Authorization: `Bearer ${plugin.token ?? ''}` } },
      { name: 'koa', pid: koa.pid, url: `${koa.url}/` },
      { name: 'http', pid: http.pid, url: `${http.url}/` },
      { name: 'koaStatus', pid: koaStatus.pid, url: `${koaStatus.url}/` }
    ]
    // warm-up (JIT, connection set-up) for each server
    for (const t of targets) await runLoad({ url: t.url, ...(t.headers ? { headers: t.headers } : {}), connections: CONNECTIONS, durationMs: SERVER_WARMUP_MS, cpu: CLIENT_CPU })
    const results: Record<string, LoadResult[]> = { status: [], koa: [], http: [], koaStatus: [] }
    const cpuPerRequest: Record<string, number[]> = { status: [], koa: [], http: [], koaStatus: [] }
    for (let round = 0; round < ROUNDS; round++) {
      // rotate the order so no server always runs first (machine noise hits all alike)
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + round) % targets.length] as typeof targets[number]
        // the server's CPU from the end of the client's warm-up: r.requests counts the measured load only
        let before = NaN
        const r = await runLoad({ url: t.url, ...(t.headers ? { headers: t.headers } : {}), connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: CLIENT_WARMUP_MS, cpu: CLIENT_CPU },
          { onMeasured: () => { before = cpuMicros(t.pid) } })
        results[t.name]?.push(r)
        cpuPerRequest[t.name]?.push((cpuMicros(t.pid) - before) / r.requests)
      }
    }
    const fig = (name: string, key: 'rps' | 'p99'): number => median((results[name] ?? []).map((r) => r[key]))
    const errors = (results.status ?? []).reduce((n, r) => n + r.errors, 0)
    const ratio = fig('status', 'rps') / fig('koa', 'rps')
    const p99Ratio = fig('status', 'p99') / fig('koa', 'p99')
    const r2 = (n: number): number => Math.round(n * 100) / 100
    return [
      { name: 'bare node:http hello, external client, 100 conns', figure: fig('http', 'rps'), unit: 'req/s', target: 'reference', pass: true },
      { name: 'bare Koa hello, external client, 100 conns', figure: fig('koa', 'rps'), unit: 'req/s', target: 'reference', pass: true },
      { name: 'GET /api/system/status (auth), external client, 100 conns', figure: fig('status', 'rps'), unit: 'req/s', target: 'no errors', pass: errors === 0 },
      { name: 'status throughput vs bare Koa (median of 3)', figure: r2(ratio), unit: 'x', target: '>= 0.6x', pass: ratio >= 0.6 },
      { name: 'bare Koa answering the status route\'s headers and body, vs bare Koa hello', figure: r2(fig('koaStatus', 'rps') / fig('koa', 'rps')), unit: 'x', target: 'reference', pass: true },
      { name: 'status throughput vs that bare Koa', figure: r2(fig('status', 'rps') / fig('koaStatus', 'rps')), unit: 'x', target: 'reported', pass: true },
      { name: 'bare Koa p99, 100 conns', figure: r2(fig('koa', 'p99')), unit: 'ms', target: 'reference', pass: true },
      { name: 'status p99, 100 conns', figure: r2(fig('status', 'p99')), unit: 'ms', target: 'reported', pass: true },
      { name: 'status p99 vs bare Koa p99 (median of 3)', figure: r2(p99Ratio), unit: 'x', target: '<= 2x', pass: p99Ratio <= 2 },
      // steadier than req/s on a shared machine: what one request costs the server process
      { name: 'server CPU per request: bare Koa', figure: r2(median(cpuPerRequest.koa ?? [])), unit: 'µs', target: 'reported', pass: true },
      { name: 'server CPU per request: bare Koa answering the status body', figure: r2(median(cpuPerRequest.koaStatus ?? [])), unit: 'µs', target: 'reported', pass: true },
      { name: 'server CPU per request: authenticated status', figure: r2(median(cpuPerRequest.status ?? [])), unit: 'µs', target: 'reported', pass: true }
    ]
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
}
