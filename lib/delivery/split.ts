// Cutting an answer for QQ: a long one into forward-message nodes at paragraph boundaries, a short one
// into sentences for sentence-by-sentence sending.

/** A forward node holds about this much; a paragraph longer than a node is cut at lines, then sentences. */
export const NODE_CHARS = 800
/** Nodes per forward message at most (QQ shows large bundles poorly): past it the nodes grow, up to
 * MAX_NODE_CHARS, and what still does not fit is cut off with an ellipsis. */
export const MAX_NODES = 20
const MAX_NODE_CHARS = 4000
/** Sentences sent one by one at most: the rest goes with the last one. */
export const MAX_SENTENCES = 8

const SENTENCE_END = /(?<=[。！？!?…~～；;])\s*|(?<=\.)\s+|\n+/

/** Pieces of `text` no longer than `max`: at line ends, then sentence ends, then hard cuts. */
function pieces (text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const out: string[] = []
  let cur = ''
  const units = text.split(/(?<=\n)/).flatMap((l) => (l.length <= max ? [l] : l.split(/(?<=[。！？!?.；;])/)))
  for (let u of units) {
    while (u.length > max) {
      if (cur) { out.push(cur); cur = '' }
      out.push(u.slice(0, max))
      u = u.slice(max)
    }
    if (cur.length + u.length > max) { out.push(cur); cur = '' }
    cur += u
  }
  if (cur) out.push(cur)
  return out.map((p) => p.trim()).filter(Boolean)
}

/** Paragraphs packed into nodes of about NODE_CHARS, at most MAX_NODES. */
export function splitNodes (text: string): string[] {
  const size = Math.min(MAX_NODE_CHARS, Math.max(NODE_CHARS, Math.ceil(text.length / MAX_NODES)))
  const nodes: string[] = []
  let cur = ''
  for (const para of text.split(/\n{2,}/)) {
    const p = para.trim()
    if (!p) continue
    if (cur && cur.length + 2 + p.length <= size) { cur += `\n\n${p}`; continue }
    if (cur) nodes.push(cur)
    cur = ''
    const parts = pieces(p, size)
    const lastPart = parts.pop() ?? ''
    nodes.push(...parts)
    cur = lastPart
  }
  if (cur) nodes.push(cur)
  if (nodes.length > MAX_NODES) {
    nodes.length = MAX_NODES
    nodes[MAX_NODES - 1] = `${(nodes[MAX_NODES - 1] as string).slice(0, size - 1)}…`
  }
  return nodes
}

/** The sentences of a short answer, at most MAX_SENTENCES. */
export function splitSentences (text: string): string[] {
  const parts: string[] = []
  for (const raw of text.split(SENTENCE_END)) {
    const p = raw.trim()
    if (!p) continue
    // "……" or "!?" cut apart: punctuation alone goes with the sentence before it
    if (parts.length && /^[\p{P}\s]+$/u.test(p)) parts[parts.length - 1] += p
    else parts.push(p)
  }
  if (parts.length <= MAX_SENTENCES) return parts
  const head = parts.slice(0, MAX_SENTENCES - 1)
  head.push(parts.slice(MAX_SENTENCES - 1).join(' '))
  return head
}

/** The pause before a sentence: the base delay plus a little per character, the extra at most 2 s. */
export function sentenceDelay (sentence: string, baseMs: number): number {
  return baseMs <= 0 ? 0 : baseMs + Math.min(2000, sentence.length * 20)
}
