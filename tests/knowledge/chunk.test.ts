// Cutting documents into passages (lib/knowledge/chunk.ts): at headings and pages, near the size, at
// the best border, with overlap, table rows whole, each passage with its heading path and page.
import { expect } from 'chai'
import { chunkText } from '../../lib/knowledge/chunk.js'

describe('knowledge: passages (chunkText)', () => {
  const texts = (text: string, size: number, overlap = 0, pageStarts?: number[]): string[] =>
    chunkText(text, { size, overlap, ...(pageStarts ? { pageStarts } : {}) }).map((c) => text.slice(c.start, c.end))

  it('starts a passage at each heading, remembers the heading path, and skips sections holding only a heading', () => {
    const text = '# 手册\n\n引言。\n\n## 安装\n\n### 下载\n\n从官网下载。\n\n### 解压\n\n解压到任意目录。\n\n## 使用\n\n双击运行。'
    const chunks = chunkText(text, { size: 500, overlap: 50 })
    expect(chunks.map((c) => c.heading)).to.deep.equal(['手册', '手册 > 安装 > 下载', '手册 > 安装 > 解压', '手册 > 使用'])
    expect(chunks.map((c) => text.slice(c.start, c.end))).to.deep.equal(['# 手册\n\n引言。', '### 下载\n\n从官网下载。', '### 解压\n\n解压到任意目录。', '## 使用\n\n双击运行。'])
  })

  it('cuts a long section near the size at paragraph, line and sentence ends, never past the size', () => {
    const para = '这是一个句子，讲一件事。'.repeat(10) // 120 characters
    const text = [para, para, para, para].join('\n\n')
    const parts = texts(text, 300)
    expect(parts.every((p) => p.length <= 300)).to.equal(true)
    expect(parts.every((p) => p.endsWith('。'))).to.equal(true)
    expect(parts.join('\n\n')).to.equal(text) // no overlap: the passages are the text
    const sentences = texts('一二三四五六七八九十。'.repeat(30), 100)
    expect(sentences.every((p) => p.length <= 100 && p.endsWith('。'))).to.equal(true)
  })

  it('repeats about `overlap` characters of the passage before, from a sentence start', () => {
    const text = '甲乙丙丁戊己庚辛。'.repeat(40)
    const parts = texts(text, 100, 20)
    for (let i = 1; i < parts.length; i++) {
      const repeated = parts[i]!.slice(0, 9)
      expect(parts[i - 1]!.endsWith(repeated), `passage ${i}`).to.equal(true)
    }
  })

  it('keeps table rows whole (no repeat of half a row)', () => {
    const rows = Array.from({ length: 20 }, (_, i) => `| 产品: 商品${i} | 价格: ${i * 10} | 产地: 某地 |`)
    for (const p of texts(rows.join('\n'), 120, 30)) for (const line of p.split('\n')) expect(rows).to.include(line)
  })

  it('gives each passage its page; a page start starts a passage', () => {
    const pages = ['# 第一章\n第一页的内容。', '第二页接着讲。', '# 第三章\n第三页。']
    let text = ''
    const starts: number[] = []
    for (const p of pages) { if (text) text += '\n\n'; starts.push(text.length); text += p }
    const chunks = chunkText(text, { size: 500, overlap: 0, pageStarts: starts })
    expect(chunks.map((c) => [c.page, c.heading, text.slice(c.start, c.end)])).to.deep.equal([
      [1, '第一章', '# 第一章\n第一页的内容。'], [2, '第一章', '第二页接着讲。'], [3, '第三章', '# 第三章\n第三页。']
    ])
  })

  it('never splits a surrogate pair, and an empty text has no passages', () => {
    for (const p of texts('😀'.repeat(300), 101)) expect(p).to.match(/^(?:😀)+$/)
    expect(chunkText('  \n\n ', { size: 100, overlap: 10 })).to.deep.equal([])
  })
})
