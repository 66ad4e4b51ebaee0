// Plugin overhead of one chat turn (preset, prompt sections, context, storage, observers, stats)
// with a zero-latency in-process model: p50 < 2 ms, p99 < 10 ms.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelGateway, ModelRequest, ModelResponse } from '../lib/chat/contracts.js'
import { startLingxi } from '../tests/support/server.js'
import { percentile, type BenchRow } from './types.js'

const zeroLatency: ModelGateway = {
  complete: async (req: ModelRequest): Promise<ModelResponse> => ({
    content: `ok ${req.messages.length}`, toolCalls: [], usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 }, model: 'bench', channel: 'bench', finishReason: 'stop', latencyMs: 0
  }),
  stream: async (req, onDelta) => { const r = await zeroLatency.complete(req); onDelta(r.content); return r }
}

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-'))
  process.env.LINGXI_PORT = '0'
  const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' } })
  try {
    lx.rt.withdraw('models')
    lx.rt.provide('models', zeroLatency)
    const chat = lx.rt.need('conversations').pipeline
    if (!chat) throw new Error('chat pipeline missing')
    const r = (n: number): number => Math.round(n * 1000) / 1000
    const rows: BenchRow[] = []
    // Small store: a fresh install (5 conversations of at most 20 messages, conversations.json ~10 KB).
    // Large store: 50 conversations of up to 200 messages (~300 KB; a turn appends one journal line).
    for (const [label, users, maxStored] of [['small store', 5, 20], ['large store', 50, 200]] as const) {
      await lx.rt.config.update({ chat: { userRateLimitPerMinute: 0, maxStoredMessages: maxStored } })
      await lx.rt.need('conversations').store.clearAll()
      const turn = async (i: number): Promise<number> => {
        const userId = `u${i % users}`
        const t0 = performance.now()
        await chat.reply({ userId, isMaster: false, via: 'api', conversationId: `private:${userId}` }, `message number ${i}`)
        return performance.now() - t0
      }
      for (let i = 0; i < 300; i++) await turn(i) // warm-up
      const times: number[] = []
      for (let i = 0; i < 2000; i++) times.push(await turn(i))
      const p50 = percentile(times, 50)
      const p99 = percentile(times, 99)
      rows.push({ name: `chat turn overhead, zero-latency model, ${label} (p50)`, figure: r(p50), unit: 'ms', target: '< 2', pass: p50 < 2 })
      rows.push({ name: `chat turn overhead, zero-latency model, ${label} (p99)`, figure: r(p99), unit: 'ms', target: '< 10', pass: p99 < 10 })
    }
    return rows
  } finally {
    await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
