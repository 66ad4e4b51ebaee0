// The one text normaliser for matching word lists (moderation words and regexes, trigger keywords):
// a banned or trigger word must match however it is spelt. Word lists are normalised once when they
// are loaded, a message at check time; `normalizeForMatch` keeps, for each unit of its result, the span
// of the original text it came from, so a hit can be masked in the original (masks cover the whole
// obfuscated span: the zero-width spaces, dots and marks inside it included).
//
// Per original character, in this order:
// 1. dropped: zero-width and invisible characters (U+200B-U+200F, U+202A-U+202E, U+2060-U+206F,
//    U+FEFF, U+180E, U+3164, U+FFA0, variation selectors, tag characters) and the soft hyphen U+00AD;
// 2. a base character together with the combining marks after it (and the half-width kana voiced marks
//    and Hangul jamo that compose with it) is one unit: NFKC (full-width and other compatibility forms
//    to plain ones), NFD, combining marks removed except the kana voiced marks U+3099/U+309A (so が
//    stays が, é becomes e, b̶ becomes b), Cyrillic and Greek look-alikes to Latin (CONFUSABLE below),
//    lower case, NFC (Hangul syllables and kana compose again);
// 3. Chinese traditional to simplified, character by character (OpenCC's tables, opencc-js, loaded by
//    `loadTextNormalizer`; until it is loaded, or without the package, this step is skipped and logged).
//    Character by character rather than phrase by phrase: the same character always becomes the same
//    one, so a word and a message agree, and every character keeps its own position.
// 4. separators between characters (`joinSeparated`):
//    - between two CJK characters (Han, kana, Hangul) a run of at most 4 light separators (spaces,
//      dots, dashes, underscores, ASCII dots, symbols, brackets, quotes...) is removed: "违 . 禁 词" reads 违禁词;
//      a run holding clause punctuation (， 。 、 ！ ？ ； ： and their ASCII forms, line breaks) is
//      removed only between single characters ("违，禁，词", each character alone between
//      separators), never in ordinary sentences ("他买了冰，毒死了老鼠" keeps its comma);
//    - between two letters or digits of other scripts a run of at most 3 separators is removed only when
//      both are single characters, no letter or digit beside them ("b.a.d", "b a d", "s-e-x" read
//      bad, bad, sex; so does "前面b.a.d"); words are never joined ("bad. word" stays two words, so a
//      banned "badword" is not found there; "I am a bad boy" keeps its spaces);
//    - any other run of white space becomes one space (a word list entry "buy drugs" matches
//      "buy\n  drugs").
import { errorText } from './errors.js'
import type { PluginLogger } from './logger.js'
import { importOptional } from './packages.js'

/** A normalised text and, for each of its UTF-16 units, the original span it came from. */
export interface Normalized {
  text: string
  /** original index where the unit's source starts */
  from: number[]
  /** original index where the unit's source ends (exclusive) */
  to: number[]
}

/**
 * Cyrillic and Greek letters drawn like Latin ones (upper and lower case, as they look), and a few
 * Latin ones NFKC leaves (dotless i, script a and g). A small table rather than Unicode's full
 * confusables list (the npm packages of it map digits to letters, katakana to Han and "m" to "rn",
 * which would find words in ordinary Chinese, Japanese and numbers); NFKC already folds the
 * mathematical, full-width and circled letters.
 */
