// What the model reads for a proactive reply (the recent group log as lines of "name: text") and how
// its answer "nothing to say" is recognised, so that such an answer sends nothing.
import type { GroupLogEntry } from '../grouplog/types.js'
import { stripReasoning } from '../chat/reasoning.js'

/** Entries of the group log given to the model for one proactive reply. */
export const PROACTIVE_LOG_ENTRIES = 20
/** A log line longer than this is cut (a pasted wall of text says little about the group's tone). */
const MAX_LINE = 300

/** The log as lines `name: text`; the bot's own lines carry `selfLabel` instead of a name. */
export function logLines (entries: readonly GroupLogEntry[], labels: { self: string; image: string }): string {
  return entries.map((e) => {
    const who = e.fromBot ? labels.self : (e.nickname || e.userId)
    const images = e.images ? ` ${labels.image.repeat(Math.min(e.images, 3))}` : ''
    const text = e.text.length > MAX_LINE ? `${e.text.slice(0, MAX_LINE)}…` : e.text
    return `${who}: ${text}${images}`.replace(/\s*\n\s*/g, ' ')
  }).join('\n')
}

// "[skip]" as the prompt asks, and the ways models say the same: (skip), 【跳过】, "pass", "沉默", ...
const SILENCE = /^[[【(（<]?\s*(skip|pass|silence|none|no reply|跳过|沉默|不回复|不说话|无)\s*[\]】)）>]?[.。!！]?$/i
const SKIP_TAG = /[[【]\s*skip\s*[\]】]/i

/** The text to send, or undefined when the model chose to say nothing. */
export function proactiveAnswer (answer: string): string | undefined {
  const text = stripReasoning(answer).trim()
  if (!text || SILENCE.test(text) || SKIP_TAG.test(text)) return undefined
  return text
}
