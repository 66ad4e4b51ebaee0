// Bursts: people often send a question in pieces ("@bot 帮我看看" / "这段代码" / "哪里错了"). With
// chat.burstWindowMs (groups.<id>.burstWindowMs) above 0, a user's messages in one chat that arrive
// within the window of each other become one turn: the message that opens the burst waits (on the
// runtime clock) until the window has passed since the last piece, later pieces add their text and
// images and are done, and the model is called once with the pieces joined by newlines. A piece that
// is not addressed to the bot joins an open burst too (only the first needs to call the bot);
// commands never do.
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

export class Bursts {
  private readonly open = new Map<string, Open>()

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
    if (!msg.forBot) return undefined
    const first = pieceOf(msg)
    if (windowMs <= 0 || open) return merge([first])
    return await new Promise<BurstTurn>((resolve) => {
      this.open.set(key, { pieces: [first], windowMs, timer: this.clock.setTimeout(() => this.finish(key), windowMs), done: resolve })
    })
  }

  /** Ends every open burst now (the plugin stops): their turns are answered with what arrived. */
  flush (): void {
    for (const key of [...this.open.keys()]) this.finish(key)
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
