// Sends a due reminder into its chat with no event at hand: the host's chat object (lib/host/port.ts
// pickChat), through lib/delivery like a chat answer (markdown as plain text, a long text as a
// forward message, the chat's delivery settings), @-mentioning its owner in a group.
import { errorText } from '../core/errors.js'
import { NotSentError } from '../storage/due.js'
import { startDelivery } from '../delivery/answer.js'
import { pickChat, segment } from '../host/port.js'
import { hostChat, type HostSession } from '../host/session.js'
import type { Sendable, Seg } from '../host/types.js'
import { t } from '../i18n.js'
import type { Runtime } from '../runtime.js'
import type { Reminder } from './types.js'
import { formatWall } from './zoned.js'

/** A merged forward message (one segment that is neither text nor media) takes no @ beside it. */
const isForward = (msg: Sendable): boolean =>
  typeof msg === 'object' && !Array.isArray(msg) && !['text', 'image', 'file', 'at'].includes((msg as Seg).type)

export async function deliverReminder (rt: Runtime, r: Reminder, o: { late: boolean; timeZone: string }): Promise<void> {
  const cfg = rt.config.get()
  let target
  try { target = pickChat({ groupId: r.groupId, userId: r.userId }, r.botId) } catch (err) { throw new NotSentError(errorText(err)) }
  const isGroup = r.groupId !== undefined
  let sent = 0
  const send = async (msg: Sendable): Promise<void> => {
    try {
      await target.sendMsg(msg)
    } catch (err) {
      // the first send failed: nothing went out, a retry sends it whole; later: part of it is out, so not again
      if (sent === 0) throw new NotSentError(errorText(err))
      throw err
    }
    sent++
  }
  const at = (): Seg => segment().at(r.userId)
  const session: HostSession = {
    kind: 'message',
    userId: r.userId,
    ...(r.nickname !== undefined ? { nickname: r.nickname } : {}),
    ...(r.groupId !== undefined ? { groupId: r.groupId } : {}),
    isGroup,
    isMaster: false,
    isGroupAdmin: false,
    atBot: false,
    botId: r.botId ?? '',
    text: '',
    images: [],
    segments: [],
    self: false,
    reply: async (msg) => {
      if (!isGroup) await send(msg)
      else if (isForward(msg)) { await send([at()]); await send(msg) } else await send([at(), ' ', ...(Array.isArray(msg) ? msg : [msg])])
      return undefined
    },
    chat: hostChat(isGroup ? { group: target } : { friend: target })
  }
  const text = t(cfg.language, o.late ? 'reminders.fireLate' : 'reminders.fire', { message: r.message, time: formatWall(o.timeZone, r.nextAt) })
  await startDelivery(rt, session, { quote: false, thinkingNotice: false }).answer(text)
}
