// Owner-written regular expressions for moderation, made safe before they run on chat text. JavaScript
// regexes backtrack: (a+)+$ takes exponential time on a crafted message, and even .*.*= takes cubic
// time (minutes on 8000 characters). A linear-time engine would avoid it, but RE2 comes as a native
// build (a compiler on every host) or as WASM (@adguard/re2-wasm, which runs out of memory after a few
// thousand matches). So every pattern is checked when it is loaded: bounded length, no back-references
// or lookarounds, no quantified group that itself holds a quantifier or an alternation (exponential),
// and a bounded amount of repetition: the product of the quantifiers' ranges (an unbounded one counts
// as a whole window) at most MAX_COST, so at most one unbounded repeat. The text is then matched in
// windows of WINDOW characters (overlapping by OVERLAP), so the work is linear in the message length
// and each window's worst case is about WINDOW x MAX_COST steps (a few milliseconds).

/** The longest pattern accepted. */
const MAX_REGEX_LENGTH = 200
/** Texts are matched in windows of this many characters, overlapping by OVERLAP (a match longer than
 * OVERLAP across a window's edge is missed; the keyword matcher sees the whole text). */
export const WINDOW = 2000
export const OVERLAP = 200
/** Most backtracking steps per start position: one unbounded repeat times a short optional part. */
const MAX_COST = 2 * WINDOW

/**
 * Why this pattern is refused, or undefined when it is safe to run. `src` is the pattern as written:
 * either a bare pattern (case-insensitive) or `/pattern/flags` with flags among i, m, s, u.
 */
export function regexProblem (src: string): string | undefined {
  const parsed = parseRegex(src)
  if (typeof parsed === 'string') return parsed
  const body = parsed.source
  if (body.length > MAX_REGEX_LENGTH) return `longer than ${MAX_REGEX_LENGTH} characters`
  if (/\\[1-9]|\\k</.test(body)) return 'back-references are not allowed'
  if (/\(\?<?[=!]/.test(body)) return 'lookarounds are not allowed'
  if (nestedQuantifier(body)) return 'a repeated group must not itself repeat or hold | (it could hang the bot)'
  if (repetitionCost(body) > MAX_COST) return 'too much repetition: at most one unbounded repeat (*, +, {n,}) besides short bounded ones (it could hang the bot)'
  try {
    // eslint-disable-next-line no-new
    new RegExp(body, parsed.flags)
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'invalid'
  }
  return undefined
}

/** The compiled regex of a pattern regexProblem() accepted (global, for masking every match). */
export function compileRegex (src: string): RegExp {
  const parsed = parseRegex(src)
  if (typeof parsed === 'string') throw new Error(parsed)
  return new RegExp(parsed.source, parsed.flags.includes('g') ? parsed.flags : parsed.flags + 'g')
}

function parseRegex (src: string): { source: string; flags: string } | string {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(src)
  if (!m) return { source: src, flags: 'iu' }
  const flags = m[2] ?? ''
  if (/[^imsu]/.test(flags)) return `flags may only be i, m, s, u (got ${flags})`
  return { source: m[1] ?? '', flags: flags.includes('u') ? flags : flags + 'u' }
}

/** The pattern's syntax: each character outside escapes and character classes, with its index. */
function * syntax (body: string): Generator<[string, number]> {
  let inClass = false
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string
    if (c === '\\') { i++; continue }
    if (inClass) { if (c === ']') inClass = false; continue }
    if (c === '[') { inClass = true; continue }
    yield [c, i]
  }
}

/** A group followed by a quantifier whose content has a quantifier or a `|` of its own. */
function nestedQuantifier (body: string): boolean {
  const stack: Array<{ risky: boolean }> = []
  for (const [c, i] of syntax(body)) {
    if (c === '(') { stack.push({ risky: false }); continue }
    const top = stack.at(-1)
    if (c === ')') {
      const g = stack.pop()
      const next = body[i + 1]
      const quantified = next === '*' || next === '+' || next === '?' || next === '{'
      // a bounded `?` over a group is fine; * + and {n,} over something that repeats is not
      if (g?.risky && quantified && next !== '?') return true
      if (g?.risky && stack.length) (stack.at(-1) as { risky: boolean }).risky = true
      if (quantified && stack.length) (stack.at(-1) as { risky: boolean }).risky = true
      continue
    }
    if (top && (c === '*' || c === '+' || c === '{' || c === '|')) top.risky = true
  }
  return false
}

/**
 * An upper estimate of the backtracking steps per start position: the product of every quantifier's
 * range (unbounded: WINDOW) and of the alternations' branch counts.
 */
function repetitionCost (body: string): number {
  let cost = 1
  /** characters before this index belong to a construct already counted (`(?`, a lazy `?`, `{n,m}`) */
  let skipTo = 0
  for (const [c, i] of syntax(body)) {
    if (i < skipTo) continue
    if (c === '|') { cost *= 2; continue }
    if (c === '(' && body[i + 1] === '?') { skipTo = i + 2; continue } // (?: ... ) is a group, not a quantifier
    if (c === '*' || c === '+') { cost *= WINDOW; skipTo = body[i + 1] === '?' ? i + 2 : i + 1; continue }
    if (c === '?') { cost *= 2; continue }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(body.slice(i))
      if (!m) continue
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])
      cost *= Number.isFinite(max) ? Math.min(max - min + 1, WINDOW) : WINDOW
      skipTo = i + m[0].length
      if (body[skipTo] === '?') skipTo++
    }
  }
  return cost
}
