// The user's own text in a user message as the chat pipeline renders it (lib/chat/turn-note.ts): without
// the note that heads it (the group's new messages, then the `[time · name]` stamp) and the turn's tail
// (memories, passages, skills). What a fake model answers to, as a real one would.
import { TURN_TAIL_HEAD } from '../../lib/chat/turn-note.js'

const STAMP = /^\[[^\]\n]*\]$/

export function splitUserContent (content: string): { note: string; text: string; tail: string } {
  const cut = content.indexOf(`\n\n${TURN_TAIL_HEAD}\n`)
  const body = cut >= 0 ? content.slice(0, cut) : content
  const tail = cut >= 0 ? content.slice(cut + TURN_TAIL_HEAD.length + 3) : ''
  const lines = body.split('\n')
  const stamp = lines.findIndex((l) => STAMP.test(l))
  if (stamp < 0) return { note: '', text: body, tail }
  return { note: lines.slice(0, stamp + 1).join('\n'), text: lines.slice(stamp + 1).join('\n'), tail }
}

export const userText = (content: string): string => splitUserContent(content).text
