// lib/search/maxscore.ts: the pruned walk (block-max MaxScore) gives exactly what scoring every posting
// gives, ids and scores to the last bit, on random corpora (seeded: a failure names its seed).
import { expect } from 'chai'
import { Bm25Index } from '../../lib/search/bm25.js'
import { BLOCK, PostingLists } from '../../lib/search/postings.js'

const rng = (seed: number): () => number => {
  let s = seed
  return () => (s = (s * 16807) % 2147483647) / 2147483647
}

const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后'
const LATIN = ['tea', 'coffee', 'jazz', 'guitar', 'river', 'stone', 'cloud', 'paper', 'lamp', 'orbit', 'maple', 'quartz']

/** A random corpus: Zipf-like characters and words (long dense lists and rare terms), lengths drifting. */
function corpus (seed: number, docs: number): { texts: string[]; queries: string[]; rnd: () => number } {
  const rnd = rng(seed)
  const zipf = <T>(a: readonly T[]): T => a[Math.min(a.length - 1, Math.floor(Math.exp(rnd() * Math.log(a.length + 1))) - 1)]!
  const han = [...HAN]
  const texts: string[] = []
  for (let d = 0; d < docs; d++) {
    // lengths grow along the corpus (the average moves while lists are written) and vary a lot
    const len = 3 + Math.floor(rnd() * (10 + (60 * d) / docs)) + (rnd() < 0.05 ? 200 : 0)
    let text = ''
    for (let i = 0; i < len; i++) text += rnd() < 0.6 ? zipf(han) : ` ${zipf(LATIN)}${rnd() < 0.1 ? Math.floor(rnd() * 50) : ''} `
    texts.push(text)
  }
  const queries: string[] = []
  for (let i = 0; i < 40; i++) {
    const kind = i % 4
    if (kind === 0) queries.push(zipf(han)) // a lone character: expands to bigrams
    else if (kind === 1) queries.push(`${zipf(han)}${zipf(han)}${zipf(han)} ${zipf(LATIN)}`)
    else if (kind === 2) queries.push(`${zipf(LATIN)} ${zipf(LATIN)}${Math.floor(rnd() * 50)} ${han[Math.floor(rnd() * han.length)]!}${han[Math.floor(rnd() * han.length)]!}`)
    else queries.push(texts[Math.floor(rnd() * texts.length)]!.slice(0, 6 + Math.floor(rnd() * 20)))
  }
  return { texts, queries, rnd }
}

const same = (idx: Bm25Index<number>, q: string, opts: { limit: number; filter?: (id: number) => boolean; maxExpansion?: number }, label: string): void => {
  const pruned = idx.search(q, opts)
  const full = idx.search(q, { ...opts, exhaustive: true })
  expect(pruned, `${label} «${q}» limit ${opts.limit}`).to.deep.equal(full)
}

describe('search: pruned top-k (block-max MaxScore) equals scoring every posting', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`random corpus, seed ${seed}: every query, limits 1 to 100, filters, removals and a compaction`, function () {
      this.timeout(60_000)
      const { texts, queries, rnd } = corpus(seed, 1500 + seed * 500)
      const idx = new Bm25Index<number>()
      texts.forEach((t, i) => { idx.add(i, t) })
      const limits = [1, 3, 10, 100]
      for (const q of queries) {
        for (const limit of limits) same(idx, q, { limit }, `seed ${seed}`)
        same(idx, q, { limit: 10, filter: (id) => id % 3 === 0 }, `seed ${seed} filtered`)
        same(idx, q, { limit: 10, maxExpansion: 40 }, `seed ${seed} wide`)
      }
      // removals: tombstones first (some with their text), then enough for a compaction
      for (let i = 0; i < texts.length; i++) if (rnd() < 0.2) idx.remove(i, i % 2 ? texts[i] : undefined)
      for (const q of queries.slice(0, 12)) same(idx, q, { limit: 10 }, `seed ${seed} tombstones`)
      for (let i = 0; i < texts.length; i++) if (rnd() < 0.3) idx.remove(i, texts[i])
      for (const q of queries) for (const limit of [1, 10]) same(idx, q, { limit }, `seed ${seed} compacted`)
    })
  }

  it('many equal scores: the lower document number wins, pruned or not', () => {
    const idx = new Bm25Index<number>()
    for (let i = 0; i < 3000; i++) idx.add(i, i % 7 === 0 ? '苹果 apple' : `苹果 pear ${i % 5}`)
    for (const q of ['苹果', 'apple 苹果', 'pear', '苹']) {
      for (const limit of [1, 5, 50]) same(idx, q, { limit }, 'ties')
    }
    expect(idx.search('apple', { limit: 3 }).map((h) => h.id)).to.deep.equal([0, 7, 14])
  })
})

describe('search: posting skip records', () => {
  it('decode every run of entries as a whole read does, and bound each entry', () => {
    const lists = new PostingLists()
    const rnd = rng(9)
    const want = new Map<number, Array<{ doc: number; tf: number; impact: number; ref: number }>>()
    const next = new Map<number, number>()
    for (let i = 0; i < 60_000; i++) {
      const t = Math.floor(rnd() * rnd() * 200)
      const doc = (next.get(t) ?? 0) + (rnd() < 0.01 ? Math.floor(rnd() * 1_000_000) : Math.floor(rnd() * 30))
      next.set(t, doc + 1)
      const tf = rnd() < 0.7 ? 1 : 2 + Math.floor(rnd() * 300)
      const impact = rnd()
      const ref = 1 + rnd() * 100
      lists.append(t, doc, tf, impact, ref)
      if (!want.has(t)) want.set(t, [])
      want.get(t)!.push({ doc, tf: Math.min(tf, 255), impact, ref })
    }
    const docs = new Int32Array(BLOCK)
    const tfs = new Uint8Array(BLOCK)
    for (const [t, entries] of want) {
      let k = 0
      let base = 0
      for (let r = lists.firstBlock(t); r !== -1; r = lists.nextBlock(r)) {
        const n = lists.decodeBlock(t, r, base, docs, tfs)
        expect(n).to.equal(Math.min(BLOCK, entries.length - k))
        for (let i = 0; i < n; i++, k++) {
          const e = entries[k]!
          expect([docs[i], tfs[i]]).to.deep.equal([e.doc, e.tf])
          // the bound holds at any reference, for an impact scaling as described in postings.ts (at most 1)
          for (const at of [0.5, e.ref, 200]) expect(lists.bound(r, at)).to.be.at.least(Math.min(1, e.impact * Math.max(1, at / e.ref)))
        }
        expect(lists.blockLast(r)).to.equal(docs[n - 1])
        base = lists.blockLast(r)
      }
      expect(k).to.equal(entries.length)
    }
  })
})
