// Summarize a user's memories: optionally clean up first, then either let the model rewrite
// them as `[category] content` lines (categories limited to the domain's six; its reasoning is dropped)
// or merge them deterministically. The model's lines replace the old records only once they parsed:
// a failed or empty answer leaves the memories untouched.
import type { ModelGateway } from '../chat/contracts.js'
import { AppError, errorText } from '../core/errors.js'
import type { CleanupResult, MemoryService } from './service.js'
import { learntInPrivate } from './scope.js'
import { CATEGORIES, categoryFromModel, type MemoryCategory, type MemoryOrigin, type MemoryRecord } from './types.js'
import { stripReasoning } from '../chat/reasoning.js'

export interface SummarizeOptions { useLLM: boolean; cleanup: boolean; groupId?: string; model?: string }
export interface SummarizeResult {
  before: number
  after: number
  usedModel: boolean
  lines: string[]
  cleanup?: CleanupResult
  merged?: number
}

const line = (r: Pick<MemoryRecord, 'category' | 'content'>): string => `[${r.category}] ${r.content}`

function summarizePrompt (memories: MemoryRecord[]): string {
  return [
    'You maintain long-term memories about one chat user. Merge the memories below: combine duplicates,',
    'drop contradictions in favour of the newer one (listed first), keep concrete facts (names, dates, likes).',
    `Answer ONLY with lines of the form "[category] content", one fact per line, where category is one of: ${CATEGORIES.join(', ')}.`,
    'Write each fact in the language it was given in. No numbering, no explanations.',
    '',
    ...memories.map(line)
  ].join('\n')
}

/** The `[category] content` lines of a model answer; reasoning blocks and other text are ignored. */
export function parseSummaryLines (answer: string): Array<{ category: MemoryCategory; content: string }> {
  const text = stripReasoning(answer)
  const out: Array<{ category: MemoryCategory; content: string }> = []
  const seen = new Set<string>()
  for (const raw of text.split('\n')) {
    const m = /^\s*(?:[-*•]|\d+[.)])?\s*\[([A-Za-z_]+)\]\s*(.+?)\s*$/.exec(raw)
    if (!m?.[1] || !m[2]) continue
    const category = categoryFromModel(m[1]) ?? 'custom'
    const key = `${category}:${m[2]}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ category, content: m[2].slice(0, 2000) })
  }
  return out
}

export async function summarizeMemories (svc: MemoryService, models: ModelGateway | undefined, userId: string, opts: SummarizeOptions): Promise<SummarizeResult> {
  const scope = opts.groupId !== undefined ? { userId, groupId: opts.groupId } : { userId }
  const cleanup = opts.cleanup ? await svc.cleanup(userId) : undefined
  // what is in use, and without a group: only the records not tied to one (a group's stay in their group,
  // lib/memory/scope.ts); pending and superseded ones are left as they are
  const memories = svc.list(scope).filter((r) => r.status === undefined && (opts.groupId !== undefined || r.groupId === ''))
  const before = memories.length
  if (!opts.useLLM || before === 0) {
    const { merged } = await svc.merge(userId, opts.groupId)
    const after = svc.list(scope)
    return { before, after: after.length, usedModel: false, lines: after.map(line), merged, ...(cleanup ? { cleanup } : {}) }
  }
  if (!models) throw new AppError('CHANNEL_UNAVAILABLE', 'No model channel is available for summarizing')
  let answer: string
  try {
    const res = await models.complete({
      messages: [{ role: 'user', content: summarizePrompt(memories) }],
      source: 'memory', temperature: 0.2, ...(opts.model ? { model: opts.model } : {}), scope: { userId }
    })
    answer = res.content
  } catch (err) {
    if (err instanceof AppError) throw err
    throw new AppError('MODEL_ERROR', `The model could not summarize: ${errorText(err)}`)
  }
  const facts = parseSummaryLines(answer)
  if (facts.length === 0) throw new AppError('MODEL_ERROR', 'The model answered no "[category] content" lines; memories left unchanged')
  const groupId = opts.groupId ?? ''
  // the lines inherit the narrowest scope and the least certain kind of what they summarize: learnt in a
  // private chat stays out of groups, a guess stays a guess
  const origin: MemoryOrigin = {
    kind: memories.some((r) => r.origin?.kind === 'inferred') ? 'inferred' : 'manual',
    chat: groupId ? 'group' : memories.some(learntInPrivate) ? 'private' : 'api',
    at: Math.min(...memories.map((r) => r.origin?.at ?? r.createdAt))
  }
  for (const f of facts) {
    await svc.add({ userId, groupId, category: f.category, content: f.content, source: 'summary', confidence: 0.85, metadata: { summarizedFrom: before }, origin })
  }
  // the new lines are on disk: only now drop what they replace
  for (const r of memories) await svc.remove(r.id, true)
  return { before, after: facts.length, usedModel: true, lines: facts.map(line), ...(cleanup ? { cleanup } : {}) }
}
