// The text normaliser of the word lists (lib/core/text-normalize.ts) on its own and in the moderation
// rules and the chat trigger: every spelling that used to slip a word past the lists, the spans in the
// original text, and ordinary text that must not match.
import { expect } from 'chai'
import { decideTrigger } from '../../lib/chat/trigger.js'
import type { Config } from '../../lib/config/schema.js'
import { chineseFolding, loadTextNormalizer, normalizeForMatch, normalizeWord } from '../../lib/core/text-normalize.js'
import { MASK, maskHits, ModerationRules } from '../../lib/governance/rules.js'
import { SPELLINGS } from './spellings.js'

describe('text normaliser', () => {
  before(async () => { expect(await loadTextNormalizer()).to.equal(true) })

  it('folds every spelling to the plain word, each unit mapped to its original span', () => {
    expect(chineseFolding()).to.equal(true)
    for (const [what, spelt, plain] of SPELLINGS) {
      const n = normalizeForMatch(`# ${spelt} #`)
      expect(n.text, what).to.equal(`# ${plain} #`)
      expect(n.from.length, what).to.equal(n.text.length)
      // the word covers the whole obfuscated span of the original
      const at = n.text.indexOf(plain)
      expect(n.from[at], what).to.equal(2)
      expect(n.to[at + plain.length - 1], what).to.equal(2 + spelt.length)
    }
  })

  it('kana voiced marks and Hangul compose instead of being stripped', () => {
    expect(normalizeForMatch('が').text).to.equal('が')
    expect(normalizeForMatch('か\u3099').text).to.equal('が')
    expect(normalizeForMatch('ｶﾞｷﾞ').text).to.equal('ガギ')
    expect(normalizeForMatch('ぱ').text).to.equal('ぱ')
    expect(normalizeForMatch('가나').text).to.equal('가나')
    expect(normalizeForMatch('\u1100\u1161').text).to.equal('가')
    expect(normalizeForMatch('ㄱㅏ').text).to.equal('가')
    expect(normalizeWord('ガ')).to.equal(normalizeForMatch('ｶﾞ').text)
  })

  it('ordinary text keeps its words apart (the separator rules)', () => {
    expect(normalizeForMatch('bad. word').text, 'words are never joined').to.equal('bad. word')
    expect(normalizeForMatch('I am a bad boy').text).to.equal('i am a bad boy')
    expect(normalizeForMatch('他买了冰，毒死了老鼠').text, 'a comma inside a sentence stays').to.equal('他买了冰,毒死了老鼠')
    expect(normalizeForMatch('好的。毒品').text).to.equal('好的。毒品')
    expect(normalizeForMatch('buy\n  drugs').text, 'white space becomes one space').to.equal('buy drugs')
    expect(normalizeForMatch('a 冰 b').text).to.equal('a 冰 b')
    const r = new ModerationRules(['badword', '冰毒', 'spam', 'sex'], [])
    for (const text of ['that was bad. Words fail me', '他买了冰，毒死了老鼠', 'the spa. Many people', 'sp am', 's pam', '今天天气不错']) {
      expect(r.check(text), text).to.deep.equal([])
    }
  })

  it('the rules catch and mask every spelling over its whole original span', () => {
    const r = new ModerationRules(['违禁词', 'spam'], [])
    for (const [what, spelt] of SPELLINGS) {
      const text = `前面 ${spelt} 后面`
      const hits = r.check(text)
      expect(hits, what).to.have.length(1)
      expect(maskHits(text, hits), what).to.equal(`前面 ${MASK} 后面`)
    }
    // a word written obfuscated in the list is found plainly written
    expect(new ModerationRules(['違 禁 詞'], []).check('这是违禁词').map((h) => h.rule)).to.deep.equal(['違 禁 詞'])
  })

  it('regexes run on the original and on the normalised text, found once, masked in the original', () => {
    const r = new ModerationRules([], ['/买.{0,3}枪/', '/^好/'])
    expect(maskHits('哪里买\u200b把枪', r.check('哪里买\u200b把枪'))).to.equal(`哪里${MASK}`)
    expect(r.check('哪里買把槍').map((h) => h.rule)).to.deep.equal(['/买.{0,3}枪/'])
    expect(r.check('好好').map((h) => [h.start, h.end]), 'the same match in both texts counts once').to.deep.equal([[0, 1]])
  })

  it('a simplified trigger keyword matches a traditional (or spaced, full-width) message', () => {
    const cfg: Pick<Config, 'trigger' | 'groups'> = { trigger: { private: 'prefix', group: 'at', prefix: '灵犀', randomRate: 0, keywords: ['天气预报', 'help'] }, groups: {} }
    const never = (): number => 0.99
    expect(decideTrigger(cfg, { isGroup: true, groupId: '1', atBot: false, text: '今天的天氣預報怎麼樣' }, never)).to.include({ triggered: true, reason: 'keyword' })
    expect(decideTrigger(cfg, { isGroup: true, groupId: '1', atBot: false, text: 'ＨＥＬＰ me' }, never)).to.include({ triggered: true, reason: 'keyword' })
    expect(decideTrigger(cfg, { isGroup: false, atBot: false, text: '天 气 预 报' }, never)).to.include({ triggered: true, reason: 'keyword' })
    expect(decideTrigger(cfg, { isGroup: true, groupId: '1', atBot: false, text: '今天天气不错' }, never).triggered).to.equal(false)
  })
})
