// Gives the model what the bot remembers about the user (lib/memory/README.md, "Recall"), of this user and
// usable in this chat (lib/memory/scope.ts: none pending or superseded, none of another group, none learnt
// in private in a group unless the user allowed it), capped by the preset's memory.maxMemories (and the
// global maxMemoriesInPrompt), in two parts (lib/chat/README.md, "Request layout"):
// - `profile` (the system message): a summary of the user's most trusted memories (stated or confirmed, by
//   standing), the same text from turn to turn until one of the user's memories changes, so the provider's
//   prompt cache keeps serving it; none in a group's shared conversation (its speakers take turns);
// - `memory` (after the user's message, this turn only): the memories most relevant to the message by the
//   recall score, not already in the summary; without a summary, filled with the best standing ones.
import type { PromptContributor, TurnContext } from '../chat/contracts.js'
import { isSharedConversation } from '../chat/scope.js'
import type { Clock } from '../core/clock.js'
import type { MemoryPrefs } from './prefs.js'
import { rankHits, rankStanding, vouched } from './recall.js'
import { type MemoryUse, usableIn } from './scope.js'
import type { MemoryService } from './service.js'
import type { MemoryRecord } from './types.js'
import type { MemoryUses } from './uses.js'

type Settings = () => { enabled: boolean; maxMemoriesInPrompt: number; privateInGroups: boolean; recallHalfLifeDays: number; summarySize: number }
interface Deps { memory: MemoryService; clock: Clock; settings: Settings; prefs: MemoryPrefs; uses: MemoryUses }

/** What one turn recalls: the summary (system message) and the message's memories (its tail). */
interface Recall { summary: MemoryRecord[]; summaryText?: string; recalled: MemoryRecord[] }
/** A user's summary as last built, with what it was built from (rebuilt only when that changes). */
interface Summary { from: string; records: MemoryRecord[]; text: string }

/** Summaries kept (users active recently); the oldest built goes first. */
const MAX_SUMMARIES = 10_000

export function memoryContributors (deps: Deps): PromptContributor[] {
  const recalls = new WeakMap<TurnContext, Promise<Recall | undefined>>()
  const summaries = new Map<string, Summary>()
  const recallOf = (turn: TurnContext): Promise<Recall | undefined> => {
    let r = recalls.get(turn)
    if (!r) { r = recall(deps, summaries, turn); recalls.set(turn, r) }
    return r
  }
  return [
    { name: 'memory-summary', slot: 'profile', contribute: async (turn) => (await recallOf(turn))?.summaryText },
    {
      name: 'memory',
      slot: 'memory',
      async contribute (turn: TurnContext): Promise<string | undefined> {
        const r = await recallOf(turn)
        if (!r) return undefined
        const used = [...r.summary, ...r.recalled]
        if (used.length > 0) turn.trace?.memories(used.map((m) => ({ id: m.id, userId: m.userId, category: m.category, content: m.content })))
        if (r.recalled.length === 0) return undefined
        deps.uses.note(r.recalled.map((m) => m.id))
        const header = r.summary.length > 0
          ? '与这条消息相关的其他记忆 (more memories relevant to this message; use them naturally, do not recite them):'
          : `你记得的关于用户 ${who(turn)} 的信息 (what you remember about this user; use it naturally, do not recite it):`
        return [header, ...r.recalled.map(line)].join('\n')
      }
    }
  ]
}

const who = (turn: TurnContext): string => turn.scope.nickname ? `${turn.scope.nickname}（${turn.scope.userId}）` : turn.scope.userId
const line = (r: MemoryRecord): string => `- [${r.category}] ${r.content}`

async function recall (deps: Deps, summaries: Map<string, Summary>, turn: TurnContext): Promise<Recall | undefined> {
  const s = deps.settings()
  if (!s.enabled || !turn.preset.memory.enabled) return undefined
  const cap = Math.min(turn.preset.memory.maxMemories, s.maxMemoriesInPrompt)
  if (cap <= 0) return undefined
  const now = deps.clock.now()
  const use = deps.prefs.useFor(turn.scope, now, s.privateInGroups)
  const usesOf = (id: number): number => deps.uses.uses(id)
  const withSummary = !isSharedConversation(turn.scope) && s.summarySize > 0
  const usable = deps.memory.list({ userId: turn.scope.userId }).filter((r) => usableIn(r, use))
  const summary = withSummary ? summaryOf(summaries, turn, use, usable.filter(vouched), Math.min(cap, s.summarySize), now, s.recallHalfLifeDays, usesOf) : undefined
  const inSummary = new Set(summary?.records.map((r) => r.id))
  const room = cap - inSummary.size
  const recalled: MemoryRecord[] = []
  if (room > 0 && turn.input.trim()) {
    const hits = await deps.memory.search({ query: turn.input, userId: turn.scope.userId, limit: cap * 3, use })
    for (const h of rankHits(hits.filter((h) => !inSummary.has(h.id)), now, s.recallHalfLifeDays, usesOf)) {
      if (recalled.length >= room) break
      recalled.push(h.record)
    }
  }
  // without a summary (a shared conversation, or summarySize 0), the best standing ones fill the room
  if (!withSummary && recalled.length < room) {
    const taken = new Set(recalled.map((r) => r.id))
    for (const r of rankStanding(usable.filter((r) => !taken.has(r.id)), now, s.recallHalfLifeDays, usesOf).slice(0, room - recalled.length)) recalled.push(r)
  }
  return { summary: summary?.records ?? [], ...(summary && summary.records.length > 0 ? { summaryText: summary.text } : {}), recalled }
}

/** The user's summary here: the one last built while the candidates are the same ones, unchanged; else rebuilt. */
function summaryOf (summaries: Map<string, Summary>, turn: TurnContext, use: MemoryUse, candidates: MemoryRecord[], size: number,
  now: number, halfLifeDays: number, usesOf: (id: number) => number): Summary {
  const key = `${turn.scope.userId}\u0000${use.groupId ?? ''}\u0000${use.privateInGroups ? 1 : 0}\u0000${size}\u0000${who(turn)}`
  // what the summary is built from: the candidates as they are now (time passing and use counts do not rebuild it)
  const from = candidates.map((r) => `${r.id}:${r.updatedAt}`).join(',')
  const known = summaries.get(key)
  if (known?.from === from) return known
  const records = rankStanding(candidates, now, halfLifeDays, usesOf).slice(0, size)
  const text = [`关于用户 ${who(turn)}，你记得的较确定的信息 (what you know about this user; use it naturally, do not recite it):`, ...records.map(line)].join('\n')
  const built = { from, records, text }
  summaries.delete(key)
  summaries.set(key, built)
  const oldest = summaries.keys().next()
  if (summaries.size > MAX_SUMMARIES && oldest.done !== true) summaries.delete(oldest.value)
  return built
}
