// Gives the model the knowledge bound to the active preset, after the user's message (this turn only:
// lib/chat/README.md, "Request layout"): the passages of that preset's documents most relevant to the
// message (BM25, fused with the vectors' when embeddings are set: vectors/hybrid.ts), each under its
// source (title, heading path, page). The why record lists the same passages (turn.trace.knowledge),
// so the owner sees exactly what was given.
import type { PromptContributor, TurnContext } from '../chat/contracts.js'
import type { KnowledgeService } from './service.js'
import type { KnowledgeHit } from './types.js'

/** Where a passage is: `title › heading · 第 N 页` (the why record), the title in 《》 for the model. */
function sourceOf (h: Pick<KnowledgeHit, 'title' | 'heading' | 'page'>, quoted = false): string {
  return [quoted ? `《${h.title}》` : h.title, h.heading ? ` › ${h.heading}` : '', h.page !== undefined ? ` · 第 ${h.page} 页` : ''].join('')
}

export function knowledgeContributor (kb: KnowledgeService, settings: () => { enabled: boolean; maxResultsInPrompt: number }): PromptContributor {
  return {
    name: 'knowledge',
    slot: 'knowledge',
    async contribute (turn: TurnContext): Promise<string | undefined> {
      const s = settings()
      if (!s.enabled || turn.preset.knowledge?.enabled === false || s.maxResultsInPrompt <= 0) return undefined
      // the group's bases when it names any, else the preset's documents and bases (service.ts chatScope)
      const scope = kb.chatScope(turn.preset.id, turn.scope.groupId)
      if (!scope || !turn.input.trim()) return undefined
      const hits = await kb.search(turn.input, { ...scope, limit: s.maxResultsInPrompt })
      if (hits.length === 0) return undefined
      turn.trace?.knowledge(hits.map((h) => ({ documentId: h.docId, title: sourceOf(h), excerpt: h.text })))
      turn.taint?.add('knowledge') // passages the asker did not write (the approval policy, lib/tools/policy.ts)
      return ['知识库中与问题相关的资料 (reference material from the knowledge base; answer from it when relevant and name its source):',
        ...hits.map((h) => `### ${sourceOf(h, true)}\n${h.text}`)].join('\n\n')
    }
  }
}
