// The moderation rules on their own: the keyword matcher against a plain scan, the regex safety
// check, masking, and the list file (a bad regex left out with an error naming the line).
import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KeywordMatcher } from '../../lib/governance/keywords.js'
import { regexProblem } from '../../lib/governance/regex.js'
import { MASK, maskHits, ModerationRules, readListFile } from '../../lib/governance/rules.js'
import { quotaDay } from '../../lib/governance/day.js'

describe('governance rules', () => {
  it('the keyword matcher finds exactly what a plain scan finds (overlaps, prefixes, case)', () => {
    const words = ['he', 'she', 'his', 'hers', '冰毒', '毒品', '冰', 'ABC']
    const m = new KeywordMatcher(words)
    const texts = ['ushers', '卖冰毒品的人', 'xabcx', 'nothing here', 'hishershe', '']
    for (const text of texts) {
      const expected: string[] = []
      const lower = text.toLowerCase()
      words.forEach((w, k) => { for (let i = lower.indexOf(w.toLowerCase()); i !== -1; i = lower.indexOf(w.toLowerCase(), i + 1)) expected.push(`${k}@${i}`) })
      const got = m.findAll(text).map((h) => `${h.keyword}@${h.start}`)
      expect(got.sort(), text).to.deep.equal(expected.sort())
    }
  })

  it('10,000 random keywords: the same hits as includes() on random texts', () => {
    let seed = 7
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
    const alphabet = '甲乙丙丁戊己庚辛abc'
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('')
    const words = Array.from({ length: 10_000 }, () => word(3 + Math.floor(rnd() * 4)))
    const m = new KeywordMatcher(words)
    for (let t = 0; t < 30; t++) {
      const text = word(80)
      const expected = new Set(words.filter((w) => text.includes(w)))
      const got = new Set(m.findAll(text).map((h) => words[h.keyword]))
      expect([...got].sort()).to.deep.equal([...expected].sort())
    }
  })

  it('regexes that could hang the bot are refused with a reason; ordinary ones pass', () => {
    expect(regexProblem('(a+)+$')).to.match(/repeated group/)
    expect(regexProblem('(a|aa)*b')).to.match(/repeated group/)
    expect(regexProblem('((ab)*c)+')).to.match(/repeated group/)
    expect(regexProblem('(x)\\1')).to.match(/back-references/)
    expect(regexProblem('a(?=b)')).to.match(/lookarounds/)
    expect(regexProblem('/abc/g')).to.match(/flags/)
    expect(regexProblem('a'.repeat(201))).to.match(/longer than 200/)
    expect(regexProblem('[abc')).to.be.a('string')
    expect(regexProblem('.*.*=')).to.match(/too much repetition/)
    expect(regexProblem('\\s*\\s*x')).to.match(/too much repetition/)
    expect(regexProblem('.*a.*b')).to.match(/too much repetition/)
    expect(regexProblem('.{0,1000}.{0,1000}x')).to.match(/too much repetition/)
    expect(regexProblem('/买.{0,3}枪/')).to.equal(undefined)
    expect(regexProblem('a.*b')).to.equal(undefined)
    expect(regexProblem('加(?:微|V)信?[:：]?[a-z0-9]{6,20}')).to.equal(undefined)
    expect(regexProblem('(ab)?c+')).to.equal(undefined)
  })

  it('the worst patterns the check lets through stay fast on a crafted 8000-character message; matches across windows are found once', () => {
    const worst = ['a.*b', '\\s*x?y', 'a.{0,1000}b?c', '(?:a|b)a*c']
    for (const w of worst) expect(regexProblem(w), w).to.equal(undefined)
    const r = new ModerationRules([], worst)
    for (const text of ['a'.repeat(8000), ' '.repeat(8000), 'ab'.repeat(4000)]) {
      const t0 = performance.now()
      r.check(text)
      // a pattern that backtracks catastrophically takes minutes on 8000 characters: this bound catches that
      // blow-up and holds on a busy machine too (a speed figure belongs in a benchmark, not here)
      expect(performance.now() - t0, 'ms').to.be.below(3000)
    }
    const banned = new ModerationRules([], ['/买.{0,3}枪/'])
    for (const at of [0, 1795, 1799, 1800, 1801, 5000, 7990]) {
      const text = '好'.repeat(at) + '买一把枪' + '好'.repeat(100)
      expect(banned.check(text).map((h) => h.start), String(at)).to.deep.equal([at])
    }
  })

  it('masking joins overlapping hits; regexes and words together', () => {
    const r = new ModerationRules(['冰毒', '毒品'], ['/买.{0,3}枪/'])
    const text = '他卖冰毒品，还想买一把枪。'
    const hits = r.check(text)
    expect(hits.map((h) => h.rule)).to.have.members(['冰毒', '毒品', '/买.{0,3}枪/'])
    expect(maskHits(text, hits)).to.equal(`他卖${MASK}，还想${MASK}。`)
    expect(r.check('干净的话')).to.deep.equal([])
  })

  it('the list file: words, regexes, comments; a bad regex is left out and the log names the line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-modlist-'))
    try {
      const file = join(dir, 'list.txt')
      writeFileSync(file, '# comment\n\n坏词\n/好+正则/\n/(a+)+$/\n')
      const errors: string[] = []
      const log = { error: (m: string) => errors.push(m) } as never
      const list = readListFile(file, log)
      expect(list).to.deep.equal({ keywords: ['坏词'], regexes: ['/好+正则/'] })
      expect(errors).to.have.length(1)
      expect(errors[0]).to.include('line 5').and.include('repeated group')
      expect(readListFile(join(dir, 'missing.txt'))).to.deep.equal({ keywords: [], regexes: [] })
    } finally { rmSync(dir, { recursive: true, force: true }) }
  })

  it('the shipped default list loads without errors and catches common words', () => {
    const errors: string[] = []
    const list = readListFile(new URL('../../config/moderation-default.txt', import.meta.url).pathname, { error: (m: string) => errors.push(m) } as never)
    expect(errors).to.deep.equal([])
    expect(list.keywords.length).to.be.greaterThan(30)
    const r = new ModerationRules(list.keywords, list.regexes)
    expect(r.check('这里卖冰毒').map((h) => h.rule)).to.include('冰毒')
    expect(r.check('加微信: abc123456').length).to.equal(1)
    expect(r.check('今天天气不错，我们去吃火锅吧')).to.deep.equal([])
  })

  it('the quota day starts at the reset time in the timezone', () => {
    const at = Date.UTC(2027, 0, 10, 15, 59) // 23:59 in Shanghai
    expect(quotaDay(at, 'Asia/Shanghai', '00:00')).to.equal('2027-01-10')
    expect(quotaDay(at + 60_000, 'Asia/Shanghai', '00:00')).to.equal('2027-01-11')
    expect(quotaDay(Date.UTC(2027, 0, 11, 3, 59), 'UTC', '04:00')).to.equal('2027-01-10')
    expect(quotaDay(Date.UTC(2027, 0, 11, 4, 0), 'UTC', '04:00')).to.equal('2027-01-11')
  })
})