const CONFUSABLE: Readonly<Record<string, string>> = {
  // Cyrillic
  А: 'A', а: 'a', В: 'B', в: 'b', Е: 'E', е: 'e', Ё: 'E', ё: 'e', З: '3', Ѕ: 'S', ѕ: 's', І: 'I', і: 'i', Ї: 'I', ї: 'i', Ј: 'J', ј: 'j',
  К: 'K', к: 'k', М: 'M', м: 'm', Н: 'H', н: 'h', О: 'O', о: 'o', Р: 'P', р: 'p', С: 'C', с: 'c', Т: 'T', т: 't',
  У: 'Y', у: 'y', Х: 'X', х: 'x', Ь: 'b', ь: 'b', Ԁ: 'D', ԁ: 'd', Һ: 'H', һ: 'h', Ӏ: 'l', ӏ: 'l', Ԛ: 'Q', ԛ: 'q',
  Ԝ: 'W', ԝ: 'w', Ү: 'Y', ү: 'y', Ғ: 'F', ԍ: 'G', Ɋ: 'Q',
  // Greek
  Α: 'A', α: 'a', Β: 'B', β: 'b', Ε: 'E', ε: 'e', Ζ: 'Z', Η: 'H', η: 'n', Ι: 'I', ι: 'i', Κ: 'K', κ: 'k', Μ: 'M',
  Ν: 'N', ν: 'v', Ο: 'O', ο: 'o', Ρ: 'P', ρ: 'p', Τ: 'T', τ: 't', Υ: 'Y', υ: 'u', Χ: 'X', χ: 'x', Ϲ: 'C', ϲ: 'c',
  ϳ: 'j', Ϝ: 'F', ω: 'w',
  // Latin forms NFKC leaves
  ı: 'i', ɩ: 'i', ɑ: 'a', ɡ: 'g', ʏ: 'y', ɢ: 'g', ʜ: 'h', ɪ: 'i', ʟ: 'l', ɴ: 'n', ʀ: 'r', ᴀ: 'a', ᴄ: 'c', ᴅ: 'd',
  ᴇ: 'e', ᴊ: 'j', ᴋ: 'k', ᴍ: 'm', ᴏ: 'o', ᴘ: 'p', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ᴢ: 'z'
}

/** Invisible characters: removed before anything else. */
function invisible (cp: number): boolean {
  return cp === 0xad || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0xfeff || cp === 0x180e || (cp >= 0x180b && cp <= 0x180d) || cp === 0x034f || cp === 0x3164 || cp === 0xffa0 || cp === 0x115f || cp === 0x1160 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0xe0000 && cp <= 0xe007f)
}

const MARK = /\p{M}/u
const MARKS_BUT_KANA = /(?![\u3099\u309a])\p{M}/gu

function isJamo (cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3131 && cp <= 0x318e) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xd7b0 && cp <= 0xd7ff) || (cp >= 0xffa1 && cp <= 0xffdc)
}

/**
 * Whether `cp` joins the unit whose first character is `base` (NFKC composes them): combining marks
 * and the half-width kana voiced marks join anything, Hangul jamo join jamo and Hangul syllables.
 */
function joins (cp: number, base: number): boolean {
  if (cp < 0x300 || (cp >= 0x3400 && cp <= 0x9fff)) return false
  if (cp === 0xff9e || cp === 0xff9f) return true
  if (isJamo(cp)) return isJamo(base) || (base >= 0xac00 && base <= 0xd7af)
  return MARK.test(String.fromCodePoint(cp))
}

/** One unit (a base character and what joins it) normalised: steps 2 of the header. */
function normalizeUnit (unit: string): string {
  let s = unit.normalize('NFKC').normalize('NFD').replace(MARKS_BUT_KANA, '')
  let mapped = ''
  for (const ch of s) mapped += CONFUSABLE[ch] ?? ch
  s = mapped.toLowerCase()
  if (MARK.test(s)) s = s.normalize('NFD').replace(MARKS_BUT_KANA, '') // a lower case that adds a mark (İ -> i̇)
  return s.normalize('NFC')
}

/** Units seen before (single characters and short clusters), bounded. */
const unitCache = new Map<string, string>()
const UNIT_CACHE_MAX = 20_000
function cachedUnit (unit: string): string {
  let out = unitCache.get(unit)
  if (out === undefined) {
    out = normalizeUnit(unit)
    if (unitCache.size >= UNIT_CACHE_MAX) unitCache.clear()
    unitCache.set(unit, out)
  }
  return out
}

// ---- traditional to simplified ----

let t2s: ReadonlyMap<number, string> | undefined
let loading: Promise<boolean> | undefined
let generation = 0

