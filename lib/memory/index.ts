// Memory domain start-up: the memory service (the store), the extractor (background extraction after chat
// turns) with the asker (pending guesses asked in private, lib/memory/ask.ts), and the prompt contributor.
// Settings are read live from config `memory`. With the knowledge domain's embeddings endpoint set, the
// memories get vectors and recall is hybrid (lib/memory/vectors.ts).
import { join } from 'node:path'
import type { Domain, Runtime } from '../runtime.js'
import { PendingAsker } from './ask.js'
import { MemoryExtractor } from './extract.js'
import { MemoryPrefs } from './prefs.js'
import { memoryContributors } from './prompt.js'
import { MemoryService } from './service.js'
import { MemoryUses } from './uses.js'
import { MemoryVectors } from './vectors.js'

declare module '../runtime.js' {
  interface Services { memory: MemoryService; memoryExtractor: MemoryExtractor; memoryPrefs: MemoryPrefs }
}

async function initMemory (rt: Runtime): Promise<void> {
  const memory = await MemoryService.openShared(rt)
  const prefs = await MemoryPrefs.open(rt)
  const uses = await MemoryUses.open(rt, (id) => memory.get(id) !== undefined)
  const settings = (): ReturnType<Runtime['config']['get']>['memory'] => rt.config.get().memory
  // the knowledge domain's endpoint, index and vectors log (absent: BM25 alone); the vectors in the data folder
  const kit = rt.optional('knowledge')?.embedder
  const vectors = kit && new MemoryVectors(kit, join(rt.paths.dataDir, 'memory-vectors.bin'), join(rt.paths.dataDir, 'memory-vectors.json'), {
    clock: rt.clock, log: rt.log, get: (id) => memory.get(id), live: () => memory.liveRecords(), minScore: () => settings().vectorMinScore
  })
  if (vectors) memory.useVectors(vectors)
  const asker = new PendingAsker({
    memory, clock: rt.clock, log: rt.log,
    settings: () => { const c = rt.config.get(); return { askUser: c.memory.askUser, language: c.language, commandPrefix: c.commandPrefix } }
  })
  const extractor = new MemoryExtractor({ memory, models: () => rt.optional('models'), clock: rt.clock, log: rt.log, settings, listener: asker })
  rt.provide('memory', memory)
  rt.provide('memoryExtractor', extractor)
  rt.provide('memoryPrefs', prefs)
  rt.chat.observers.push(extractor)
  rt.chat.contributors.push(...memoryContributors({ memory, clock: rt.clock, settings, prefs, uses }))
  extractor.schedule()
  const off = rt.bus.on('config', (paths) => {
    if (paths.some((p) => p.startsWith('memory'))) extractor.schedule()
    if (paths.some((p) => p === 'knowledge' || p.startsWith('knowledge.embedding'))) vectors?.settingsChanged()
  })
  rt.onStop.push(async () => {
    off()
    extractor.stop()
    await uses.close()
    await vectors?.close()
    await memory.close()
    await prefs.close()
  })
}

export const memoryDomain: Domain = { name: 'memory', provides: ['memory', 'memoryExtractor', 'memoryPrefs'], needs: [], optional: ['models', 'knowledge'], start: initMemory }
