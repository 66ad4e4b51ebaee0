// Issue 17: a chat turn as a user's client meets it. The fake model (tests/support/fake-openai.ts), the
// plugin (loaded through index.js, one channel pointing at that fake model) and the load clients each
// run in their own process. 16 concurrent clients send POST /api/chat (one user each); the reference is
// the openai client calling the same fake model directly with 16 concurrent calls. A second reference,
// the floor of any Koa + openai design: bare Koa relaying each message through the openai client in
// its own process (plain-servers.mjs koa-chat). Three rounds, the three interleaved; figures are
// medians. Target: at most 3 ms p50 added over calling the model directly.
import { runLoad, type LoadResult } from './load-client.js'
import { startServerProcess, type ServerProcess } from './server-child.js'
import type { BenchRow } from './types.js'

const CLIENTS = 16
const DURATION_MS = Number(process.env.LINGXI_BENCH_LOAD_MS ?? 3000)
const ROUNDS = 3
const MODEL = 'gpt-bench'

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

export async function run (): Promise<BenchRow[]> {
  const servers: ServerProcess[] = []
  try {
    const fake = await startServerProcess('fake-model')
    servers.push(fake)
    const plugin = await startServerProcess('plugin', {
      config: {
        channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-bench', model: MODEL, models: [MODEL] }],
        chat: { userRateLimitPerMinute: 0 }
      }
    })
    servers.push(plugin)
    const floorServer = await startServerProcess('koa-chat', { modelUrl: fake.url, model: MODEL })
    servers.push(floorServer)
    const viaPlugin = {
      url: `${plugin.url}/api/chat`,
      method: 'POST',
      headers: { Authorization: `Bearer ${plugin.token ?? ''}`, 'Content-Type': 'application/json' },
      bodies: Array.from({ length: CLIENTS }, (_, i) => JSON.stringify({ message: `hello from client ${i}`, userId: `bench${i}` })),
      connections: CLIENTS
    }
    const direct = { mode: 'openai' as const, url: fake.url, model: MODEL, connections: CLIENTS }
    const viaFloor = { ...viaPlugin, url: `${floorServer.url}/`, headers: { 'Content-Type': 'application/json' } }
    const specs = { plugin: viaPlugin, direct, floor: viaFloor }
    type Party = keyof typeof specs
    const parties: Party[] = ['plugin', 'direct', 'floor']
    for (const p of parties) await runLoad({ ...specs[p], durationMs: 1000 }) // warm-up
    const results: Record<Party, LoadResult[]> = { plugin: [], direct: [], floor: [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < parties.length; i++) {
        const which = parties[(i + round) % parties.length] as Party
        results[which].push(await runLoad({ ...specs[which], durationMs: DURATION_MS }))
      }
    }
    const fig = (which: Party, key: 'p50' | 'p99' | 'rps'): number => median(results[which].map((r) => r[key]))
    const errors = results.plugin.reduce((n, r) => n + r.errors, 0)
    const addedBy = (which: Party): number => median(results[which].map((r, i) => r.p50 - (results.direct[i]?.p50 ?? NaN)))
    const added = addedBy('plugin')
    const r2 = (n: number): number => Math.round(n * 100) / 100
    return [
      { name: 'chat turn, openai client -> fake model directly, 16 clients (p50)', figure: r2(fig('direct', 'p50')), unit: 'ms', target: 'reference', pass: true },
      { name: 'chat turn, bare Koa relaying through the openai client, 16 clients (p50)', figure: r2(fig('floor', 'p50')), unit: 'ms', target: 'reference', pass: true },
      { name: 'p50 added by the bare Koa relay over the direct call (the floor)', figure: r2(addedBy('floor')), unit: 'ms', target: 'reference', pass: true },
      { name: 'chat turn, POST /api/chat through the plugin, 16 clients (p50)', figure: r2(fig('plugin', 'p50')), unit: 'ms', target: 'no errors', pass: errors === 0 },
      { name: 'chat turn through the plugin (p99)', figure: r2(fig('plugin', 'p99')), unit: 'ms', target: 'reported', pass: true },
      { name: 'chat turns/s through the plugin, 16 clients', figure: fig('plugin', 'rps'), unit: 'turns/s', target: 'reported', pass: true },
      { name: 'p50 added by the plugin over the direct call (median of 3)', figure: r2(added), unit: 'ms', target: '<= 3 ms', pass: added <= 3 }
    ]
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
}
