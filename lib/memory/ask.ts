// Asking the user about what the extractor guessed (config `memory.askUser`, lib/memory/README.md
// "Asking the user"): after a round held inferred memories as pending, the user gets a few lines in
// their private chat (memories are personal: never in a group), with the commands that confirm or
// delete them. At most once per round and once an hour per user; only to users the host can message
// privately (else logged once, the memories stay pending). The text goes out through the host port's
// sendPrivate, so the outbound gate and the send pacer see it like every other bot text.
import type { Clock } from '../core/clock.js'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import { canMessagePrivately, sendPrivate } from '../host/port.js'
import { t, type Language } from '../i18n.js'
import type { RoundListener } from './extract.js'
import type { MemoryService } from './service.js'

/** At most one question an hour per user. */
export const ASK_EVERY_MS = 60 * 60_000
/** Lines of one question (the newest pending memories). */
const LINES = 3
const MAX_LINE = 60

export interface AskDeps {
  memory: MemoryService
  clock: Clock
  log: PluginLogger
  /** Live settings (read on every use: config reloads apply). */
  settings: () => { askUser: boolean; language: Language; commandPrefix: string }
}

export class PendingAsker implements RoundListener {
  /** when each user was last asked (in memory: after a restart one more question may come sooner) */
  private readonly lastAsked = new Map<string, number>()
  /** users the host could not reach privately, logged once each */
  private readonly unreachable = new Set<string>()

  constructor (private readonly d: AskDeps) {}

  /**
   * Called after a round saved memories for `userId`; asks about the user's pending ones when the round
   * added any. Answers whether a question went out. Never throws (a failed send only logs).
   */
  async afterRound (userId: string, added: number[], botId?: string): Promise<boolean> {
    const cfg = this.d.settings()
    if (!cfg.askUser) return false
    if (!added.some((id) => this.d.memory.get(id)?.status === 'pending')) return false
    const now = this.d.clock.now()
    const last = this.lastAsked.get(userId)
    if (last !== undefined && now - last < ASK_EVERY_MS) return false
    if (!canMessagePrivately(userId, botId)) {
      if (!this.unreachable.has(userId)) {
        this.unreachable.add(userId)
        this.d.log.info('Not asking a user about pending memories: the host cannot message them privately; they stay pending', { userId })
      }
      return false
    }
    this.unreachable.delete(userId)
    // the user's pending memories, newest first (those of this round, then older ones still waiting)
    const pending = this.d.memory.list({ userId }).filter((r) => r.status === 'pending').slice(0, LINES)
    if (pending.length === 0) return false
    const lines = pending.map((r) => `#${r.id} ${r.content.length > MAX_LINE ? `${r.content.slice(0, MAX_LINE)}…` : r.content}`)
    const text = t(cfg.language, 'memory.ask', { lines: lines.join('\n'), id: pending[0]?.id ?? '', p: cfg.commandPrefix })
    try {
      const sent = await sendPrivate(userId, text, botId)
      if (!sent) { this.d.log.warn('Asking a user about pending memories sent nothing', { userId }); return false }
    } catch (err) {
      this.d.log.warn('Asking a user about pending memories failed', { userId, error: errorText(err) })
      return false
    }
    this.lastAsked.set(userId, now)
    return true
  }

  /** Forgets the user (they asked to be forgotten). */
  forget (userId: string): void {
    this.lastAsked.delete(userId)
    this.unreachable.delete(userId)
  }
}
