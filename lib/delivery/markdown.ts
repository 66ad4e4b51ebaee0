// Markdown as readable plain text for QQ, which shows markdown syntax literally. A small line-based
// converter (one pass over the lines, a few regular expressions per line; about 0.1 ms for a
// 3,000-character answer) instead of a full parser: chat answers use a small part of markdown, and
// what it does not know stays as written.
//   headings -> their text; **bold**, *italic*, ~~struck~~ -> the text; lists -> "• " (numbers kept,
//   nesting indented); code fences -> the code as is (fences removed); `inline code` -> the code;
//   [text](url) -> "text (url)"; images -> their alt text (media.ts takes them out first);
//   > quotes -> "│ "; tables -> "a | b" lines; rules -> a line; \* escapes -> the character.

const FENCE = /^\s{0,3}(`{3,}|~{3,})/
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/
const SETEXT = /^\s{0,3}(=+|-+)\s*$/
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/
const QUOTE = /^\s{0,3}((?:>\s?)+)(.*)$/
const BULLET = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/
const ORDERED = /^(\s*)(\d{1,9})([.)])\s+(.*)$/
const TABLE_SEP = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/
const LINK_DEF = /^\s{0,3}\[([^\]]+)\]:\s+(\S+)/
const RULE_TEXT = '──────────'

// Escaped characters become private-use code points while the syntax is read, then come back.
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|>~<])/g
const ESCAPED = /[\uE000-\uE07F]/g
const hide = (_: string, ch: string): string => String.fromCharCode(0xE000 + ch.charCodeAt(0))
const unhide = (ch: string): string => String.fromCharCode(ch.charCodeAt(0) - 0xE000)

// what inline() looks for: a line without any of these characters is returned as it is
const INLINE_SYNTAX = /[*_~`[\]!<\\]/
const HTML_TAG = /<\/?(?:br|p|div|span|b|i|u|s|strong|em|del|ins|mark|small|sub|sup|kbd|code|pre|center|font|details|summary|hr)\b[^>]*>/gi

function inlineOutsideCode (s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g, (_, alt: string) => alt)
    .replace(/\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, (_, text: string, url: string) => (text === url ? url : `${text} (${url})`))
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(HTML_TAG, '')
    .replace(/(\*\*\*|___)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/(^|[^*\w])\*(?=[^\s*])([^*]*?[^\s*])\*(?![*\w])/g, '$1$2')
    .replace(/(^|[^_\w])_(?=[^\s_])([^_]*?[^\s_])_(?![_\w])/g, '$1$2')
}

/** Inline markdown of one line; code spans are kept as written (only their backticks go). */
function inline (line: string): string {
  if (!INLINE_SYNTAX.test(line)) return line
  const s = line.includes('\\') ? line.replace(ESCAPE, hide) : line
  if (!s.includes('`')) return inlineOutsideCode(s)
  let out = ''
  let i = 0
  for (const m of s.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
    out += inlineOutsideCode(s.slice(i, m.index)) + (m[2] ?? '').trim()
    i = m.index + m[0].length
  }
  return out + inlineOutsideCode(s.slice(i))
}

const cellsOf = (row: string): string[] => {
  const t = row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '')
  return t.split(/(?<!\\)\|/).map((c) => inline(c.trim()))
}

const indentOf = (spaces: string): string => '  '.repeat(Math.floor(spaces.replace(/\t/g, '    ').length / 2))

export function markdownToPlain (md: string): string {
  const lines = md.replace(/\r\n?/g, '\n').split('\n')
  const out: string[] = []
  let fence = '' // the open fence's marker, '' outside code blocks
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const f = FENCE.exec(line)
    if (fence) {
      if (f && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1]) fence = ''
      else out.push(line)
      continue
    }
    if (f) { fence = f[1] as string; continue }
    if (!line.trim()) {
      if (out.length && out[out.length - 1] !== '') out.push('')
      continue
    }
    const next = lines[i + 1]
    if (line.includes('|') && next !== undefined && next.includes('-') && TABLE_SEP.test(next)) {
      out.push(cellsOf(line).join(' | '))
      i++
      while (i + 1 < lines.length && (lines[i + 1] as string).includes('|') && (lines[i + 1] as string).trim()) out.push(cellsOf(lines[++i] as string).join(' | '))
      continue
    }
    if (next !== undefined && SETEXT.test(next) && !RULE.test(line) && !BULLET.test(line) && !QUOTE.test(line) && !HEADING.test(line) && !ORDERED.test(line)) {
      // "Title" over a line of = or -: a heading
      out.push(inline(line.trim()))
      i++
      continue
    }
    let m: RegExpExecArray | null
    if ((m = HEADING.exec(line))) { out.push(inline(m[1] ?? '')); continue }
    if (RULE.test(line)) { out.push(RULE_TEXT); continue }
    if ((m = QUOTE.exec(line))) {
      const depth = (m[1] ?? '').replace(/\s/g, '').length
      const inner = m[2] ?? ''
      const b = BULLET.exec(inner)
      const o = b ? null : ORDERED.exec(inner)
      const body = b ? `• ${inline(b[3] ?? '')}` : o ? `${o[2]}${o[3]} ${inline(o[4] ?? '')}` : inline(HEADING.exec(inner)?.[1] ?? inner)
      out.push('│ '.repeat(depth) + body)
      continue
    }
    if ((m = BULLET.exec(line))) {
      const box = m[2] === undefined ? '' : m[2] === ' ' ? '☐ ' : '☑ '
      out.push(`${indentOf(m[1] ?? '')}• ${box}${inline(m[3] ?? '')}`)
      continue
    }
    if ((m = ORDERED.exec(line))) { out.push(`${indentOf(m[1] ?? '')}${m[2]}${m[3]} ${inline(m[4] ?? '')}`); continue }
    if ((m = LINK_DEF.exec(line))) { out.push(`${m[1]}: ${m[2]}`); continue }
    out.push(inline(line.replace(/^\s{1,3}(?=\S)/, '').replace(/\s{2,}$|\\$/, '')))
  }
  while (out.length && out[out.length - 1] === '') out.pop()
  const text = out.join('\n')
  return /[\uE000-\uE07F]/.test(text) ? text.replace(ESCAPED, unhide) : text
}
