// Knowledge domain start-up: the knowledge service and its prompt contributor (config `knowledge`, read live).
// The built-in tool search_knowledge appears by itself once the knowledge service runs (lib/tools/builtin/lookup.ts).
import { join } from 'node:path'
import type { Domain, Runtime } from '../runtime.js'
import { outboundAccess } from '../web/outbound.js'
import { knowledgeContributor } from './prompt.js'
import { KnowledgeService } from './service.js'

declare module '../runtime.js' {
  interface Services { knowledge: KnowledgeService }
}

async function initKnowledge (rt: Runtime): Promise<void> {
  // the stores `knowledge` and `knowledge-bases` on the port: the data folder's files, or PostgreSQL when set
  const knowledge = await KnowledgeService.openShared(rt, {
    clock: rt.clock,
    log: rt.log,
    uploadsDir: join(rt.paths.dataDir, 'knowledge-uploads'),
    settings: () => rt.config.get().knowledge,
    access: () => outboundAccess(rt.config.get()),
    // (groups is a null-prototype record: lib/config/groups.ts)
    groupBases: (groupId) => rt.config.get().groups[groupId]?.knowledge ?? [],
    vectors: { file: join(rt.paths.dataDir, 'knowledge-vectors.bin'), metaFile: join(rt.paths.dataDir, 'knowledge-vectors.json'), settings: () => rt.config.get().knowledge }
  })
  // another embedding model (address, dimensions) re-embeds every passage in the background
  const offConfig = rt.bus.on('config', (paths) => { if (paths.some((p) => p === 'knowledge' || p.startsWith('knowledge.embedding'))) knowledge.vectors?.settingsChanged() })
  rt.provide('knowledge', knowledge)
  rt.chat.contributors.push(knowledgeContributor(knowledge, () => rt.config.get().knowledge))
  rt.onStop.push(() => { offConfig(); return knowledge.close() })
}

export const knowledgeDomain: Domain = { name: 'knowledge', provides: ['knowledge'], needs: [], start: initKnowledge }
