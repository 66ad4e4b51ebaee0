// Owner-written regular expressions for moderation, made safe before they run on chat text. JavaScript
// regexes backtrack, so a pattern like (a+)+$ can take exponential time on a crafted message and hang
// the bot. Instead of a second regex engine (RE2 builds are native or WASM, awkward in the bundle),
// every pattern is checked when it is loaded: bounded length, no back-references or lookarounds, and
// no quantified group that itself holds a quantifier or an alternation (the shapes that backtrack
// without end). What passes runs in linear-ish time; the text it runs on is cut at MAX_REGEX_INPUT.

/** The longest pattern accepted. */
const MAX_REGEX_LENGTH = 200
/** Characters of a message the regexes see (the keyword matcher sees the whole text). */
export const MAX_REGEX_INPUT = 8000

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

/** A group followed by a quantifier whose content has a quantifier or a `|` of its own. */
function nestedQuantifier (body: string): boolean {
  const stack: Array<{ risky: boolean }> = []
  let inClass = false
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === '\\') { i++; continue }
    if (inClass) { if (c === ']') inClass = false; continue }
    if (c === '[') { inClass = true; continue }
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
