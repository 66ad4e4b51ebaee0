// The chat domain's steps of a turn (lib/chat/steps.ts; README of this folder, "The turn, step by step"):
// QQ: trigger, burst, scope; both entries: preset (HTTP: an unknown preset is 404 before the turn counts),
// rate limit, reply.
import type { Runtime } from '../runtime.js'
import { takeBurst, type Bursts } from './burst.js'
import { hostOf, type ChatTurn, type TurnStep } from './contracts.js'
import { chatTurnOf } from './scope.js'
import type { ChatPipeline } from './service.js'
import { decideTrigger, type TriggerDecision } from './trigger.js'

export function chatSteps (rt: Runtime, pipeline: ChatPipeline, bursts: Bursts): TurnStep[] {
  const decisions = new WeakMap<ChatTurn, TriggerDecision>()
  const scopeOf = (turn: ChatTurn): NonNullable<ChatTurn['scope']> => {
    if (!turn.scope) throw new Error('A chat turn reached the pipeline without a scope')
    return turn.scope
  }
  return [
    {
      // the trigger rules (trigger.ts): an @, the prefix, a keyword, a probability
      name: 'trigger',
      via: ['qq'],
      run (turn) {
        const s = hostOf(turn).session
        const cfg = rt.config.get()
        decisions.set(turn, decideTrigger(cfg, { isGroup: s.isGroup, ...(s.groupId ? { groupId: s.groupId } : {}), atBot: s.atBot, text: turn.text, commandPrefix: cfg.commandPrefix }))
      }
    },
    {
      // a user's messages close together are one turn (burst.ts): later pieces are done here
      name: 'burst',
      via: ['qq'],
      after: ['trigger'],
      async run (turn) {
        const decision = decisions.get(turn)
        if (!decision) throw new Error('The burst step ran before the trigger step')
        const merged = await takeBurst(bursts, rt.config.get(), hostOf(turn).session, turn.text, decision)
        if (merged === 'merged') return 'done'
        turn.addressed = merged !== undefined
        if (!merged) return 'pass'
        turn.text = merged.text
        turn.images = merged.images
        turn.messageIds = merged.messageIds
      }
    },
    {
      // the conversation the turn belongs to, and the text as it stores it (scope.ts chatTurnOf)
      name: 'scope',
      via: ['qq'],
      after: ['burst', 'input', 'moderation'],
      run (turn) {
        const { scope, input } = chatTurnOf(hostOf(turn).session, rt.config.get(), turn)
        turn.scope = scope
        turn.text = input
      }
    },
    {
      name: 'preset',
      via: ['api'],
      async run (turn) {
        if (turn.options.presetId) await pipeline.preset(scopeOf(turn), turn.options.presetId)
      }
    },
    {
      // the user's chat rate limit (chat.userRateLimitPerMinute): RATE_LIMITED
      name: 'rate-limit',
      via: ['qq', 'api'],
      after: ['preset', 'scope'],
      async run (turn) { await pipeline.admit(scopeOf(turn)) }
    },
    {
      // the pipeline (service.ts): preset, the request in its slots, the model with its tools, storage
      name: 'reply',
      via: ['qq', 'api'],
      after: ['rate-limit'],
      async run (turn) {
        const images = turn.images.length ? { images: turn.images } : {}
        turn.result = await pipeline.admitted(scopeOf(turn), turn.text, { ...images, ...turn.options })
      }
    }
  ]
}
