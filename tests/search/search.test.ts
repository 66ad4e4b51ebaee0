// lib/search: tokenizer, BM25 index, snippets.
import { expect } from 'chai'
import { Bm25Index } from '../../lib/search/bm25.js'
import { PostingLists } from '../../lib/search/postings.js'
import { TermIds } from '../../lib/search/id-maps.js'
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

describe('search: growth (partitions, exact frequencies, bounded expansion, builds)', () => {
  const facts = ['喜欢吃火锅和辣的东西', 'likes jazz and coffee', '周末去爬山', '养了一只猫叫咪咪', 'plays guitar at night', '在成都当程序员', '咖啡要加奶', 'reads novels about cats']
  const fill = (idx: Bm25Index<number>, partitioned: boolean): void => {
    for (let i = 0; i < 600; i++) idx.add(i, `${facts[i % facts.length]!} ${facts[(i * 7) % facts.length]!} #${i}`, partitioned ? `u${i % 13}` : undefined)
  }

  it('a partition search gives the same ids and scores as a whole-index search filtered to that user', () => {
    const parted = new Bm25Index<number>()
    const flat = new Bm25Index<number>()
    fill(parted, true)
    fill(flat, false)
    for (const q of ['火锅', 'jazz coffee', '猫', '成都 程序员', 'guitar 爬山', 'cats']) {
      for (const u of [0, 5, 12]) {
        const mine = parted.search(q, { partition: `u${u}`, limit: 1000 })
        const reference = flat.search(q, { filter: (id) => id % 13 === u, limit: 1000 })
        expect(mine.length, q).to.be.greaterThan(0)
        const ranked = (hits: typeof mine): string[] => hits.map((h) => `${h.score.toFixed(9)} ${h.id}`).sort()
        expect(ranked(mine), `${q} u${u}`).to.deep.equal(ranked(reference))
        // best first, and the best ones equal (ties aside)
        expect(mine[0]!.score.toFixed(9)).to.equal(reference[0]!.score.toFixed(9))
        for (let i = 1; i < mine.length; i++) expect(mine[i - 1]!.score).to.be.at.least(mine[i]!.score)
      }
    }
  })

  it('removing keeps frequencies exact: scores equal a fresh index without the removed documents', () => {
    const idx = new Bm25Index<number>()
    fill(idx, true)
    const fresh = new Bm25Index<number>()
    for (let i = 0; i < 600; i++) {
      const text = `${facts[i % facts.length]!} ${facts[(i * 7) % facts.length]!} #${i}`
      // a partitioned document keeps its own term list: its text is not even needed
      if (i % 5 === 0) expect(i % 10 === 0 ? idx.remove(i) : idx.remove(i, text)).to.equal(true)
      else fresh.add(i, text, `u${i % 13}`)
    }
    const ranked = (hits: Array<{ id: number; score: number }>): string[] =>
      hits.map((h) => `${h.score.toFixed(9)} ${h.id}`).sort()
    for (const q of ['火锅', 'jazz', '猫 咪咪']) {
      const got = ranked(idx.search(q, { limit: 1000 }))
      expect(got.length, q).to.be.greaterThan(0)
      expect(got, q).to.deep.equal(ranked(fresh.search(q, { limit: 1000 })))
      expect(ranked(idx.search(q, { limit: 1000, partition: 'u3' }))).to.deep.equal(ranked(fresh.search(q, { limit: 1000, partition: 'u3' })))
    }
    // unpartitioned documents removed with their text: exact too
    const flat = new Bm25Index<number>()
    const flatFresh = new Bm25Index<number>()
    for (let i = 0; i < 200; i++) {
      const text = `${facts[i % facts.length]!} #${i}`
      flat.add(i, text)
      if (i % 3) flatFresh.add(i, text)
    }
    for (let i = 0; i < 200; i += 3) flat.remove(i, `${facts[i % facts.length]!} #${i}`)
    expect(ranked(flat.search('jazz 猫', { limit: 1000 }))).to.deep.equal(ranked(flatFresh.search('jazz 猫', { limit: 1000 })))
  })

  it('a lone CJK character expands to the most frequent bigrams only, and still finds their documents', () => {
    const idx = new Bm25Index<number>()
    const han = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得'
    for (let i = 0; i < 10; i++) idx.add(i, `我家的猫咪很可爱 ${i}`) // 猫咪: in 10 documents
    for (let i = 0; i < 40; i++) idx.add(100 + i, `today ${i} 猫${han[i]!}`) // 40 rare bigrams holding 猫
    const all = idx.search('猫', { limit: 100 }).map((h) => h.id)
    for (let i = 0; i < 10; i++) expect(all).to.include(i) // the frequent bigram's documents are all found
    expect(all.length).to.be.at.most(10 + 7) // 8 bigrams at most: 猫咪 and 7 of the rare ones
    const wide = idx.search('猫', { limit: 100, maxExpansion: 1000 })
    expect(wide).to.have.length(50) // unbounded: everything holding the character
    expect(idx.search('猫咪', { limit: 100 })).to.have.length(10) // a bigram query is untouched
  })

  it('a search during a bulk build answers from what is indexed so far, without waiting', async () => {
    const idx = new Bm25Index<number>()
    const building = idx.addManyAsync(Array.from({ length: 30_000 }, (_, i) => [i, `record ${i} about ${i % 2 ? 'tea' : 'coffee'} and more words to tokenize here`] as [number, string]))
    await new Promise<void>((resolve) => setImmediate(resolve)) // the build yielded: the loop runs
    const partial = idx.size
    expect(partial).to.be.greaterThan(0).and.lessThan(30_000)
    const hits = idx.search('tea', { limit: 5 })
    expect(hits).to.have.length(5)
    expect(hits.every((h) => h.id < idx.size + 1000)).to.equal(true)
    await building
    expect(idx.size).to.equal(30_000)
  })

  it('a bulk build never holds the event loop for long (slices of a few milliseconds)', async () => {
    const idx = new Bm25Index<number>()
    let longest = 0
    let ticks = 0
    let last = performance.now()
    const timer = setInterval(() => { const t = performance.now(); longest = Math.max(longest, t - last); last = t; ticks++ }, 1)
    const started = performance.now()
    await idx.addManyAsync(Array.from({ length: 20_000 }, (_, i) => [i, `第${i}条记录 喜欢喝茶 likes green tea ${i}`] as [number, string]))
    const took = performance.now() - started
    clearInterval(timer)
    expect(idx.size).to.equal(20_000)
    expect(ticks).to.be.greaterThan(Math.min(10, took / 20)) // timers ran all along the build
    expect(longest).to.be.below(250) // generous: a busy shared machine also delays timers
  })
})