/** Changes whenever the normaliser changes (the Chinese tables got loaded): normalised word lists are then built again. */
export function normalizerGeneration (): number { return generation }

/** Whether traditional characters are folded to simplified ones (opencc-js loaded). */
export function chineseFolding (): boolean { return t2s !== undefined }

type DictLike = string | readonly (readonly [string, string])[]

function entries (dict: DictLike): Array<readonly [string, string]> {
  if (typeof dict !== 'string') return [...dict]
  return dict.split('|').map((e) => { const [a = '', b = ''] = e.split(' '); return [a, b] as const })
}

/**
 * Loads OpenCC's character tables (opencc-js) once: Hong Kong and Taiwan variants to the standard
 * traditional character, then traditional to simplified; only one-character entries, so every
 * character keeps its place. Resolves false (and logs a warning once) when the package is missing:
 * matching then goes on without this step.
 */
export function loadTextNormalizer (log?: Pick<PluginLogger, 'warn'>): Promise<boolean> {
  return (loading ??= importOptional('opencc-js', () => import('opencc-js/preset/t2cn')).then((m) => {
    const map = new Map<number, string>()
    const variants = new Map<string, string>()
    for (const cfg of [m.configs.hk2s, m.configs.tw2s]) {
      const first = cfg?.conversionChain[0] ?? []
      for (const dict of first) for (const [a, b] of entries(dict)) if ([...a].length === 1 && [...b].length === 1 && !variants.has(a)) variants.set(a, b)
    }
    const ts = new Map<string, string>()
    for (const dict of m.configs.t2s?.conversionChain[0] ?? []) for (const [a, b] of entries(dict)) if ([...a].length === 1 && [...b].length === 1) ts.set(a, b)
    for (const [a, b] of variants) { const s = ts.get(b) ?? b; if (s !== a) map.set(a.codePointAt(0) as number, s) }
    for (const [a, b] of ts) if (!variants.has(a) && a !== b) map.set(a.codePointAt(0) as number, b)
    t2s = map
    generation++
    return true
  }, (err: unknown) => {
    log?.warn(`Word matching goes on without folding traditional Chinese to simplified: ${errorText(err)}`)
    return false
  }))
}

// ---- separators ----

const Kind = { Cjk: 0, Alnum: 1, Light: 2, Heavy: 3, Space: 4, Other: 5 } as const
type Kind = typeof Kind[keyof typeof Kind]

/** Clause punctuation and line breaks: joined over only between single characters. */
const HEAVY = new Set([...',!?;:\n\r', '。', '、', '｡', '､', '…', '‥', '\u2028', '\u2029'].map((c) => c.codePointAt(0) as number))
const SEPARATOR = /[\p{P}\p{S}\p{Z}\s]/u
const LETTER = /[\p{L}\p{N}]/u
const kindCache = new Map<number, Kind>()

function isCjk (cp: number): boolean {
  return (cp >= 0x3040 && cp <= 0x30ff && cp !== 0x30fb && cp !== 0x30a0) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x3ffff) || isJamo(cp)
}

function kindOf (cp: number): Kind {
  if (cp < 0x80) {
    if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a)) return Kind.Alnum
    if (HEAVY.has(cp)) return Kind.Heavy
    if (cp === 0x20 || cp === 0x09 || cp === 0x0b || cp === 0x0c) return Kind.Space
    return cp < 0x20 || cp === 0x7f ? Kind.Other : Kind.Light
  }
  if (cp >= 0x4e00 && cp <= 0x9fff) return Kind.Cjk
  let k = kindCache.get(cp)
  if (k === undefined) {
    const ch = String.fromCodePoint(cp)
    k = isCjk(cp) ? Kind.Cjk : HEAVY.has(cp) ? Kind.Heavy : /\s|\p{Zs}/u.test(ch) ? Kind.Space : SEPARATOR.test(ch) ? Kind.Light : LETTER.test(ch) ? Kind.Alnum : Kind.Other
    if (kindCache.size > 20_000) kindCache.clear()
    kindCache.set(cp, k)
  }
  return k
}

