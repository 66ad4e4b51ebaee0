// Search tokens for Chinese/Japanese/Korean and Latin text (memory and knowledge search). CJK runs
// become overlapping character bigrams (a lone character stays a unigram): no dictionary needed and
// far faster than Intl.Segmenter on large corpora. Latin letters/digits form words, lowercased after
// NFKC (full-width forms fold to ASCII); a few English stop words are dropped.

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`
// Alternation order matters: a CJK run, else a run of letters/digits that are not CJK (v-flag set difference).
const RUNS = new RegExp(`[${CJK}]+|[[\\p{L}\\p{N}]--[${CJK}]]+`, 'gv')
const IS_CJK = new RegExp(`^[${CJK}]`, 'v')

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'and', 'or', 'to', 'is', 'are', 'was', 'in', 'on', 'at', 'for', 'it', 'be', 'as', 'by', 'with'])

export const isCjk = (s: string): boolean => IS_CJK.test(s)

function normalizeForSearch (text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

/** Every token of a text, in order, duplicates kept (term frequencies count them). */
export function tokenize (text: string): string[] {
  const out: string[] = []
  for (const m of normalizeForSearch(text).matchAll(RUNS)) {
    const run = m[0]
    if (isCjk(run)) {
      if (run.length === 1) { out.push(run); continue }
      for (let i = 0; i < run.length - 1; i++) {
        // surrogate pairs (rare CJK extension characters) are kept whole
        const a = run.codePointAt(i) ?? 0
        if (a > 0xffff) continue
        const b = run.codePointAt(i + 1) ?? 0
        out.push(b > 0xffff ? run.slice(i, i + 3) : run.slice(i, i + 2))
      }
    } else if (!STOP_WORDS.has(run)) {
      out.push(run)
    }
  }
  return out
}

/** The distinct tokens of a query. */
export function queryTokens (query: string): string[] {
  return [...new Set(tokenize(query))]
}
