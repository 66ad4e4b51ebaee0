// lib/search: tokenizer, BM25 index, snippets.
import { expect } from 'chai'
import { Bm25Index } from '../../lib/search/bm25.js'
import { snippet } from '../../lib/search/snippet.js'
import { queryTokens, tokenize } from '../../lib/search/tokenize.js'
import { EN_DOCS, EN_QUERIES, ZH_DOCS, ZH_QUERIES } from '../knowledge/corpus.js'

describe('search: tokenizer', () => {
  it('splits Chinese into bigrams, Latin into lowercased words, drops stop words', () => {
    expect(tokenize('北京火锅')).to.deep.equal(['北京', '京火', '火锅'])
    expect(tokenize('猫')).to.deep.equal(['猫'])
    expect(tokenize('The Quick brown fox, and 42 dogs!')).to.deep.equal(['quick', 'brown', 'fox', '42', 'dogs'])
    expect(tokenize('用Python写插件v2')).to.deep.equal(['用', 'python', '写插', '插件', 'v2'])
    expect(tokenize('ＡＢＣ１２３ ｈｅｌｌｏ')).to.deep.equal(['abc123', 'hello']) // full-width folds to ASCII
    expect(tokenize('すしを食べる')).to.include('すし')
    expect(queryTokens('tea tea 茶茶')).to.deep.equal(['tea', '茶茶'])
    expect(tokenize('   ,,, ')).to.deep.equal([])
  })
})

describe('search: BM25 index', () => {
  const build = (docs: Array<{ title: string; content: string }>): Bm25Index<number> => {
    const idx = new Bm25Index<number>()
    docs.forEach((d, i) => { idx.add(i, `${d.title}\n${d.title}\n${d.content}`) })
    return idx
  }

  for (const [label, docs, queries] of [['Chinese', ZH_DOCS, ZH_QUERIES], ['English', EN_DOCS, EN_QUERIES]] as const) {
    it(`ranks the relevant document in the top 3 on a ${label} corpus`, () => {
      const idx = build(docs)
      for (const [q, want] of queries) {
        const top = idx.search(q, { limit: 3 }).map((h) => h.id)
        expect(top, `${q} → ${docs[want]!.title}`).to.include(want)
      }
      // and first for most of them
      const firsts = queries.filter(([q, want]) => idx.search(q, { limit: 1 })[0]?.id === want).length
      expect(firsts / queries.length).to.be.at.least(0.8)
    })
  }

  it('a rare term outweighs a common one; scores descend; filter and limit apply', () => {
    const idx = new Bm25Index<string>()
    for (let i = 0; i < 20; i++) idx.add(`c${i}`, 'common words about the weather today')
    idx.add('rare', 'common words and a zeppelin')
    const hits = idx.search('common zeppelin', { limit: 5 })
    expect(hits[0]!.id).to.equal('rare')
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).to.be.at.least(hits[i]!.score)
    expect(idx.search('common', { limit: 3 })).to.have.length(3)
    expect(idx.search('common', { limit: 50, filter: (id) => id.endsWith('1') }).map((h) => h.id).sort()).to.deep.equal(['c1', 'c11'])
    expect(idx.search('nothing-matches-this')).to.deep.equal([])
  })

  it('replaces, removes and compacts without changing results', () => {
    const idx = new Bm25Index<number>()
    for (let i = 0; i < 3000; i++) idx.add(i, i % 2 ? `odd document number ${i}` : `even document number ${i} with apples`)
    idx.add(4, 'now about bananas') // replace
    expect(idx.search('bananas').map((h) => h.id)).to.deep.equal([4])
    expect(idx.search('apples', { limit: 5000 }).some((h) => h.id === 4)).to.equal(false)
    for (let i = 0; i < 2500; i++) expect(idx.remove(i)).to.equal(true) // passes the tombstone limit: compacts
    expect(idx.remove(1)).to.equal(false)
    expect(idx.size).to.equal(500)
    const apples = idx.search('apples', { limit: 5000 }).map((h) => h.id)
    expect(apples).to.have.length(250)
    expect(apples.every((id) => id >= 2500 && id % 2 === 0)).to.equal(true)
    expect(idx.has(2999)).to.equal(true)
    expect(idx.has(10)).to.equal(false)
  })

  it('a single Chinese character matches the bigrams that contain it', () => {
    const idx = build(ZH_DOCS)
    expect(idx.search('猫', { limit: 1 })[0]?.id).to.equal(2)
    expect(idx.search('篮', { limit: 1 })[0]?.id).to.equal(7)
  })

  it('a search within a partition sees only its documents, also after a compaction and a move', () => {
    const idx = new Bm25Index<number>()
    for (let i = 0; i < 3000; i++) idx.add(i, `likes tea number ${i}`, `user${i % 3}`)
    idx.add(3000, 'likes tea without a partition')
    const ofUser1 = idx.search('tea', { partition: 'user1', limit: 5000 }).map((h) => h.id)
    expect(ofUser1).to.have.length(1000)
    expect(ofUser1.every((id) => id % 3 === 1)).to.equal(true)
    expect(idx.search('tea', { partition: 'nobody' })).to.deep.equal([])
    expect(idx.search('tea', { limit: 5000 })).to.have.length(3001) // no partition: everything
    for (let i = 0; i < 1500; i++) idx.remove(i) // compacts: partitions follow the renumbered documents
    idx.add(2999, 'likes tea, moved', 'user0') // was user2
    const after = idx.search('tea', { partition: 'user2', limit: 5000 }).map((h) => h.id)
    expect(after).to.have.length(499)
    expect(after.every((id) => id >= 1500 && id % 3 === 2 && id !== 2999)).to.equal(true)
    expect(idx.search('moved', { partition: 'user0' }).map((h) => h.id)).to.deep.equal([2999])
  })

  it('addManyAsync indexes everything while yielding', async () => {
    const idx = new Bm25Index<number>()
    await idx.addManyAsync(Array.from({ length: 1200 }, (_, i) => [i, `item ${i} ${i === 777 ? 'needle' : 'hay'}`] as [number, string]))
    expect(idx.size).to.equal(1200)
    expect(idx.search('needle').map((h) => h.id)).to.deep.equal([777])
  })
})

describe('search: snippets', () => {
  it('cuts a window around the matches with ellipses and marks them, HTML-escaped', () => {
    const text = `${'前言'.repeat(100)}重庆火锅的灵魂在于牛油底料<b>${'后记'.repeat(100)}`
    const s = snippet(text, '火锅 底料', 40)
    expect(s.snippet.startsWith('…')).to.equal(true)
    expect(s.snippet.endsWith('…')).to.equal(true)
    expect(s.snippet).to.include('火锅')
    expect(s.highlighted).to.include('<mark>火锅</mark>').and.include('<mark>底料</mark>').and.include('&lt;b&gt;')
    expect(s.highlighted).to.not.include('<b>')
  })

  it('matches Latin words case-insensitively and merges overlapping bigram matches', () => {
    expect(snippet('Brew Green Tea gently', 'green tea').highlighted).to.equal('Brew <mark>Green</mark> <mark>Tea</mark> gently')
    expect(snippet('我爱北京火锅', '北京火锅').highlighted).to.equal('我爱<mark>北京火锅</mark>')
    expect(snippet('short text', 'absent')).to.deep.equal({ snippet: 'short text', highlighted: 'short text' })
  })
})
