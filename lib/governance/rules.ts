// The moderation rules in force: banned words (one Aho-Corasick matcher over all of them) and checked
// regular expressions, from the shipped list file and the owner's `moderation.keywords` / `regexes`.
// List file format: one rule a line; `/pattern/flags` is a regular expression, anything else a word;
// empty lines and lines starting with `#` are ignored. A regex that fails the safety check (regex.ts)
// is left out with an error in the log naming the file and line.
// Matching goes through the one text normaliser (lib/core/text-normalize.ts): words are normalised
// once here, a text at check time, so full-width letters, zero-width characters, separators between
// characters, combining marks, look-alike letters and traditional characters do not hide a word; hits
// are given in the original text (the whole obfuscated span). Regexes run on the original text and on
// the normalised one.
import { normalizeForMatch, normalizerGeneration, normalizeWord, type Normalized } from '../core/text-normalize.js'
import { readPrivateFileSync } from '../core/private-file.js'
import type { PluginLogger } from '../core/logger.js'
import { KeywordMatcher } from './keywords.js'
import { compileRegex, OVERLAP, regexProblem, WINDOW } from './regex.js'

/**
 * What a banned part becomes: three full-width asterisks. ASCII *** would be read as markdown
 * emphasis by the delivery step (delivery.markdown: plain) and vanish.
 */
export const MASK = '＊＊＊'

export interface RuleHit {
  /** the word, or the regex as written */
  rule: string
  kind: 'keyword' | 'regex'
  start: number
  end: number
}

interface ListFile { keywords: string[]; regexes: string[] }

/** Reads a list file; a missing file is an empty list. */
export function readListFile (file: string, log?: PluginLogger): ListFile {
  const out: ListFile = { keywords: [], regexes: [] }
  let text: string
  try {
    // never through a symlink planted in the data folder (lib/core/private-file.ts)
    const buf = readPrivateFileSync(file)
    if (!buf) return out
    text = buf.toString('utf8')
  } catch (err) {
    log?.error(`Moderation list ${file} could not be read`, {}, err)
    return out
  }
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim()
    if (!line || line.startsWith('#')) return
    if (/^\/.+\/[a-z]*$/s.test(line)) {
      const problem = regexProblem(line)
      if (problem) log?.error(`Moderation list ${file} line ${i + 1}: regular expression left out: ${problem}`, { line: i + 1 })
      else out.regexes.push(line)
    } else out.keywords.push(line)
  })
  return out
}

export class ModerationRules {
  private readonly matcher: KeywordMatcher
  /** the words as written, by the matcher's index (the matcher holds them normalised) */
  private readonly words: string[] = []
  private readonly regexes: Array<{ src: string; re: RegExp }> = []
  /** the normaliser the words were normalised with (normalizerGeneration()) */
  readonly generation = normalizerGeneration()

  constructor (keywords: readonly string[], regexes: readonly string[], log?: PluginLogger) {
    const normalized = new Map<string, string>()
    for (const raw of keywords) {
      const w = raw.trim()
      const n = w && normalizeWord(w)
      if (n && !normalized.has(n)) normalized.set(n, w)
    }
    this.words = [...normalized.values()]
    this.matcher = new KeywordMatcher([...normalized.keys()])
    for (const src of new Set(regexes)) {
      const problem = regexProblem(src)
      if (problem) { log?.error(`Moderation regex ${JSON.stringify(src)} left out: ${problem}`); continue }
      this.regexes.push({ src, re: compileRegex(src) })
    }
  }

  get size (): number { return this.matcher.size + this.regexes.length }

  /** Every rule the text breaks (each match of each), with spans in the original text. */
  check (text: string): RuleHit[] {
    const n = normalizeForMatch(text)
    const hits: RuleHit[] = this.matcher.findAll(n.text).map((h) => ({ rule: this.words[h.keyword] ?? '', kind: 'keyword' as const, ...original(n, h.start, h.end) }))
    if (!this.regexes.length) return hits
    const seen = new Set<string>()
    this.matchRegexes(text, undefined, seen, hits)
    if (n.text !== text) this.matchRegexes(n.text, n, seen, hits)
    return hits
  }

  /**
   * The regexes over `text` in windows of WINDOW characters overlapping by OVERLAP: linear in the text
   * (regex.ts); a match found again (in the overlap, or in both the original and the normalised text)
   * is counted once. `n`: the text is normalised, spans are mapped back to the original.
   */
  private matchRegexes (text: string, n: Normalized | undefined, seen: Set<string>, hits: RuleHit[]): void {
    for (let from = 0; ; from += WINDOW - OVERLAP) {
      const part = text.slice(from, from + WINDOW)
      for (const { src, re } of this.regexes) {
        re.lastIndex = 0
        for (const m of part.matchAll(re)) {
          if (!m[0]) continue
          const start = from + m.index
          const span = n ? original(n, start, start + m[0].length) : { start, end: start + m[0].length }
          const key = `${src}\u0000${span.start}`
          if (seen.has(key)) continue
          seen.add(key)
          hits.push({ rule: src, kind: 'regex', ...span })
        }
      }
      if (from + WINDOW >= text.length) break
    }
  }
}

/** The original span of the normalised units [start, end). */
function original (n: Normalized, start: number, end: number): { start: number; end: number } {
  return { start: n.from[start] ?? 0, end: n.to[end - 1] ?? n.from[start] ?? 0 }
}

/** The text with every hit replaced by MASK (overlapping hits become one). */
export function maskHits (text: string, hits: readonly RuleHit[]): string {
  const ranges = hits.map((h) => [h.start, h.end] as const).sort((a, b) => a[0] - b[0])
  let out = ''
  let at = 0
  let i = 0
  while (i < ranges.length) {
    let [start, end] = ranges[i] as readonly [number, number]
    for (i++; i < ranges.length && (ranges[i] as readonly [number, number])[0] < end; i++) end = Math.max(end, (ranges[i] as readonly [number, number])[1])
    if (start < at) start = at
    out += text.slice(at, start) + MASK
    at = end
  }
  return out + text.slice(at)
}
