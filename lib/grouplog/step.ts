// The group log's step of a QQ chat turn (lib/chat/steps.ts): every group message is logged before the
// trigger decides (addressed or not: record.ts), and the bot's answers once they went out.
import { hostOf, type TurnStep } from '../chat/contracts.js'
import type { Runtime } from '../runtime.js'
import { recordBotAnswer, recordGroupMessage } from './record.js'

export function groupLogStep (rt: Runtime): TurnStep {
  return {
    name: 'group-log',
    via: ['qq'],
    before: ['trigger'],
    run (turn) {
      const s = hostOf(turn).session
      recordGroupMessage(rt, s)
      turn.onAnswered.push((text) => recordBotAnswer(rt, s, text))
    }
  }
}
