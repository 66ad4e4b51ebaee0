// The bot's own words that nobody asked for (a proactive reply, an opener after silence, a scheduled task's
// answer): the moderation gate quietly (banned words masked, or the text withheld with no refusal notice),
// the group log, then lib/delivery without quoting (delivery.atSender still applies).
import type { Media } from '../delivery/media.js'
import { startDelivery } from '../delivery/answer.js'
import { moderateAnswer } from '../governance/gate.js'
import { recordBotAnswer } from '../grouplog/record.js'
import type { HostSession } from '../host/session.js'
import type { Runtime } from '../runtime.js'

/** Sends `text` into the session's chat as above; answers the text that went out, or undefined when the gate withheld it. */
export async function sayUnasked (rt: Runtime, s: HostSession, text: string, media?: Media[]): Promise<string | undefined> {
  const allowed = await moderateAnswer(rt, s, text, true)
  if (!allowed) return undefined
  recordBotAnswer(rt, s, allowed)
  await startDelivery(rt, s, { quote: false, thinkingNotice: false }).answer(allowed, media)
  return allowed
}
