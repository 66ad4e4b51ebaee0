// The spellings of a banned word the moderation tests sweep (normalize.test.ts, spelling.test.ts):
// each hides 违禁词 or spam from a plain string search.

/** [what, the spelling, the word it spells] */
export const SPELLINGS: ReadonlyArray<readonly [string, string, '违禁词' | 'spam']> = [
  ['full-width letters', 'ｓｐａｍ', 'spam'],
  ['mathematical letters', '𝐬𝐩𝐚𝐦', 'spam'],
  ['zero-width space', '违\u200b禁\u200b词', '违禁词'],
  ['zero-width joiner', '违\u200d禁词', '违禁词'],
  ['BOM and word joiner', 's\ufeffp\u2060am', 'spam'],
  ['spaces between characters', '违 禁 词', '违禁词'],
  ['dots between characters', '违.禁.词', '违禁词'],
  ['spaces and dots', '违 . 禁 . 词', '违禁词'],
  ['dots between letters', 's.p.a.m', 'spam'],
  ['spaces between letters', 's p a m', 'spam'],
  ['dashes and underscores', 's-p_a-m', 'spam'],
  ['commas between single characters', '违，禁，词', '违禁词'],
  ['soft hyphen', 'sp\u00adam', 'spam'],
  ['traditional characters', '違禁詞', '违禁词'],
  ['Cyrillic look-alikes', '\u0455\u0440\u0430m', 'spam'],
  ['Greek look-alikes', 'SPΑΜ', 'spam'],
  ['combining marks', 's\u0336p\u0336a\u0336m\u0336', 'spam'],
  ['accents', 'spåm', 'spam'],
  ['variation selector', '违\ufe0f禁词', '违禁词'],
  ['upper case', 'SpAm', 'spam']
]
