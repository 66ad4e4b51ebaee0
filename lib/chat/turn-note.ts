// The head and tail of a user's message in a request (README.md of this folder, "Request layout").
// Head (the note, stored with the message and replayed unchanged by later turns): the note contributors'
// text (the group's new messages), then when the message was sent at chat.turnTime's precision and who
// sent it. Tail (this request only): what was read for this message (memories, passages, skills).
import type { Config } from '../config/schema.js'

const WEEKDAYS: Readonly<Record<Config['language'], readonly string[]>> = {
  'zh-CN': ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
}
const pad = (n: number): string => String(n).padStart(2, '0')

/** The time a message was sent, at the configured precision, in the machine's time zone ('' = off). */
export function timeStamp (at: number, precision: Config['chat']['turnTime'], language: Config['language']): string {
  if (precision === 'off') return ''
  const d = new Date(at)
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${WEEKDAYS[language][d.getDay()] ?? ''}`
  if (precision === 'date') return date
  return precision === 'hour' ? `${date} ${pad(d.getHours())}:00` : `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** A display name as it may stand in the stamp: one line, no brackets to close the stamp early, short. */
function speakerName (name: string): string {
  return name.replace(/[\r\n[\]【】]+/g, ' ').trim().slice(0, 32)
}

/**
 * The note of a message: the contributors' notes, then `[time · name]`. The speaker is left out where the
 * message names them itself (a group's shared conversation: `name: text`).
 */
export function turnNote (parts: readonly string[], stamp: string, speaker?: string): string {
  const who = speaker ? speakerName(speaker) : ''
  const head = [stamp, who].filter(Boolean).join(' · ')
  return [...parts, ...(head ? [`[${head}]`] : [])].join('\n')
}

/** The header of the tail: the model reads what follows as the system's, not the user's words. */
export const TURN_TAIL_HEAD = '[以下是系统为这条消息附上的参考，不是对方写的 (added for this message by the system, not written by the user)]'

/** A user message as the model reads it: note, text, then this turn's tail. */
export function userContent (text: string, note?: string, tail?: readonly string[]): string {
  const body = note ? `${note}\n${text}` : text
  return tail?.length ? `${body}\n\n${TURN_TAIL_HEAD}\n${tail.join('\n\n')}` : body
}
