// Gives the model the knowledge bound to the active preset, after the user's message (this turn only:
// lib/chat/README.md, "Request layout"): the documents of that preset
// most relevant to the message (BM25), each as its title and a passage around the matches.
import type { PromptContributor, TurnContext } from '../chat/contracts.js'
import type { KnowledgeService } from './service.js'

const PASSAGE_CHARS = 600

export function knowledgeContributor (kb: KnowledgeService, settings: () => { enabled: boolean; maxResultsInPrompt: number }): PromptContributor {
  return {
    name: 'knowledge',
    slot: 'knowledge',
    async contribute (turn: TurnContext): Promise<string | undefined> {
      const s = settings()
      if (!s.enabled || turn.preset.knowledge?.enabled === false || s.maxResultsInPrompt <= 0) return undefined
      if (!kb.hasPreset(turn.preset.id) || !turn.input.trim()) return undefined
      const hits = await kb.search(turn.input, { presetId: turn.preset.id, limit: s.maxResultsInPrompt, snippetChars: PASSAGE_CHARS })
      if (hits.length === 0) return undefined
      turn.trace?.knowledge(hits.map((h) => ({ documentId: h.id, title: h.title, excerpt: h.snippet })))
      turn.taint?.add('knowledge') // passages the asker did not write (the approval policy, lib/tools/policy.ts)
      return ['知识库中与问题相关的资料 (reference material from the knowledge base; answer from it when relevant):',
        ...hits.map((h) => `### ${h.title}\n${h.snippet}`)].join('\n\n')
    }
  }
}
