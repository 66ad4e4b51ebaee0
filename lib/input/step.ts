// The input step of a QQ chat turn (lib/chat/steps.ts), once admission let the message through: what the
// model gets of it (index.ts readInput: quoted message, forwarded bundles, voice transcript, image captions).
import { hostOf, type TurnStep } from '../chat/contracts.js'
import type { Runtime } from '../runtime.js'
import { readInput } from './read.js'

export function inputStep (rt: Runtime): TurnStep {
  return {
    name: 'input',
    via: ['qq'],
    after: ['admission'],
    async run (turn) {
      const { session: s, tr } = hostOf(turn)
      const read = await readInput({ rt, s, tr }, turn)
      // a voice message that could not be heard: told (done), or passed on while transcription is off
      if ('handled' in read) return read.handled ? 'done' : 'pass'
      turn.text = read.text
      turn.images = read.images
      if (read.taint.length) turn.options.taint = read.taint
    }
  }
}
