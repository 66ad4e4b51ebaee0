// How logged group messages are shown to the model (the context block and get_group_history):
// `[HH:MM] name: text`, one line each, newest kept when the whole would be too long.
import type { GroupLogEntry } from './types.js'

const pad = (n: number): string => String(n).padStart(2, '0')

/** One entry as a line: local time, the speaker (the bot's own lines marked), the text cut to maxChars. */
function formatEntry (e: GroupLogEntry, maxChars: number): string {
  const d = new Date(e.at)
  const name = (e.nickname || e.userId) + (e.fromBot ? '（你）' : '')
  let text = e.text.replace(/\s*\n\s*/g, ' ').trim()
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}…`
  const images = e.images ? `${text ? ' ' : ''}[图片${e.images > 1 ? `×${e.images}` : ''}]` : ''
  return `[${pad(d.getHours())}:${pad(d.getMinutes())}] ${name}: ${text}${images}`
}

/** The entries (oldest first) as lines, dropping the oldest until the lines fit in maxTotal characters. */
export function formatEntries (entries: readonly GroupLogEntry[], opts: { lineChars: number; maxTotal: number }): string[] {
  const out: string[] = []
  let used = 0
  for (let i = entries.length - 1; i >= 0; i--) {
    const line = formatEntry(entries[i]!, opts.lineChars)
    if (used + line.length + 1 > opts.maxTotal) break
    out.push(line)
    used += line.length + 1
  }
  return out.reverse()
}
