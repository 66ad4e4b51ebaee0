// Bursts: people often send a question in pieces ("@bot 帮我看看" / "这段代码" / "哪里错了"). With
// chat.burstWindowMs (groups.<id>.burstWindowMs) above 0, a user's messages in one chat that arrive
// within the window of each other become one turn: the message that opens the burst waits (on the
// runtime clock) until the window has passed since the last piece, later pieces add their text and
// images and are done, and the model is called once with the pieces joined by newlines. A piece that
// is not addressed to the bot joins an open burst too (only the first needs to call the bot);
// commands never do. A host may hand the pieces to the plugin out of order (TRSS runs each event's
// plugins on its own, so an @-message with more to check can reach the chat handler after the plain
// pieces sent after it): plain pieces seen within the window before a burst opens join it at its start.
// Under TRSS a user's messages within singleCD (2 s by default) of each other are dropped by the host
// before any plugin sees them: bursts need the host's singleCD below the window (README).
import { burstWindowFor } from '../config/group-settings.js'
import type { Config } from '../config/schema.js'
import type { Clock } from '../core/clock.js'
import type { HostSession } from '../host/session.js'
import { looksLikeCommand, type TriggerDecision } from './trigger.js'

interface BurstPiece {
  /** the text to answer (a message for the bot: with the trigger prefix removed) */
  text: string
  images: string[]
  messageId?: string
}

/** The merged turn the opening handler answers. */
interface BurstTurn { text: string; images: string[]; messageIds: string[] }

interface Open { pieces: BurstPiece[]; windowMs: number; timer: NodeJS.Timeout; done: (turn: BurstTurn) => void }

/** More pieces than this end the burst's growth: the next message is a turn of its own. */
const MAX_PIECES = 20
/** Users whose recent plain pieces are kept for a burst that may still open (oldest forgotten first). */
const MAX_EARLY_USERS = 1000

export class Bursts {
  private readonly open = new Map<string, Open>()
  /** plain pieces with no burst open yet, per user, with when they came */
  private readonly early = new Map<string, Array<BurstPiece & { at: number }>>()

  constructor (private readonly clock: Clock) {}

  /**
   * One message of a user (`key`: chat and user). Joins the user's open burst ('merged': the caller is
   * done) unless it is a command; else, when it is for the bot, resolves with the turn to answer, at
   * once with a window of 0, otherwise once the window passed without a new piece; else undefined.
   */
  async take (key: string, windowMs: number, msg: BurstPiece & { forBot: boolean; command: boolean }): Promise<BurstTurn | 'merged' | undefined> {
    const open = this.open.get(key)
    if (open && !msg.command && open.pieces.length < MAX_PIECES) {
      open.pieces.push(pieceOf(msg))
      this.clock.clearTimeout(open.timer)
      open.timer = this.clock.setTimeout(() => this.finish(key), open.windowMs)
      return 'merged'
    }
    if (windowMs <= 0 || open || (msg.command && !msg.forBot)) return msg.forBot ? merge([pieceOf(msg)]) : undefined
    const now = this.clock.now()
    const before = (this.early.get(key) ?? []).filter((p) => now - p.at <= windowMs)
    this.early.delete(key)
    if (!msg.forBot) {
      this.remember(key, [...before, { ...pieceOf(msg), at: now }].slice(-MAX_PIECES))
      return undefined
    }
    const pieces = [...before.map(pieceOf), pieceOf(msg)]
    return await new Promise<BurstTurn>((resolve) => {
      this.open.set(key, { pieces, windowMs, timer: this.clock.setTimeout(() => this.finish(key), windowMs), done: resolve })
    })
  }

  /** Ends every open burst now (the plugin stops): their turns are answered with what arrived. */
  flush (): void {
    for (const key of [...this.open.keys()]) this.finish(key)
    this.early.clear()
  }

  private remember (key: string, pieces: Array<BurstPiece & { at: number }>): void {
    this.early.set(key, pieces) // (re)inserted last: the first key is the one longest quiet
    if (this.early.size > MAX_EARLY_USERS) {
      const oldest = this.early.keys().next().value
      if (oldest !== undefined) this.early.delete(oldest)
    }
  }

  private finish (key: string): void {
    const open = this.open.get(key)
    if (!open) return
    this.open.delete(key)
    this.clock.clearTimeout(open.timer)
    open.done(merge(open.pieces))
  }
}

/**
 * The chat handler's step between the trigger decision and the pipeline: the turn to answer for this
 * message (several merged when they came in a burst), 'merged' when it joined another handler's turn,
 * undefined when it is not for the bot. `text` is the message's text (an image-only one's stand-in).
 */
export async function takeBurst (bursts: Bursts, cfg: Config, s: HostSession, text: string, decision: TriggerDecision): Promise<BurstTurn | 'merged' | undefined> {
  return await bursts.take(`${s.groupId ?? ''}:${s.userId}`, burstWindowFor(cfg, s.groupId), {
    text: decision.triggered ? decision.text : text,
    images: s.images,
    ...(s.messageId ? { messageId: s.messageId } : {}),
    forBot: decision.triggered,
    command: looksLikeCommand(text, cfg.commandPrefix) && !decision.triggered
  })
}

function pieceOf (msg: BurstPiece): BurstPiece {
  return { text: msg.text, images: msg.images, ...(msg.messageId ? { messageId: msg.messageId } : {}) }
}

function merge (pieces: BurstPiece[]): BurstTurn {
  return {
    text: pieces.map((p) => p.text.trim()).filter((t) => t).join('\n'),
    images: pieces.flatMap((p) => p.images),
    messageIds: pieces.flatMap((p) => (p.messageId ? [p.messageId] : []))
  }
}
