// Proactive replies' step of a QQ chat turn (lib/chat/steps.ts): a group message that is not for the bot
// may still get the bot to join in on its own (service.ts consider), where the group and user may be
// answered at all (lib/governance mayReact).
import { hostOf, type TurnStep } from '../chat/contracts.js'
import { mayReact } from '../governance/gate.js'
import type { Runtime } from '../runtime.js'
import type { ProactiveReplies } from './service.js'

export function joinInStep (rt: Runtime, replies: ProactiveReplies): TurnStep {
  return {
    name: 'join-in',
    via: ['qq'],
    after: ['burst'],
    onPass: true,
    run (turn) {
      const s = hostOf(turn).session
      if (turn.addressed === false && s.isGroup && mayReact(rt, s)) replies.consider(s)
    }
  }
}
