// Categories `memory` and `knowledge`: look-ups offered only when those domains run (they are
// optional: the tools appear as soon as the memory / knowledge services run), and in a chat only when
// they can find something (offeredIn): search_memory when the user has a memory, search_knowledge when
// the knowledge base holds a document. A look-up that can only come back empty still costs every
// request its definition and tempts the model into a round trip for nothing.
import type { Runtime, Services } from '../../runtime.js'
import { str, text, type BuiltinTool } from './util.js'

function searchOf<K extends 'memory' | 'knowledge'> (rt: Runtime, key: K): Services[K]['search'] | undefined {
  const svc = rt.optional(key)
  return svc?.search.bind(svc)
}

/** Which optional look-ups exist now (cheap: checked on every listing). */
export function lookupSignature (rt: Runtime): string {
  return `${rt.optional('memory') ? 'm' : ''}${rt.optional('knowledge') ? 'k' : ''}`
}

export function lookupTools (rt: Runtime): BuiltinTool[] {
  const out: BuiltinTool[] = []
  const schema = { type: 'object' as const, properties: { query: { type: 'string' }, limit: { type: 'number' } }, required: ['query'] }
  const limitOf = (v: unknown): number => typeof v === 'number' && v >= 1 ? Math.min(Math.floor(v), 20) : 5
  const memory = searchOf(rt, 'memory')
  if (memory) {
    out.push({
      name: 'search_memory',
      description: '搜索关于当前用户的长期记忆 (search the long-term memories of the current user)',
      category: 'memory', risk: 'low', dangerous: false, inputSchema: schema,
      offeredIn: (scope) => rt.optional('memory')?.hasMemories(scope.userId) ?? false,
      execute: async (args, ctx) => {
        const q = str(args.query)
        if (!q) return text('query is required', true)
        // only what may answer in this chat (lib/memory/scope.ts), without provenance or earlier texts
        // the memory domain provides the preferences with the memories: one owner builds where a turn answers
        const use = rt.need('memoryPrefs').useFor(ctx.scope, rt.clock.now(), rt.config.get().memory.privateInGroups)
        const hits = await memory({ userId: ctx.scope.userId, query: q, limit: limitOf(args.limit), use })
        return text(hits.map((h) => ({ id: h.id, category: h.category, content: h.content, confidence: h.confidence, score: h.score, updatedAt: h.updatedAt })))
      }
    })
  }
  const knowledge = searchOf(rt, 'knowledge')
  if (knowledge) {
    out.push({
      name: 'search_knowledge',
      description: '在知识库中搜索 (search the knowledge base)',
      category: 'knowledge', risk: 'low', dangerous: false, inputSchema: schema,
      offeredIn: () => (rt.optional('knowledge')?.size ?? 0) > 0,
      execute: async (args) => {
        const q = str(args.query)
        if (!q) return text('query is required', true)
        return text(await knowledge(q, { limit: limitOf(args.limit) }))
      }
    })
  }
  return out
}
