// lib/knowledge/passages.ts: a passage is ranked with its document's context. A question naming two
// facts of one document that sit in two of its passages finds that document's passage first, above a
// passage of another document that repeats one of the facts (which plain passage BM25 puts first).
import { expect } from 'chai'
import { chunkText } from '../../lib/knowledge/chunk.js'
import { PassageIndex, type PassageDoc } from '../../lib/knowledge/passages.js'
import { Bm25Index } from '../../lib/search/bm25.js'

const rng = (seed: number): () => number => {
  let s = seed
  return () => (s = (s * 16807) % 2147483647) / 2147483647
}
const HAN = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后'

/** Filler documents: common characters only, so the facts' words stay rare. */
function filler (seed: number, count: number): PassageDoc[] {
  const rnd = rng(seed)
  const han = [...HAN]
  return Array.from({ length: count }, (_, i) => ({
    id: `f${i}`, title: `资料${i}`, presetId: i % 2 ? 'p' : '',
    content: Array.from({ length: 600 }, () => han[Math.floor(rnd() * han.length)]!).join('')
  }))
}

const chunks = (content: string): ReturnType<typeof chunkText> => chunkText(content, { size: 500, overlap: 50 })

describe('knowledge: passages ranked with their document context', () => {
  // the manual: the product in its first section, the warranty in another (two passages)
  const manual: PassageDoc = {
    id: 'manual', title: '使用手册', presetId: '',
    content: '# 产品介绍\n本店的紫砂壶采用宜兴原矿泥料，手工拉坯成型，适合冲泡乌龙茶与普洱茶。\n\n' +
      '# 售后服务\n自购买之日起享受三年保修期，期间非人为损坏免费维修。'
  }
  // another document that only repeats the product
  const catalogue: PassageDoc = {
    id: 'catalogue', title: '茶具目录', presetId: '',
    content: '紫砂壶专区：紫砂壶新品上架，紫砂壶礼盒，紫砂壶养护小贴士。'
  }
  const query = '紫砂壶 保修期'

  it('puts the passage of the document holding both facts first', () => {
    const idx = new PassageIndex()
    for (const d of [manual, catalogue, ...filler(7, 30)]) idx.add(d, chunks(d.content))
    expect(idx.of('manual')!.size).to.equal(2) // the two facts are in two passages

    // plain passage BM25 (the same index texts) ranks the catalogue's repetition first
    const plain = new Bm25Index<string>()
    for (const d of [manual, catalogue]) {
      chunks(d.content).forEach((c, n) => plain.add(`${d.id}#${n}`, `${d.title}\n${c.heading ? `${c.heading}\n` : ''}${d.content.slice(c.start, c.end)}`))
    }
    for (const d of filler(7, 30)) chunks(d.content).forEach((c, n) => plain.add(`${d.id}#${n}`, `${d.title}\n${d.content.slice(c.start, c.end)}`))
    expect(plain.search(query, { limit: 3 })[0]!.id).to.equal('catalogue#0')

    const hits = idx.search(query, { limit: 5 })
    expect(hits[0]!.docId).to.equal('manual')
    expect(hits.map((h) => h.docId)).to.include('catalogue')
    // both of the manual's passages rank above the catalogue's
    expect(hits.slice(0, 2).map((h) => h.docId)).to.deep.equal(['manual', 'manual'])
  })

  it('stays within the preset and equals the exhaustive walk on a random corpus', () => {
    const idx = new PassageIndex()
    const docs = filler(11, 300)
    for (const d of [manual, catalogue, ...docs]) idx.add(d, chunks(d.content))
    const rnd = rng(5)
    const han = [...HAN]
    for (let q = 0; q < 40; q++) {
      const text = Array.from({ length: 2 + Math.floor(rnd() * 4) }, () => han[Math.floor(rnd() * han.length)]! + han[Math.floor(rnd() * han.length)]!).join(' ')
      for (const limit of [1, 5, 12]) {
        const pruned = idx.search(text, { limit })
        expect(idx.search(text, { limit, exhaustive: true }), `${text} @${limit}`).to.deep.equal(pruned)
        const inPreset = idx.search(text, { limit, presetId: 'p' })
        for (const h of inPreset) expect(docs.find((d) => d.id === h.docId)?.presetId).to.equal('p')
      }
    }
    expect(idx.search(query, { limit: 5, presetId: 'p' }).map((h) => h.docId)).to.not.include('manual')
  })
})
