// The openers' steps of a QQ chat turn (lib/chat/README.md "The turn, step by step"): every group message
// makes its group known (before the trigger decides, so unaddressed ones count too), and a member who
// talks to the bot (a turn past the `burst` step) starts openers again after unanswered ones.
import { hostOf, type TurnStep } from '../chat/contracts.js'
import type { InitiativeService } from './service.js'

export function initiativeSteps (service: InitiativeService): TurnStep[] {
  return [
    {
      name: 'initiative-seen',
      via: ['qq'],
      after: ['group-log'],
      before: ['trigger'],
      run (turn) {
        const s = hostOf(turn).session
        if (s.groupId && !s.self) service.noteGroup(s.groupId, s.botId)
      }
    },
    {
      name: 'initiative-called',
      via: ['qq'],
      after: ['burst'],
      before: ['admission'],
      run (turn) {
        const s = hostOf(turn).session
        if (s.groupId && !s.self) service.noteCalled(s.groupId)
      }
    }
  ]
}
