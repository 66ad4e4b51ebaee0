// A short window of a text around the query's matches, plain and with the matches in <mark> (HTML-
// escaped), for search results. Matching is case-insensitive on words and CJK bigrams of the query.
import { queryTokens } from './tokenize.js'

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' } as Record<string, string>)[c]};`)
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Match intervals [start, end) of the query's tokens in `text`, merged where they overlap. */
function matchRanges (text: string, query: string): Array<[number, number]> {
  const terms = queryTokens(query).sort((a, b) => b.length - a.length)
  if (terms.length === 0) return []
  const re = new RegExp(terms.map(escapeRe).join('|'), 'giu')
  const raw: Array<[number, number]> = []
  for (const m of text.normalize('NFKC') === text ? text.matchAll(re) : []) raw.push([m.index, m.index + m[0].length])
  if (raw.length === 0 && text.normalize('NFKC') !== text) {
    // full-width or composed forms: match on a copy folded char by char (same offsets)
    const folded = [...text].map((c) => { const n = c.normalize('NFKC'); return n.length === c.length ? n : c }).join('')
    for (const m of folded.matchAll(re)) raw.push([m.index, m.index + m[0].length])
  }
  raw.sort((a, b) => a[0] - b[0])
  const out: Array<[number, number]> = []
  for (const r of raw) {
    const last = out.at(-1)
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1])
    else out.push([r[0], r[1]])
  }
  return out
}

export function snippet (content: string, query: string, maxLen = 160): { snippet: string; highlighted: string } {
  const ranges = matchRanges(content, query)
  let start = 0
  if (ranges.length > 0 && content.length > maxLen) {
    // the window holding the most matches; it opens a little before its first match
    let best = 0
    let bestCount = 0
    for (let i = 0, j = 0; i < ranges.length; i++) {
      while (j < ranges.length && ranges[j]![1] - ranges[i]![0] <= maxLen) j++
      if (j - i > bestCount) { bestCount = j - i; best = i }
    }
    start = Math.max(0, Math.min(ranges[best]![0] - Math.floor(maxLen / 5), content.length - maxLen))
  }
  const end = Math.min(content.length, start + maxLen)
  const pre = start > 0 ? '…' : ''
  const post = end < content.length ? '…' : ''
  let highlighted = ''
  let at = start
  for (const [s, e] of ranges) {
    if (e <= start || s >= end) continue
    const a = Math.max(s, start)
    const b = Math.min(e, end)
    highlighted += escapeHtml(content.slice(at, a)) + '<mark>' + escapeHtml(content.slice(a, b)) + '</mark>'
    at = b
  }
  highlighted += escapeHtml(content.slice(at, end))
  return { snippet: pre + content.slice(start, end) + post, highlighted: pre + highlighted + post }
}
