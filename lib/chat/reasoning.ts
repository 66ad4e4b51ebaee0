// Models that think aloud wrap it in <think>…</think> (also <thinking>, <reasoning>, with or without
// attributes); some send only the closing tag (the opening one went to a separate reasoning field), and
// an answer cut short may hold an opening tag that never closes. What is kept from an answer (memories,
// summaries) and what goes into a chat (lib/delivery) never includes that text. One owner for all three.
const BLOCK = /<(think|thinking|reasoning)\b[^>]*>[\s\S]*?<\/\1\s*>/gi
/** One opening and one closing reasoning tag, for readers of a stream (lib/channels/think-split.ts, lib/delivery/stream-reasoning.ts). */
export const REASONING_OPEN = /<(think|thinking|reasoning)\b[^>]*>/i
export const REASONING_CLOSE = /<\/(think|thinking|reasoning)\s*>/i
const NAMES = ['think', 'thinking', 'reasoning']
/** a tag longer than this is no tag of ours */
const MAX_TAG = 64

/**
 * Whether `tail` (from a `<` to the end of the text so far) may still become a reasoning tag once the next
 * chunk comes (`closing`: a closing tag counts too): a stream holds it back until then.
 */
export function maybeReasoningTag (tail: string, closing = true): boolean {
  if (tail.length > MAX_TAG || tail.includes('>')) return false
  const m = (closing ? /^<\/?([a-z]*)(\s[^>]*)?$/i : /^<([a-z]*)(\s[^>]*)?$/i).exec(tail)
  if (!m) return false
  const name = (m[1] ?? '').toLowerCase()
  return m[2] !== undefined ? NAMES.includes(name) : NAMES.some((n) => n.startsWith(name))
}
const CLOSE = /<\/(think|thinking|reasoning)\s*>/gi
const OPEN_LEADING = /^\s*<(think|thinking|reasoning)\b[^>]*>/i

export function stripReasoning (answer: string): string {
  // fast path: most answers hold no tag at all
  if (!/<\/?(think|thinking|reasoning)\b/i.test(answer)) return answer
  let text = answer.replace(BLOCK, '')
  // a closing tag without its opening one: everything before the last such tag is reasoning
  let last = -1
  for (const m of text.matchAll(CLOSE)) last = m.index + m[0].length
  if (last >= 0) text = text.slice(last)
  // an opening tag at the start that never closes: the whole rest is reasoning
  if (OPEN_LEADING.test(text)) return ''
  return text
}
