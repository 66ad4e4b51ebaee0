// Background extraction of memories from chat (config `memory.pollIntervalMinutes`, default 5). Answered
// turns are queued per user and group; every interval the model reads each queue together with the
// user's existing memories and answers new facts as JSON. A fact that restates an existing memory
// refreshes that record instead of adding a duplicate. A failed extraction keeps the turns for the
// next round (capped), so a model outage loses at most the oldest turns.
// Provenance (lib/memory/README.md): each saved memory records the conversation, the user's message ids,
// when, the chat kind, the model and the round; the model says whether the user stated the fact or it
// inferred it. An inferred fact below `memory.reviewBelow` is saved pending (not used until confirmed);
// a stated fact that the model says replaces a known memory supersedes it (kept, with its history).
// A round that saved memories tells the listener (lib/memory/ask.ts: `memory.askUser`).
import { randomBytes } from 'node:crypto'
import type { ModelGateway, TurnContext, TurnObserver } from '../chat/contracts.js'
import type { Clock } from '../core/clock.js'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import type { MemoryService } from './service.js'
import { revised } from './history.js'
import { categoryFromModel, type MemoryCategory, type MemoryOrigin, type MemoryRecord } from './types.js'
import { stripReasoning } from '../chat/reasoning.js'

interface QueuedTurn { user: string; assistant: string; conversationId: string; at: number; messageIds: string[] }
interface Queue { userId: string; groupId: string; turns: QueuedTurn[]; /** the bot account of the latest turn */ botId?: string }
export interface ExtractedFact {
  content: string
  category: MemoryCategory
  subType: string
  confidence: number
  /** the user said it (stated) or the model concluded it (inferred) */
  kind: 'stated' | 'inferred'
  /** the id of a known memory this fact replaces (the model's reading of a contradiction) */
  replaces?: number
}

/** Told what each round saved for a user (lib/memory/ask.ts asks about the pending ones). */
export interface RoundListener {
  afterRound(userId: string, added: number[], botId?: string): Promise<unknown>
  forget(userId: string): void
}

/** What one extraction round saved for a user: `#lx撤销记忆` takes it back. */
export interface ExtractionRound { id: string; userId: string; conversationId: string; at: number; added: number[]; changed: Array<{ id: number; before: MemoryRecord }> }

const MAX_TURNS_PER_QUEUE = 20
const MAX_EXISTING_IN_PROMPT = 40

export interface ExtractorDeps {
  memory: MemoryService
  models: () => ModelGateway | undefined
  clock: Clock
  log: PluginLogger
  /** Live settings (read on every use: config reloads apply). */
  settings: () => { enabled: boolean; pollIntervalMinutes: number; reviewBelow: number }
  /** told after a round saved memories for a user */
  listener?: RoundListener
}

export class MemoryExtractor implements TurnObserver {
  readonly name = 'memory'
  private readonly queues = new Map<string, Queue>()
  private timer: NodeJS.Timeout | undefined
  private intervalMs = 0
  private running: Promise<void> | undefined
  /** each user's last round (in memory: an undo is for what was just learnt, not after a restart) */
  private readonly lastRound = new Map<string, ExtractionRound>()

  constructor (private readonly d: ExtractorDeps) {}

  afterTurn (turn: TurnContext, exchange: { user: string; assistant: string }): void {
    if (!this.d.settings().enabled || !turn.preset.memory.enabled) return
    if (!exchange.user.trim()) return
    const groupId = turn.scope.groupId ?? ''
    const key = `${turn.scope.userId}\u0000${groupId}`
    let q = this.queues.get(key)
    if (!q) this.queues.set(key, (q = { userId: turn.scope.userId, groupId, turns: [] }))
    if (turn.scope.botId) q.botId = turn.scope.botId
    q.turns.push({ user: exchange.user, assistant: exchange.assistant, conversationId: turn.scope.conversationId, at: this.d.clock.now(), messageIds: turn.scope.messageIds ?? [] })
    if (q.turns.length > MAX_TURNS_PER_QUEUE) q.turns.splice(0, q.turns.length - MAX_TURNS_PER_QUEUE)
  }

  /** Drops a user's queued turns (the user asked to be forgotten). */
  forget (userId: string): void {
    for (const [key, q] of this.queues) if (q.userId === userId) this.queues.delete(key)
    this.lastRound.delete(userId)
    this.d.listener?.forget(userId)
  }