/** The units of steps 1-3, as parallel arrays (one entry per code point). */
interface Units { ch: string[]; kind: Kind[]; from: number[]; to: number[] }

const isSep = (k: Kind | undefined): boolean => k === Kind.Light || k === Kind.Heavy || k === Kind.Space

/** Step 4 of the header over the units of steps 1-3. */
function joinSeparated (u: Units): Normalized {
  const { ch, kind } = u
  let text = ''
  const from: number[] = []
  const to: number[] = []
  const emit = (c: string, f: number, t: number): void => {
    text += c
    from.push(f)
    to.push(t)
    if (c.length === 2) { from.push(f); to.push(t) }
  }
  const count = ch.length
  let i = 0
  while (i < count) {
    if (!isSep(kind[i])) { emit(ch[i] as string, u.from[i] as number, u.to[i] as number); i++; continue }
    let j = i
    let heavy = false
    let allSpace = true
    for (; j < count && isSep(kind[j]); j++) {
      if (kind[j] === Kind.Heavy) heavy = true
      if (kind[j] !== Kind.Space && ch[j] !== '\n' && ch[j] !== '\r') allSpace = false
    }
    const prev = kind[i - 1]
    const next = kind[j]
    const run = j - i
    let drop = false
    // single: the characters on both sides stand alone, no character of their kind beside them
    if (prev === Kind.Cjk && next === Kind.Cjk && run <= 4) drop = !heavy || (kind[i - 2] !== Kind.Cjk && kind[j + 1] !== Kind.Cjk)
    else if (prev === Kind.Alnum && next === Kind.Alnum && run <= 3) drop = kind[i - 2] !== Kind.Alnum && kind[j + 1] !== Kind.Alnum
    if (!drop) {
      if (allSpace) emit(' ', u.from[i] as number, u.to[j - 1] as number)
      else for (let k = i; k < j; k++) emit(ch[k] as string, u.from[k] as number, u.to[k] as number)
    }
    i = j
  }
  return { text, from, to }
}

/** The text normalised for matching, each unit mapped to its original span. */
export function normalizeForMatch (text: string): Normalized {
  const units: Units = { ch: [], kind: [], from: [], to: [] }
  const fold = t2s
  const add = (c: string, cp: number, f: number, t: number): void => {
    const simple = cp >= 0x3400 ? fold?.get(cp) : undefined
    units.ch.push(simple ?? c)
    units.kind.push(simple === undefined ? kindOf(cp) : kindOf(simple.codePointAt(0) as number))
    units.from.push(f)
    units.to.push(t)
  }
  let i = 0
  while (i < text.length) {
    const cp = text.codePointAt(i) as number
    const size = cp > 0xffff ? 2 : 1
    if (invisible(cp)) { i += size; continue }
    const after = text.codePointAt(i + size)
    const alone = after === undefined || after < 0x300 || !joins(after, cp)
    // fast paths: ASCII, and Han ideographs, with nothing joining them
    if (cp < 0x80 && alone) {
      add(cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : text[i] as string, cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp, i, i + 1)
      i++
      continue
    }
    if (cp >= 0x4e00 && cp <= 0x9fff && alone) {
      add(text[i] as string, cp, i, i + 1)
      i++
      continue
    }
    // the unit: this character and those that join it (invisible ones in between are skipped)
    let end = i + size
    let unit = text.slice(i, end)
    for (;;) {
      const n = text.codePointAt(end)
      if (n === undefined) break
      const nSize = n > 0xffff ? 2 : 1
      if (invisible(n)) { end += nSize; continue }
      if (!joins(n, cp)) break
      unit += String.fromCodePoint(n)
      end += nSize
    }
    for (const c of cachedUnit(unit)) {
      const ccp = c.codePointAt(0) as number
      if (!invisible(ccp)) add(c, ccp, i, end)
    }
    i = end
  }
  return joinSeparated(units)
}

/** The normalised text only (word lists). */
export function normalizeWord (word: string): string {
  return normalizeForMatch(word).text.trim()
}
