// Knowledge domain start-up: rt.knowledge and its prompt contributor (config `knowledge`, read live).
// The built-in tool search_knowledge appears by itself once rt.knowledge exists (lib/tools/builtin/lookup.ts).
import { join } from 'node:path'
import type { Runtime } from '../runtime.js'
import { knowledgeContributor } from './prompt.js'
import { KnowledgeService } from './service.js'

declare module '../runtime.js' {
  interface Runtime { knowledge: KnowledgeService }
}

export async function initKnowledge (rt: Runtime): Promise<void> {
  rt.knowledge = await KnowledgeService.open(join(rt.paths.dataDir, 'knowledge.json'), { clock: rt.clock, log: rt.log })
  rt.chat.contributors.push(knowledgeContributor(rt.knowledge, () => rt.config.get().knowledge))
  rt.onStop.push(() => rt.knowledge.close())
}

export { KnowledgeService } from './service.js'
