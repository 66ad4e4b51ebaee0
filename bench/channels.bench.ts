// Benchmark of the test panel's pool: a batch test of 30 models answering in 100 ms each with
// concurrency 3 should take the ideal 30 / 3 * 100 ms = 1.0 s, within 10%.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLingxi } from '../tests/support/server.js'
import { startFakeOpenAI } from '../tests/support/fake-openai.js'
import type { BenchRow } from './types.js'

export async function run (): Promise<BenchRow[]> {
  const fake = await startFakeOpenAI()
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-'))
  process.env.LINGXI_PORT = '0'
  const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' } })
  try {
    const models = Array.from({ length: 30 }, (_, i) => `m${i}`)
    fake.respond = () => ({ delayMs: 100, content: 'hi' })
    const ch = await lx.rt.need('channels').service.create({ name: 'bench', baseUrl: fake.url, apiKey: 'sk-bench-0001', models })
    // warm-up: connections and code paths
    await lx.rt.need('channels').tests.run(ch, models.slice(0, 3), { concurrency: 3, clearPrevious: false, emit: () => {} })
    const started = performance.now()
    const r = await lx.rt.need('channels').tests.run(ch, models, { concurrency: 3, clearPrevious: true, emit: () => {} })
    const seconds = (performance.now() - started) / 1000
    const ok = r.results.every((x) => x.success) && r.results.length === 30
    return [{ name: 'batch test 30 models x 100 ms, concurrency 3 (wall time)', figure: Math.round(seconds * 1000) / 1000, unit: 's', target: '<= 1.10 (ideal 1.0)', pass: ok && seconds <= 1.1 && seconds >= 0.99 }]
  } finally {
    await lx.stop()
    await fake.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
