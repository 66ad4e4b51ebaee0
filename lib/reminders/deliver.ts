// Sends a due reminder into its chat with no event at hand (chatSession, lib/host/session.ts), through
// lib/delivery like a chat answer (markdown as plain text, a long text as a forward message, the chat's
// delivery settings), @-mentioning its owner in a group.
import { errorText } from '../core/errors.js'
import { NotSentError } from '../storage/due.js'
import { startDelivery } from '../delivery/answer.js'
import { segment } from '../host/port.js'
import { chatSession, type HostSession } from '../host/session.js'
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
  const isGroup = r.groupId !== undefined
  let sent = 0
  const at = (): Seg => segment().at(r.userId)
  let session: HostSession
  try {
    session = chatSession({ groupId: r.groupId, userId: r.userId, nickname: r.nickname }, r.botId, (target) => {
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
      return async (msg) => {
        if (!isGroup) await send(msg)
        else if (isForward(msg)) { await send([at()]); await send(msg) } else await send([at(), ' ', ...(Array.isArray(msg) ? msg : [msg])])
        return undefined
      }
    })
  } catch (err) { throw new NotSentError(errorText(err)) }
  const text = t(cfg.language, o.late ? 'reminders.fireLate' : 'reminders.fire', { message: r.message, time: formatWall(o.timeZone, r.nextAt) })
  await startDelivery(rt, session, { quote: false, thinkingNotice: false }).answer(text)
}
