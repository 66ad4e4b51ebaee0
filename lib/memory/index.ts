// Memory domain start-up: rt.memory (the store), rt.memoryExtractor (background extraction after chat
// turns), and the prompt contributor. Settings are read live from config `memory`.
import { join } from 'node:path'
import type { Runtime } from '../runtime.js'
import { MemoryExtractor } from './extract.js'
import { memoryContributor } from './prompt.js'
import { MemoryService } from './service.js'

declare module '../runtime.js' {
  interface Runtime { memory: MemoryService; memoryExtractor: MemoryExtractor }
}

export async function initMemory (rt: Runtime): Promise<void> {
  rt.memory = await MemoryService.open(join(rt.paths.dataDir, 'memories.json'), { clock: rt.clock, log: rt.log })
  const settings = (): ReturnType<Runtime['config']['get']>['memory'] => rt.config.get().memory
  rt.memoryExtractor = new MemoryExtractor({ memory: rt.memory, models: () => rt.chat.models, clock: rt.clock, log: rt.log, settings })
  rt.chat.observers.push(rt.memoryExtractor)
  rt.chat.contributors.push(memoryContributor(rt.memory, rt.clock, settings))
  rt.memoryExtractor.schedule()
  const off = rt.bus.on('config', (paths) => { if (paths.some((p) => p.startsWith('memory'))) rt.memoryExtractor.schedule() })
  rt.onStop.push(async () => {
    off()
    rt.memoryExtractor.stop()
    await rt.memory.close()
  })
}

export { MemoryService } from './service.js'
