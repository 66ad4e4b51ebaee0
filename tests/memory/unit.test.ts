// Parsing of model answers (extraction JSON, summary lines) and the near-duplicate rule.
import { expect } from 'chai'
import { parseFacts } from '../../lib/memory/extract.js'
import { similarity, SAME_FACT } from '../../lib/memory/similar.js'
import { parseSummaryLines } from '../../lib/memory/summarize.js'
import { normalizeCategory, toA } from '../../lib/memory/types.js'

describe('memory: parsing and similarity', () => {
  it('parseFacts reads the first JSON array, tolerating fences and reasoning, and cleans each fact', () => {
    const facts = parseFacts('<think>[not this]</think>Sure!\n```json\n[{"content":" 住在杭州 ","category":"basic_info","confidence":3},{"content":""},{"category":"event"},"junk",{"content":"likes tea","category":"unknown","subType":"drink"}]\n```')
    expect(facts).to.deep.equal([
      { content: '住在杭州', category: 'profile', subType: '', confidence: 1 },
      { content: 'likes tea', category: 'custom', subType: 'drink', confidence: 0.7 }
    ])
    expect(parseFacts('nothing here')).to.deep.equal([])
    expect(parseFacts('[{"content": broken')).to.deep.equal([])
    expect(parseFacts('{"content":"not an array"}')).to.deep.equal([])
  })

  it('parseSummaryLines keeps only [category] lines, maps names, drops reasoning and duplicates', () => {
    const lines = parseSummaryLines('<thinking>[profile] hidden thought</thinking>\n1. [preferences] likes tea\n- [preference] likes tea\n* [RELATION] has a sister\n[zzz] odd one\nplain text\n[event]')
    expect(lines).to.deep.equal([
      { category: 'preference', content: 'likes tea' },
      { category: 'relation', content: 'has a sister' },
      { category: 'custom', content: 'odd one' }
    ])
  })

  it('category names of both variants normalise to the stored six', () => {
    expect(['basic_info', 'Preferences', 'events', 'relationships', 'interests', 'custom', 'topic'].map(normalizeCategory))
      .to.deep.equal(['profile', 'preference', 'event', 'relation', 'topic', 'custom', 'topic'])
    expect(normalizeCategory('other')).to.equal(undefined)
    expect(toA('relation')).to.equal('relationships')
  })

  it('similarity: same fact despite punctuation/case/containment; different facts stay apart', () => {
    expect(similarity('喜欢吃火锅', '喜欢吃火锅！')).to.equal(1)
    expect(similarity('Likes Jazz.', 'likes jazz')).to.equal(1)
    expect(similarity('住在成都', '现在住在成都市')).to.be.at.least(SAME_FACT)
    expect(similarity('喜欢吃火锅', '讨厌吃火锅')).to.be.below(SAME_FACT)
    expect(similarity('likes cats', 'likes dogs')).to.be.below(SAME_FACT)
    expect(similarity('', 'x')).to.equal(0)
  })
})
