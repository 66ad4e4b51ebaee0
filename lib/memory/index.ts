// Memory domain start-up: the memory service (the store), the extractor (background extraction after chat
// turns) with the asker (pending guesses asked in private, lib/memory/ask.ts), and the prompt contributor.
// Settings are read live from config `memory`.
import type { Domain, Runtime } from '../runtime.js'
import { PendingAsker } from './ask.js'
import { MemoryExtractor } from './extract.js'
import { MemoryPrefs } from './prefs.js'
import { memoryContributors } from './prompt.js'
import { MemoryService } from './service.js'
import { MemoryUses } from './uses.js'

declare module '../runtime.js' {
  interface Services { memory: MemoryService; memoryExtractor: MemoryExtractor; memoryPrefs: MemoryPrefs }
}

async function initMemory (rt: Runtime): Promise<void> {
  const memory = await MemoryService.openShared(rt)
  const prefs = await MemoryPrefs.open(rt)
  const uses = await MemoryUses.open(rt, (id) => memory.get(id) !== undefined)
  const settings = (): ReturnType<Runtime['config']['get']>['memory'] => rt.config.get().memory
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
  const off = rt.bus.on('config', (paths) => { if (paths.some((p) => p.startsWith('memory'))) extractor.schedule() })
  rt.onStop.push(async () => {
    off()
    extractor.stop()
    await uses.close()
    await memory.close()
    await prefs.close()
  })
}

export const memoryDomain: Domain = { name: 'memory', provides: ['memory', 'memoryExtractor', 'memoryPrefs'], needs: [], optional: ['models'], start: initMemory }
