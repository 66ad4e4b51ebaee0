// Issue 17: a chat turn as a user's client meets it. The fake model (tests/support/fake-openai.ts), the
// plugin (loaded through index.js, one channel pointing at that fake model) and the load clients each
// run in their own process. 16 concurrent clients send POST /api/chat (one user each); the reference is
// the openai client calling the same fake model directly with 16 concurrent calls. A second reference,
// the floor of any Koa + openai design: bare Koa relaying each message through the openai client in
// its own process (plain-servers.mjs koa-chat). A third: the openai client sending directly the very
// request the plugin sends in a steady conversation (system prompt, history and the offered tools,
// captured from the plugin beforehand), which tells the cost of what is asked from the model from the
// cost of the plugin's own work. Three rounds, the four parties interleaved; figures are medians.
// The plugin's CPU per turn is reported too: on a shared machine it is far steadier than the p50s.
// Target: at most 3 ms p50 added over calling the model directly.
import { CLIENT_WARMUP_MS, runLoad, SERVER_WARMUP_MS, type LoadResult } from './load-client.js'
import { cpuMicros, startServerProcess, type ServerProcess } from './server-child.js'
import type { BenchRow } from './types.js'

const CLIENTS = 16
const DURATION_MS = Number(process.env.LINGXI_BENCH_LOAD_MS ?? 3000)
const ROUNDS = 3
const MODEL = 'gpt-bench'

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

const pluginConfig = (modelUrl: string): Record<string, unknown> => ({
  channels: [{ name: 'fake', baseUrl: modelUrl, apiKey: 'sk-bench', model: MODEL, models: [MODEL] }],
  chat: { userRateLimitPerMinute: 0 }
})
const messagesOf = (r: Record<string, unknown>): number => (r.messages as unknown[] | undefined)?.length ?? 0
const toolsOf = (r: Record<string, unknown>): number => (r.tools as unknown[] | undefined)?.length ?? 0

/** The request the plugin sends the model once a conversation is long enough to fill its context window. */
async function pluginRequest (): Promise<Record<string, unknown>> {
  const { startFakeOpenAI } = await import('../tests/support/fake-openai.js')
  const capture = await startFakeOpenAI({ models: [MODEL] })
  const plugin = await startServerProcess('plugin', { config: pluginConfig(capture.url) })
  try {
    for (let i = 0; i < 15; i++) {
      const r = await fetch(`${plugin.url}/api/chat`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${plugin.token ?? ''}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: `hello from client ${i}`, userId: 'bench0' })
      })
      if (!r.ok) throw new Error(`capturing the plugin's request: ${r.status} ${await r.text()}`)
    }
    const body = capture.chatRequests().at(-1)?.body
    if (!body) throw new Error('the plugin sent the model no request')
    return body as Record<string, unknown>
  } finally {
    await plugin.stop()
    await capture.close()
  }
}

export async function run (): Promise<BenchRow[]> {
  const servers: ServerProcess[] = []
  try {
    const fake = await startServerProcess('fake-model')
    servers.push(fake)
    const captured = await pluginRequest()
    const plugin = await startServerProcess('plugin', { config: pluginConfig(fake.url) })
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
    const sameRequest = { ...direct, request: captured }
    const specs = { plugin: viaPlugin, direct, floor: viaFloor, sameRequest }
    type Party = keyof typeof specs
    const parties: Party[] = ['plugin', 'direct', 'floor', 'sameRequest']
    for (const p of parties) await runLoad({ ...specs[p], durationMs: SERVER_WARMUP_MS })
    const results: Record<Party, LoadResult[]> = { plugin: [], direct: [], floor: [], sameRequest: [] }
    // the plugin's CPU per turn (from the end of its client's warm-up, as its turn count): on a shared
    // machine far steadier than the p50 difference, which moves with the other processes' load
    const pluginCpu: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < parties.length; i++) {
        const which = parties[(i + round) % parties.length] as Party
        let before = NaN
        const r = await runLoad({ ...specs[which], durationMs: DURATION_MS, warmupMs: CLIENT_WARMUP_MS },
          which === 'plugin' ? { onMeasured: () => { before = cpuMicros(plugin.pid) } } : {})
        if (which === 'plugin') pluginCpu.push((cpuMicros(plugin.pid) - before) / r.requests)
        results[which].push(r)
      }
    }
    const fig = (which: Party, key: 'p50' | 'p99' | 'rps'): number => median(results[which].map((r) => r[key]))
    const errors = results.plugin.reduce((n, r) => n + r.errors, 0)
    const addedBy = (which: Party, over: Party = 'direct'): number => median(results[which].map((r, i) => r.p50 - (results[over][i]?.p50 ?? NaN)))
    const added = addedBy('plugin')
    const r2 = (n: number): number => Math.round(n * 100) / 100
    return [
      { name: 'chat turn, openai client -> fake model directly, 16 clients (p50)', figure: r2(fig('direct', 'p50')), unit: 'ms', target: 'reference', pass: true },
      { name: 'chat turn, bare Koa relaying through the openai client, 16 clients (p50)', figure: r2(fig('floor', 'p50')), unit: 'ms', target: 'reference', pass: true },
      { name: 'p50 added by the bare Koa relay over the direct call (the floor)', figure: r2(addedBy('floor')), unit: 'ms', target: 'reference', pass: true },
      { name: `the plugin's request (${messagesOf(captured)} messages, ${toolsOf(captured)} tools) sent directly by the openai client, 16 clients (p50)`, figure: r2(fig('sameRequest', 'p50')), unit: 'ms', target: 'reference', pass: true },
      { name: 'p50 added by the plugin over sending its request directly', figure: r2(addedBy('plugin', 'sameRequest')), unit: 'ms', target: 'reported', pass: true },
      { name: 'chat turn, POST /api/chat through the plugin, 16 clients (p50)', figure: r2(fig('plugin', 'p50')), unit: 'ms', target: 'no errors', pass: errors === 0 },
      { name: 'chat turn through the plugin (p99)', figure: r2(fig('plugin', 'p99')), unit: 'ms', target: 'reported', pass: true },
      { name: 'chat turns/s through the plugin, 16 clients', figure: fig('plugin', 'rps'), unit: 'turns/s', target: 'reported', pass: true },
      { name: 'plugin CPU per chat turn (steadier than the p50s on a shared machine)', figure: Math.round(median(pluginCpu)), unit: 'µs', target: 'reported', pass: true },
      { name: 'p50 added by the plugin over the direct call (median of 3)', figure: r2(added), unit: 'ms', target: '<= 3 ms', pass: added <= 3 }
    ]
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
}
