// A streamed answer in a QQ chat (README "Streamed answers", lib/delivery/README.md): the model's text
// as it comes (the pipeline's onDelta), reasoning held out (stream-reasoning.ts), cut into pieces
// (pieces.ts), each piece moderated and sent through the answer's delivery (answer.ts: the same plain
// text, quote and @ of the first piece, the one send path and its pacing). A round that calls tools
// (the pipeline's tool_call event) drops what it wrote and not sent yet, or sends it as one short aside.
// Past longAnswerChars or streamMaxPieces pieces, the rest waits for the end and goes as one message
// (a long answer's rest as a forward or image). When nothing went out, the end is today's delivery.
import type { TurnEvent } from '../chat/contracts.js'
import { errorText } from '../core/errors.js'
import { redact } from '../core/redact.js'
import type { Runtime } from '../runtime.js'
import type { AnswerDelivery } from './answer.js'
import type { Media } from './media.js'
import { PieceSplitter } from './pieces.js'
import { ReasoningGate } from './stream-reasoning.js'

/** A tool round's preface up to this long may go out as an aside (when nothing else did). */
const ASIDE_MAX_CHARS = 80
/** what a chunk holds when it may complete a piece (pieces.ts: end marks, closing quotes, the space
 * after a period, the next line's start) */
const MAY_END = /[\s。！？!?…．.”’」』）)】》"'\]]/

export interface StreamOptions {
  /** the outbound moderation of one piece: its text to send, or undefined when withheld (told already) */
  moderate(text: string): Promise<string | undefined>
}

export class StreamedAnswer {
  private gate = new ReasoningGate()
  private splitter: PieceSplitter
  /** the pieces' sends, one after another */
  private chain: Promise<void> = Promise.resolve()
  /** answer pieces sent (or on their way) */
  private pieces = 0
  /** visible text of the current model round */
  private roundChars = 0
  /** no more pieces: the rest goes at the end */
  private holding = false
  private ended = false
  /** a piece went out */
  spoke = false
  /** moderation withheld a piece: nothing more is sent */
  withheld = false

  constructor (private readonly rt: Runtime, private readonly delivery: AnswerDelivery, private readonly opts: StreamOptions) {
    this.splitter = new PieceSplitter(delivery.settings.streamMinChars)
  }

  /** The pipeline's onDelta: never throws into the model's stream. */
  readonly onDelta = (chunk: string): void => {
    if (this.ended || this.withheld) return
    try {
      const { text, reset } = this.gate.push(chunk)
      if (reset) {
        const dropped = this.splitter.flush()
        if (this.spoke) this.rt.log.warn('A streamed answer ended its reasoning after pieces went out', { dropped: dropped.length })
        this.roundChars = 0
      }
      if (!text) return
      this.splitter.push(text)
      this.roundChars += text.length
      // a chunk of words alone (CJK text mid-sentence) completes no piece: no need to look
      if (MAY_END.test(text)) this.takePieces()
    } catch (err) {
      this.rt.log.warn('Streamed delivery failed on a chunk', { error: errorText(err) })
    }
  }

  /** The pipeline's onEvent: a tool call ends the round that asked for it. */
  readonly onEvent = (ev: TurnEvent): void => {
    if (ev.type !== 'tool_call' || this.ended) return
    const preface = (this.splitter.flush() + this.gate.end()).trim()
    this.gate = new ReasoningGate()
    this.roundChars = 0
    if (!preface || this.withheld || this.pieces > 0 || this.delivery.noticeSent || preface.length > ASIDE_MAX_CHARS) return
    // one short aside at most: the notice flag is set at once, so later rounds' prefaces are dropped
    this.delivery.noticeSent = true
    this.delivery.stop()
    this.enqueue(async () => {
      const text = await this.opts.moderate(redact(preface))
      if (text === undefined) { this.withheld = true; return }
      await this.delivery.aside(text)
    })
  }

  private takePieces (): void {
    if (this.holding) return
    const d = this.delivery.settings
    // past the long answer's length, or the pieces' count, or once the chat is guarded: the rest waits
    if ((d.longAnswer !== 'off' && this.roundChars > d.longAnswerChars) || this.pieces >= d.streamMaxPieces || this.delivery.guarded()) {
      this.holding = true
      return
    }
    for (const piece of this.splitter.take(this.pieces === 0, d.streamMaxPieces - this.pieces)) {
      const first = this.pieces === 0
      this.pieces++
      if (first) this.delivery.stop() // the first piece stands for the thinking notice
      this.enqueue(async () => {
        const text = await this.opts.moderate(redact(piece))
        if (text === undefined) { this.withheld = true; return }
        if (await this.delivery.piece(text, first)) this.spoke = true
      })
    }
  }

  private enqueue (send: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.withheld || this.ended) return
      try {
        await send()
      } catch (err) {
        this.rt.log.warn('Could not send a piece of a streamed answer', { error: errorText(err) })
      }
    })
  }

  /** The sends queued so far are done. */
  async idle (): Promise<void> { await this.chain }

  /**
   * The answer came (moderated as a whole): after the pieces, the rest of the final round as one message
   * (as a long answer when the streamed text passed longAnswerChars); when no piece went out, the whole
   * answer as an unstreamed one.
   */
  async finish (response: string, media: readonly Media[] = []): Promise<void> {
    await this.idle()
    const rest = this.splitter.flush() + this.gate.end()
    const streamedChars = this.roundChars
    this.ended = true
    if (this.withheld) return
    if (!this.spoke) { await this.delivery.answer(response, media); return }
    // the final round's text not sent yet; the answer itself when that round streamed nothing
    const text = streamedChars > 0 ? redact(rest).trim() : response
    const allowed = text ? await this.opts.moderate(text) : ''
    if (allowed === undefined) { this.withheld = true; return }
    await this.delivery.rest(allowed, media, streamedChars || response.length)
  }

  /** The turn failed or was withheld: nothing more is sent; resolves when the sends on their way are done. */
  async cancel (): Promise<void> {
    this.ended = true
    this.delivery.stop()
    await this.chain
  }
}

/** The streamed delivery of this answer when the chat streams (AnswerDelivery.streams), else undefined. */
export function streamAnswer (rt: Runtime, delivery: AnswerDelivery, opts: StreamOptions): StreamedAnswer | undefined {
  return delivery.streams() ? new StreamedAnswer(rt, delivery, opts) : undefined
}
