// Numbers as people write them in reminders: digits, Chinese numerals up to 99 (三, 十五, 二十, 两),
// English words up to twenty and a few tens.
const ZH_DIGITS: Readonly<Record<string, number>> = { 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 }
const EN_WORDS: Readonly<Record<string, number>> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60
}

/** Chinese numeral (一 … 九十九) or digits; undefined for anything else. */
function zhNumber (s: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s)
  if (!/^[零一二两三四五六七八九十]+$/.test(s)) return undefined
  const ten = s.indexOf('十')
  if (ten === -1) return s.length === 1 ? ZH_DIGITS[s] : undefined
  const tens = ten === 0 ? 1 : ZH_DIGITS[s.slice(0, ten)]
  const ones = ten === s.length - 1 ? 0 : ZH_DIGITS[s.slice(ten + 1)]
  return tens === undefined || ones === undefined ? undefined : tens * 10 + ones
}

/** A count in either language: `5`, `五`, `十五`, `five`, `an`. */
export function countOf (s: string): number | undefined {
  const t = s.trim().toLowerCase()
  return EN_WORDS[t] ?? zhNumber(t)
}

/** The pattern of a count, for building the parsers' regexes. */
export const COUNT_ZH = '\\d+(?:\\.\\d+)?|[零一二两三四五六七八九十]+'
export const COUNT_EN = `\\d+(?:\\.\\d+)?|${Object.keys(EN_WORDS).join('|')}`
