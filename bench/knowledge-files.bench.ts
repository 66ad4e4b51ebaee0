// Files into the knowledge base (lib/knowledge/README.md, "Files in"): 350 uploads, 50 of each fixture
// of tests/fixtures/knowledge (txt, md, html, pdf, docx, csv, xlsx), each written to the uploads folder,
// extracted, cut and indexed by the queue; the time per file of each type (median), the throughput, and a
// passage search over the passages they gave. Then the same files into the whole plugin with an embeddings endpoint
// that answers at once (tests/support/fake-embeddings.ts, 1024 dimensions): files per second until every
// passage has its vector (the ingestion throughput with a zero-latency embedder).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { systemClock } from '../lib/core/clock.js'
import { EventBus } from '../lib/core/event-bus.js'
import { PluginLogger } from '../lib/core/logger.js'
import { KnowledgeService } from '../lib/knowledge/service.js'
import { startFakeEmbeddings } from '../tests/support/fake-embeddings.js'
import { startTestServer } from '../tests/support/server.js'
import { percentile, type BenchRow } from './types.js'

const FIXTURES = fileURLToPath(new URL('../tests/fixtures/knowledge/', import.meta.url))
const FILES = ['lighthouse.txt', 'coffee.md', 'cat-care.html', 'safety.pdf', 'leave-policy.docx', 'products.csv', 'duty-roster.xlsx']
const EACH = 50

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-kb-files-'))
  const noop = (): void => {}
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
  const kb = await KnowledgeService.open(join(dataDir, 'knowledge.json'), { clock: systemClock, log, uploadsDir: join(dataDir, 'knowledge-uploads') })
  const rows: BenchRow[] = []
  try {
    const perType = new Map<string, number[]>()
    const t0 = performance.now()
    let failed = 0
    for (let i = 0; i < EACH; i++) {
      for (const name of FILES) {
        const a = performance.now()
        const d = await kb.addFile({ name: `${i}-${name}`, bytes: readFileSync(FIXTURES + name) })
        await kb.processed(d.id)
        if (kb.get(d.id).status !== 'ready') failed++
        const ext = name.slice(name.lastIndexOf('.'))
        perType.set(ext, [...(perType.get(ext) ?? []), performance.now() - a])
      }
    }
    const totalMs = performance.now() - t0
    const searches: number[] = []
    for (let i = 0; i < 200; i++) {
      const a = performance.now()
      await kb.search(['消防演练', '年假 顺延', '猫砂 更换', '紫砂壶 价格', '周二 值班', '柠檬酸 除垢', '潮汐表'][i % 7]!, { limit: 5 })
      searches.push(performance.now() - a)
    }
    const r = (n: number): number => Math.round(n * 100) / 100
    for (const [ext, times] of perType) rows.push({ name: `knowledge-files: ${ext} upload to ready, median per file`, figure: r(percentile(times, 50)), unit: 'ms', target: '(report)', pass: true })
    rows.push({ name: `knowledge-files: ${EACH * FILES.length} files, all ready`, figure: r((EACH * FILES.length) / (totalMs / 1000)), unit: 'files/s', target: 'no failure', pass: failed === 0 })
    rows.push({ name: 'knowledge-files: passage search p50 over them', figure: r(percentile(searches, 50)), unit: 'ms', target: '< 10', pass: percentile(searches, 50) < 10 })
  } finally {
    await kb.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  rows.push(await embedded())
  return rows
}

/** Files in with a zero-latency embeddings endpoint: from the first upload until every passage has its vector. */
async function embedded (): Promise<BenchRow> {
  const fake = await startFakeEmbeddings({ dims: 1024 })
  const s = await startTestServer()
  try {
    // the fake endpoint is on loopback, which the outbound fetcher refuses unless named
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding: { baseUrl: fake.url, apiKey: 'sk-bench', model: 'fake-embed' } } })
    const kb = s.lx.rt.need('knowledge')
    const count = 10 * FILES.length
    const t0 = performance.now()
    const ids: string[] = []
    for (let i = 0; i < 10; i++) for (const name of FILES) ids.push((await kb.addFile({ name: `${i}-${name}`, bytes: readFileSync(FIXTURES + name) })).id)
    for (const id of ids) await kb.processed(id)
    const passages = ids.reduce((n, id) => n + (kb.get(id).chunks ?? 0), 0)
    const end = Date.now() + 120_000
    while ((kb.vectors?.status().vectors ?? 0) < passages && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20))
    const ms = performance.now() - t0
    const got = kb.vectors?.status().vectors ?? 0
    return { name: `knowledge-files: ${count} files embedded too (zero-latency embedder, 1024 dims; ${passages} passages)`, figure: Math.round((count / (ms / 1000)) * 100) / 100, unit: 'files/s', target: 'every passage embedded', pass: got >= passages }
  } finally {
    await s.close()
    await fake.close()
  }
}
