// Gives the model what the bot remembers about the user, after the user's message (this turn only:
// lib/chat/README.md, "Request layout"): the memories most relevant to
// the message (BM25), then the most confident recent ones, of this user and usable in this chat
// (lib/memory/scope.ts: none pending or superseded, none of another group, none learnt in private in a
// group unless the user allowed it); capped by the preset's memory.maxMemories (and the global maxMemoriesInPrompt).
import type { PromptContributor, TurnContext } from '../chat/contracts.js'
import type { Clock } from '../core/clock.js'
import type { MemoryPrefs } from './prefs.js'
import { usableIn } from './scope.js'
import type { MemoryService } from './service.js'
import type { MemoryRecord } from './types.js'

type Settings = () => { enabled: boolean; maxMemoriesInPrompt: number; privateInGroups: boolean }

export function memoryContributor (memory: MemoryService, clock: Clock, settings: Settings, prefs: MemoryPrefs): PromptContributor {
  return {
    name: 'memory',
    slot: 'memory',
    async contribute (turn: TurnContext): Promise<string | undefined> {
      const s = settings()
      if (!s.enabled || !turn.preset.memory.enabled) return undefined
      const cap = Math.min(turn.preset.memory.maxMemories, s.maxMemoriesInPrompt)
      if (cap <= 0) return undefined
      const use = prefs.useFor(turn.scope, clock.now(), s.privateInGroups)
      const usable = (r: MemoryRecord): boolean => usableIn(r, use)
      const chosen = new Map<number, MemoryRecord>()
      if (turn.input.trim()) {
        for (const h of await memory.search({ query: turn.input, userId: turn.scope.userId, limit: cap * 2, use })) {
          if (chosen.size >= cap) break
          if (usable(h)) chosen.set(h.id, h)
        }
      }
      if (chosen.size < cap) {
        const rest = memory.list({ userId: turn.scope.userId }).filter((r) => usable(r) && !chosen.has(r.id))
        rest.sort((a, b) => b.confidence - a.confidence || b.updatedAt - a.updatedAt)
        for (const r of rest.slice(0, cap - chosen.size)) chosen.set(r.id, r)
      }
      if (chosen.size === 0) return undefined
      turn.trace?.memories([...chosen.values()].map((r) => ({ id: r.id, userId: r.userId, category: r.category, content: r.content })))
      const who = turn.scope.nickname ? `${turn.scope.nickname}（${turn.scope.userId}）` : turn.scope.userId
      return [`你记得的关于用户 ${who} 的信息 (what you remember about this user; use it naturally, do not recite it):`,
        ...[...chosen.values()].map((r) => `- [${r.category}] ${r.content}`)].join('\n')
    }
  }
}
