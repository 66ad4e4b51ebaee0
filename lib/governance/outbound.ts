// The outbound gate (lib/host/port.ts setOutboundGate): every message the bot account sends passes the
// output moderation here, in one place, whatever path it took: chat answers, send_message and the QQ
// tools, reminders, proactive lines and event remarks, command replies. Each text piece of the message
// (a string, a text segment) is checked; media segments pass as they are. A piece refused in a `refuse`
// chat withholds the whole message. Forward messages are checked when their nodes are made
// (lib/host/port.ts makeForwardMsg) through `gateSendable`.
import type { SendChat } from '../host/port.js'
import type { Sendable, Seg } from '../host/types.js'
import type { GovernanceService } from './service.js'

/** `msg` with each text piece as the gate lets it out, or undefined when one piece is withheld. */
export function gateSendable (gov: GovernanceService, chat: SendChat, msg: Sendable): Sendable | undefined {
  const who = { userId: chat.userId, groupId: chat.groupId }
  const one = (part: string | Seg): string | Seg | undefined => {
    if (typeof part === 'string') return gov.gateText(who, part)
    if (part.type === 'text' && typeof part.text === 'string') {
      const text = gov.gateText(who, part.text)
      return text === undefined ? undefined : { ...part, text }
    }
    return part
  }
  if (!Array.isArray(msg)) return one(msg)
  const out: Array<string | Seg> = []
  for (const part of msg) {
    const gated = one(part)
    if (gated === undefined) return undefined
    out.push(gated)
  }
  return out
}
