// Cutting a document into passages (lib/knowledge/README.md, "Passages"): sections start at each
// markdown heading (`#` to `######`) and at each page start, and never share a passage; a section
// longer than the passage size is cut at the best border before it: a blank line, else a line end
// (a table row or list item stays whole), else a sentence end, else a space, else anywhere. Each
// passage after the first of a section repeats about `overlap` characters of the one before it.
// A passage is a range of the document's text: it remembers its heading path and its page.

export interface Chunk {
  start: number
  end: number
  /** the heading path, `Chapter > Section` ('' before the first heading) */
  heading: string
  /** 1-based page (documents with page starts only) */
  page?: number
}

export interface ChunkOptions { size: number; overlap: number; pageStarts?: readonly number[] }

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/
/** Where a sentence ends (Chinese and Latin punctuation). */
const SENTENCE_END = /[。！？；!?;…]|\.(?=\s)/g

interface Section { start: number; end: number; heading: string; page?: number }

/** The sections of a text: a new one at each heading line and page start. */
function sections (text: string, pageStarts: readonly number[] | undefined): Section[] {
  const out: Section[] = []
  const stack: string[] = []
  let page = pageStarts?.length ? 1 : undefined
  let nextPage = 1
  let cur: Section = { start: 0, end: 0, heading: '', ...(page !== undefined ? { page } : {}) }
  // a section holding nothing but its heading line is no passage (the heading is in its children's path)
  const close = (at: number): void => {
    cur.end = at
    const body = text.slice(cur.start, cur.end).trim()
    if (body && !(HEADING.test(body) && !body.includes('\n'))) out.push(cur)
  }
  let pos = 0
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos)
    const lineEnd = nl < 0 ? text.length : nl
    // a page that starts on this line starts a section here
    let newPage = false
    while (pageStarts && nextPage < pageStarts.length && pageStarts[nextPage]! <= pos) { page = ++nextPage; newPage = true }
    const m = text.charCodeAt(pos) === 35 /* # */ ? HEADING.exec(text.slice(pos, lineEnd)) : null
    if (m || newPage) {
      if (m) {
        const level = m[1]!.length
        stack.length = Math.min(stack.length, level - 1)
        while (stack.length < level - 1) stack.push('')
        stack.push(m[2]!.trim())
      }
      close(pos)
      cur = { start: pos, end: pos, heading: stack.filter(Boolean).join(' > '), ...(page !== undefined ? { page } : {}) }
    }
    pos = lineEnd + 1
  }
  close(text.length)
  return out
}

/** The best border in (lo, hi]: a blank line, a line end, a sentence end, a space; `hi` when none. */
function border (text: string, lo: number, hi: number): number {
  const win = text.slice(lo, hi)
  const blank = win.lastIndexOf('\n\n')
  if (blank > 0) return lo + blank + 2
  const line = win.lastIndexOf('\n')
  if (line > 0) return lo + line + 1
  let sentence = -1
  for (const m of win.matchAll(SENTENCE_END)) sentence = m.index + m[0].length
  if (sentence > 0) return lo + sentence
  const space = win.search(/\s\S*$/)
  if (space > 0) return lo + space + 1
  return safeCut(text, hi)
}

/** Where the repeated part of the next passage starts: the first line start after `from`, else the first sentence start, else `from` (none after a line end). */
function overlapStart (text: string, from: number, cut: number): number {
  const line = text.indexOf('\n', from)
  if (line >= 0 && line + 1 < cut) return line + 1
  SENTENCE_END.lastIndex = 0
  const win = text.slice(from, cut)
  const m = SENTENCE_END.exec(win)
  SENTENCE_END.lastIndex = 0
  if (m && from + m.index + m[0].length < cut) return from + m.index + m[0].length
  // a cut at a line end split no sentence: rather no repeat than half a table row
  return text[cut - 1] === '\n' ? cut : safeCut(text, from)
}

/** `at`, moved back one when it would split a surrogate pair. */
function safeCut (text: string, at: number): number {
  const c = text.charCodeAt(at - 1)
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at
}

function trimmed (text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start]!)) start++
  while (end > start && /\s/.test(text[end - 1]!)) end--
  return [start, end]
}

/** The passages of a text, in order. */
export function chunkText (text: string, opts: ChunkOptions): Chunk[] {
  const size = Math.max(50, opts.size)
  const overlap = Math.max(0, Math.min(opts.overlap, Math.floor(size / 2)))
  const out: Chunk[] = []
  const push = (s: Section, a: number, b: number): void => {
    const [start, end] = trimmed(text, a, b)
    if (end > start) out.push({ start, end, heading: s.heading, ...(s.page !== undefined ? { page: s.page } : {}) })
  }
  for (const s of sections(text, opts.pageStarts)) {
    let start = s.start
    while (s.end - start > size) {
      // a border in the second half of the window, so no passage is much shorter than the size
      const cut = border(text, start + Math.floor(size / 2), start + size)
      push(s, start, cut)
      start = Math.max(start + 1, overlap > 0 ? overlapStart(text, cut - overlap, cut) : cut)
    }
    push(s, start, s.end)
  }
  return out
}
