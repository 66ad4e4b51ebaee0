// The delivery step of a QQ chat turn (lib/chat/steps.ts), just before the reply: the thinking notice
// (its timer from now), then the answer in the form QQ shows well (answer.ts), streamed in pieces where
// delivery.stream says so (stream.ts, README "Streamed answers"). Every text passes the turn's answer
// checks first (the banned-word check); what went out is told to `turn.onAnswered`.
import { hostOf, type ChatTurn, type TurnStep } from '../chat/contracts.js'
import type { Runtime } from '../runtime.js'
import { startDelivery } from './answer.js'
import { streamAnswer } from './stream.js'

/** The text after every check of the turn, or undefined when one withheld it (and told why). */
async function checked (turn: ChatTurn, text: string): Promise<string | undefined> {
  let out: string | undefined = text
  for (const check of turn.answerChecks) {
    out = await check(out)
    if (out === undefined) return undefined
  }
  return out
}

export function deliveryStep (rt: Runtime): TurnStep {
  return {
    name: 'delivery',
    via: ['qq'],
    after: ['moderation', 'scope'],
    before: ['reply'],
    run (turn) {
      const { session: s, tr } = hostOf(turn)
      const delivery = startDelivery(rt, s, { emptyText: tr('chat.empty') })
      const streamed = streamAnswer(rt, delivery, { moderate: async (piece) => await checked(turn, piece) })
      turn.options.onAnswer = async (answer, media) => {
        await streamed?.idle()
        // a withheld piece was told already (and nothing more goes out)
        const response = streamed?.withheld ? undefined : await checked(turn, answer)
        turn.answered = true
        if (response === undefined) { await streamed?.cancel(); return }
        for (const told of turn.onAnswered) told(response)
        await (streamed ? streamed.finish(response, media) : delivery.answer(response, media))
      }
      if (streamed) {
        turn.options.onDelta = streamed.onDelta
        turn.options.onEvent = streamed.onEvent
      }
      turn.cleanup.push(async () => {
        delivery.stop()
        if (turn.error === undefined) return
        await streamed?.cancel()
        // after a piece went out, the user gets no second, error message
        if (streamed?.spoke === true) turn.answered = true
      })
    }
  }
}