  /** The user's last extraction round that saved or changed something, if it is still known. */
  lastRoundOf (userId: string): ExtractionRound | undefined { return this.lastRound.get(userId) }

  /**
   * Takes back the user's last round: the memories it added are erased, those it changed get their
   * earlier state back. Answers how many memories it touched (0: nothing to undo).
   */
  async undoLast (userId: string): Promise<number> {
    const round = this.lastRound.get(userId)
    if (!round) return 0
    this.lastRound.delete(userId)
    let n = 0
    for (const id of round.added) if (this.d.memory.get(id)) { await this.d.memory.remove(id, true); n++ }
    for (const { id, before } of round.changed) {
      if (!this.d.memory.get(id)) continue
      const { content, category, subType, confidence, groupId, metadata, origin, status, supersededBy, history } = before
      await this.d.memory.update(id, { content, category, subType, confidence, groupId, metadata, origin, status, supersededBy, history })
      n++
    }
    return n
  }

  /** Drops every queued turn. */
  clearQueues (): void { this.queues.clear() }

  /** Turns waiting for the next round. */
  get pendingTurns (): number {
    let n = 0
    for (const q of this.queues.values()) n += q.turns.length
    return n
  }

  /** (Re)arms the poll timer from the settings; call again after a config change. */
  schedule (): void {
    const ms = Math.max(1, this.d.settings().pollIntervalMinutes) * 60_000
    if (this.timer && ms === this.intervalMs) return
    this.stop()
    this.intervalMs = ms
    this.timer = this.d.clock.setInterval(() => { void this.runOnce() }, ms)
    this.timer.unref?.()
  }

  stop (): void {
    if (this.timer) this.d.clock.clearInterval(this.timer)
    this.timer = undefined
  }

  /** One extraction round over every queue (rounds never overlap). Resolves when done. */
  runOnce (): Promise<void> {
    this.running ??= this.round().finally(() => { this.running = undefined })
    return this.running
  }

  /** Resolves when no round is running (tests wait on this after advancing fake timers). */
  whenIdle (): Promise<void> { return this.running ?? Promise.resolve() }

  private async round (): Promise<void> {
    const models = this.d.models()
    if (!models || !this.d.settings().enabled) return
    for (const [key, q] of [...this.queues]) {
      const turns = q.turns.splice(0)
      if (turns.length === 0) { this.queues.delete(key); continue }
      try {
        await this.extract(models, q, turns)
        if (q.turns.length === 0) this.queues.delete(key)
      } catch (err) {
        this.d.log.warn('Memory extraction failed; the turns are kept for the next round', { userId: q.userId, error: errorText(err) })
        q.turns.unshift(...turns)
        if (q.turns.length > MAX_TURNS_PER_QUEUE) q.turns.splice(0, q.turns.length - MAX_TURNS_PER_QUEUE)
      }
    }
  }