describe('search: posting lists', () => {
  const read = (lists: PostingLists, t: number): Array<[number, number]> => {
    const out: Array<[number, number]> = []
    const { docs, tfs, n } = lists.read(t)
    for (let k = 0; k < n; k++) out.push([docs[k]!, tfs[k]!])
    return out
  }

  it('keep every entry in order across blocks and pages, tf capped at 255, gaps up to 2^31, and renumber', () => {
    const lists = new PostingLists()
    const want = new Map<number, Array<[number, number]>>()
    let seed = 7
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647
    const next = new Map<number, number>()
    // 300 terms appended interleaved (their blocks alternate in the pool), ~800k entries: more than one page
    for (let i = 0; i < 800_000; i++) {
      const t = Math.floor(rnd() * rnd() * 300) // some terms long, some short
      const gap = rnd() < 0.01 ? Math.floor(rnd() * 5_000_000) : 1 + Math.floor(rnd() * 300)
      const doc = (next.get(t) ?? 0) + gap
      next.set(t, doc + 1)
      const tf = rnd() < 0.6 ? 1 : rnd() < 0.01 ? 1000 : 2 + Math.floor(rnd() * 40)
      lists.append(t, doc, tf)
      if (!want.has(t)) want.set(t, [])
      want.get(t)!.push([doc, Math.min(tf, 255)])
    }
    lists.append(999, 2 ** 31 - 2, 3) // a lone entry, the largest document number
    want.set(999, [[2 ** 31 - 2, 3]])
    expect(lists.bytes).to.be.greaterThan(1 << 20) // crossed into a second page
    for (const [t, entries] of want) {
      expect(lists.count(t)).to.equal(entries.length)
      expect(read(lists, t)).to.deep.equal(entries)
    }
    expect(lists.count(500)).to.equal(0)
    expect(read(lists, 500)).to.deep.equal([])

    // renumbering keeps only mapped documents, in order
    const small = new PostingLists()
    for (let d = 0; d < 5000; d++) small.append(0, d * 3, (d % 5) + 1)
    small.append(1, 7, 2)
    const remap = new Int32Array(15_000).fill(-1)
    remap[3] = 0
    remap[9] = 1
    remap[14_997] = 2
    const re = small.remapped(2, remap)
    expect(read(re, 0)).to.deep.equal([[0, 2], [1, 4], [2, 5]])
    expect(re.count(1)).to.equal(0)
  })

  it('small lists stay small: 10k terms of one entry each take well under a megabyte', () => {
    const lists = new PostingLists()
    for (let t = 0; t < 10_000; t++) lists.append(t, t * 7, 1)
    expect(lists.bytes).to.be.below(300_000) // 8-byte blocks; a number in a JS array alone costs as much
    expect(read(lists, 9_999)).to.deep.equal([[69_993, 1]])
  })
})

describe('search: term ids', () => {
  it('answer every term set, CJK bigrams (typed tables) and other terms alike, across resizes', () => {
    const ids = new TermIds()
    const terms: string[] = []
    for (let i = 0; i < 60_000; i++) terms.push(String.fromCharCode(0x3000 + ((i * 7919) % 0xcfff), 0x4e00 + (i % 20_000)))
    terms.push('\u3000\u3000', '\uffff\uffff', '\ud840\udc00', 'ab', 'abc', '中', 'x'.repeat(20), '中a')
    terms.forEach((t, i) => { ids.set(t, i) })
    const distinct = new Map<string, number>()
    terms.forEach((t, i) => distinct.set(t, i))
    for (const [t, i] of distinct) expect(ids.get(t)).to.equal(i)
    expect(ids.get('丁丁')).to.equal(undefined)
    expect(ids.get('zz')).to.equal(undefined)
    ids.set('ab', 7) // a second set replaces
    expect(ids.get('ab')).to.equal(7)
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
