// Governance's steps of a QQ chat turn (lib/chat/steps.ts): admission (access lists and quotas, before
// anything is read or asked), moderation (banned words in the user's text, and the check every answer
// and streamed piece passes before it goes out), accounting (the turn's tokens against the quotas).
import { hostOf, type TurnStep } from '../chat/contracts.js'
import type { Runtime } from '../runtime.js'
import { admitChat, moderateAnswer, moderateInput, recordTurnTokens } from './gate.js'

export function governanceSteps (rt: Runtime): TurnStep[] {
  return [
    {
      name: 'admission',
      via: ['qq'],
      after: ['burst'],
      async run (turn) {
        const gate = await admitChat(rt, hostOf(turn).session)
        if (!gate) return 'done'
        if (!gate.tools) turn.options.toolsEnabled = false
      }
    },
    {
      name: 'moderation',
      via: ['qq'],
      after: ['input'],
      async run (turn) {
        const s = hostOf(turn).session
        const allowed = await moderateInput(rt, s, turn.text) // masked, or no answer (the notice was sent)
        if (allowed === undefined) return 'done'
        turn.text = allowed
        turn.answerChecks.push(async (text) => await moderateAnswer(rt, s, text))
      }
    },
    {
      name: 'accounting',
      via: ['qq'],
      after: ['reply'],
      run (turn) { recordTurnTokens(rt, hostOf(turn).session, turn.result?.usage) }
    }
  ]
}
