// The host's `e.reply(msg, quote?, {at?, recallMsg?})` wrapper.
import type { StandaloneLogger } from './logger.js'
import { isEmptyMessage, toSegments } from './segments.js'
import type { TimerSet } from './timers.js'
import type { Profile, ReplyOpts, Sendable, SendResult, StandaloneEvent } from './types.js'

export interface ReplyDeps {
  profile: Profile
  logger: StandaloneLogger
  timers: TimerSet
}

export function installReply(e: StandaloneEvent, deps: ReplyDeps): void {
  const { profile, logger, timers } = deps
  e.reply = async (msg: Sendable = '', quote = false, data: ReplyOpts = {}): Promise<SendResult | false | undefined> => {
    if (isEmptyMessage(msg)) return false
    const target = e.isGroup ? e.group : e.friend
    if (!target) return false
    if (profile === 'miao' && e.isGroup && (e.group?.mute_left ?? 0) > 0) return false

    let segs = toSegments(msg)
    if (data.at && e.isGroup) {
      const who = data.at === true ? e.user_id : data.at
      segs = [{ type: 'at', qq: who }, { type: 'text', text: '\n' }, ...segs]
    }
    // TRSS quotes with a reply segment; Miao passes icqq's native quote argument.
    if (quote && profile === 'trss' && e.message_id !== undefined) segs = [{ type: 'reply', id: e.message_id }, ...segs]
    const nativeQuote = quote && profile === 'miao' ? e.message_id : undefined

    let res: SendResult
    try {
      res = await target.sendMsg(segs, nativeQuote)
    } catch (err) {
      logger.error(`${e.logText ?? ''} reply failed:`, err)
      return profile === 'trss' ? { error: [err] } : undefined
    }

    const recallSec = Number(data.recallMsg ?? 0)
    if (recallSec > 0) {
      timers.after(recallSec * 1000, () => {
        if (res.message_id !== undefined) void target.recallMsg(res.message_id)
        // TRSS also recalls the user's triggering message
        if (profile === 'trss') void e.recall?.()
      })
    }
    return res
  }
}