  private async extract (models: ModelGateway, q: Queue, turns: QueuedTurn[]): Promise<void> {
    const existing = this.d.memory.list({ userId: q.userId, limit: MAX_EXISTING_IN_PROMPT }).filter((r) => r.status !== 'superseded')
    const res = await models.complete({
      messages: [{ role: 'user', content: extractionPrompt(existing, turns) }],
      source: 'memory', temperature: 0.1, scope: { userId: q.userId, ...(q.groupId ? { groupId: q.groupId } : {}) }
    })
    const now = this.d.clock.now()
    const last = turns[turns.length - 1]
    const round: ExtractionRound = { id: `${now.toString(36)}-${randomBytes(3).toString('hex')}`, userId: q.userId, conversationId: last?.conversationId ?? '', at: now, added: [], changed: [] }
    const origin = (kind: ExtractedFact['kind']): MemoryOrigin => ({
      kind, chat: q.groupId ? 'group' : 'private', conversationId: round.conversationId,
      messageIds: [...new Set(turns.flatMap((t) => t.messageIds))].slice(-10), at: turns[0]?.at ?? now,
      ...(res.model ? { model: res.model } : {}), extraction: round.id
    })
    const reviewBelow = this.d.settings().reviewBelow
    for (const f of parseFacts(res.content)) {
      const same = this.d.memory.findSame(q.userId, f.category, f.content)
      if (same && same.status !== 'superseded') {
        // the fact again: more sure of it; said by the user, it no longer waits for review
        const confirmed = f.kind === 'stated' && same.status === 'pending'
        round.changed.push({ id: same.id, before: same })
        await this.d.memory.update(same.id, {
          confidence: Math.max(same.confidence, f.confidence),
          ...(confirmed ? { status: undefined, origin: origin('stated'), history: revised(same, 'model', 'confirmed', now) } : {})
        })
        continue
      }
      const pending = f.kind === 'inferred' && f.confidence < reviewBelow
      const added = await this.d.memory.add({
        userId: q.userId, groupId: q.groupId, content: f.content, category: f.category, subType: f.subType,
        confidence: f.confidence, source: 'auto', metadata: { conversationId: round.conversationId }, origin: origin(f.kind),
        ...(pending ? { status: 'pending' as const } : {})
      })
      round.added.push(added.id)
      // a newer stated fact replaces the older one it contradicts (the user's own, in the same scope)
      const old = f.replaces !== undefined ? this.d.memory.get(f.replaces) : undefined
      if (f.kind === 'stated' && old && old.userId === q.userId && old.groupId === q.groupId && old.status !== 'superseded') {
        round.changed.push({ id: old.id, before: old })
        await this.d.memory.update(old.id, { status: 'superseded', supersededBy: added.id, history: revised(old, 'model', 'superseded', now) })
      }
    }
    if (round.added.length || round.changed.length) this.lastRound.set(q.userId, round)
    // after the memories are saved: a listener's failure never re-queues the turns (they would be saved twice)
    if (round.added.length && this.d.listener) {
      try { await this.d.listener.afterRound(q.userId, round.added, q.botId) } catch (err) { this.d.log.warn('After an extraction round', { userId: q.userId, error: errorText(err) }) }
    }
  }
}

function extractionPrompt (existing: MemoryRecord[], turns: QueuedTurn[]): string {
  return [
    'Extract long-term facts about the USER from the conversation below: profile (name, age, job, place),',
    'preferences, events (with dates), relations (people, pets), recurring topics. Skip small talk, the',
    'assistant\'s own statements, and facts already known. Answer ONLY a JSON array, e.g.',
    '[{"content":"喜欢吃火锅","category":"preference","subType":"food","confidence":0.8,"kind":"stated"}]; [] when there is nothing new.',
    'category is one of profile, preference, event, relation, topic, custom.',
    'kind is "stated" when the USER said the fact in their own words, "inferred" when you concluded it from what they said.',
    'When a stated fact contradicts a known one (they moved, changed jobs), add "replaces": <the known fact\'s #id>.',
    '',
    'Already known:',
    ...(existing.length ? existing.map((r) => `- #${r.id} [${r.category}] ${r.content}`) : ['(nothing)']),
    '',
    'Conversation:',
    ...turns.flatMap((t) => [`USER: ${t.user}`, `ASSISTANT: ${t.assistant}`])
  ].join('\n')
}

/** The facts of a model answer: the first JSON array in it (code fences and reasoning tolerated). */
export function parseFacts (answer: string): ExtractedFact[] {
  const text = stripReasoning(answer)
  const start = text.indexOf('[')
  const end = text.lastIndexOf(']')
  if (start < 0 || end <= start) return []
  let data: unknown
  try { data = JSON.parse(text.slice(start, end + 1)) } catch { return [] }
  if (!Array.isArray(data)) return []
  const out: ExtractedFact[] = []
  for (const item of data) {
    if (typeof item !== 'object' || item === null) continue
    const o = item as Record<string, unknown>
    const content = typeof o.content === 'string' ? o.content.trim().slice(0, 500) : ''
    if (!content) continue
    const conf = typeof o.confidence === 'number' && Number.isFinite(o.confidence) ? Math.min(1, Math.max(0, o.confidence)) : 0.7
    const replaces = typeof o.replaces === 'number' ? o.replaces : typeof o.replaces === 'string' ? Number(o.replaces.replace(/^#/, '')) : NaN
    out.push({
      content,
      category: (typeof o.category === 'string' ? categoryFromModel(o.category) : undefined) ?? 'custom',
      subType: typeof o.subType === 'string' ? o.subType.slice(0, 50) : '',
      confidence: conf,
      // a model that does not say: inferred (the cautious reading: it may be held for review)
      kind: o.kind === 'stated' ? 'stated' : 'inferred',
      ...(Number.isInteger(replaces) && replaces > 0 ? { replaces } : {})
    })
  }
  return out
}
