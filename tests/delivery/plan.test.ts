// The delivery plan (lib/delivery): reasoning, markdown as plain text, media taken out, forward nodes
// and sentences, and the form chosen from the settings. Pure functions, no host.
import { expect } from 'chai'
import { stripReasoning } from '../../lib/chat/reasoning.js'
import { markdownToPlain } from '../../lib/delivery/markdown.js'
import { extractMedia, MAX_MEDIA } from '../../lib/delivery/media.js'
import { planDelivery } from '../../lib/delivery/plan.js'
import { MAX_NODES, MAX_SENTENCES, NODE_CHARS, sentenceDelay, splitNodes, splitSentences } from '../../lib/delivery/split.js'

const PLAIN = { markdown: 'plain', longAnswer: 'forward', longAnswerChars: 500, splitSentences: false } as const

describe('delivery: reasoning never reaches the chat', () => {
  const cases: Array<[string, string, string]> = [
    ['a closed block', '<think>plan</think>\nAnswer', '\nAnswer'],
    ['thinking and reasoning, attributes, any case', '<Thinking a="1">x</Thinking>A<reasoning>y</reasoning>B', 'AB'],
    ['only the closing tag (the opening went elsewhere)', 'step 1, step 2</think>Answer', 'Answer'],
    ['an unclosed leading block: all of it is reasoning', '  <think>still thinking when the answer was cut', ''],
    ['a tag-free answer stays as it is', 'a < b and c > d', 'a < b and c > d']
  ]
  for (const [name, input, out] of cases) it(name, () => { expect(stripReasoning(input)).to.equal(out) })
})

describe('delivery: markdown as plain text', () => {
  const cases: Array<[string, string, string]> = [
    ['headings, ATX and setext', '# Title #\nSub\n---\ntext', 'Title\nSub\ntext'],
    ['bold, italic, strike; snake_case and 2*3*4 survive', '**b** *i* _u_ ~~s~~ ***bi*** snake_case_name 2*3*4', 'b i u s bi snake_case_name 2*3*4'],
    ['bullets as • (nested indented), numbers kept, task boxes', '- a\n* b\n  + c\n1. one\n2) two\n- [x] done', '• a\n• b\n  • c\n1. one\n2) two\n• ☑ done'],
    ['code fences removed, code kept as is', '```ts\nconst x = **y** // `z`\n  # not a heading\n```', 'const x = **y** // `z`\n  # not a heading'],
    ['inline code kept, its backticks gone', 'run `npm *i*` now', 'run npm *i* now'],
    ['links as "text (url)", autolinks, reference links', '[docs](https://a.b/c "t") <https://x.y> [same](https://s.t) [r][1]\n[1]: https://r.s', 'docs (https://a.b/c) https://x.y same (https://s.t) r\n1: https://r.s'],
    ['images as their alt text', '![a cat](https://c.at/x.png)', 'a cat'],
    ['blockquotes, nested', '> said\n> > deeper\n> - item', '│ said\n│ │ deeper\n│ • item'],
    ['tables as "a | b" lines', '| h1 | h2 |\n|:--|--:|\n| **a** | `b` |\n| c | d |', 'h1 | h2\na | b\nc | d'],
    ['horizontal rules', 'a\n\n***\n\nb', 'a\n\n──────────\n\nb'],
    ['escaped characters', '\\*not italic\\* \\# \\[x\\]', '*not italic* # [x]'],
    ['html line breaks and simple tags', 'a<br>b <b>c</b>', 'a\nb c'],
    ['blank lines collapse', 'a\n\n\n\nb', 'a\n\nb']
  ]
  for (const [name, md, out] of cases) it(name, () => { expect(markdownToPlain(md)).to.equal(out) })
})

describe('delivery: images and files taken out of the text', () => {
  it('markdown images, image links, bare image URLs, data URIs and base64:// in order, once each', () => {
    const r = extractMedia('![x](https://a.b/1.png) [pic](https://a.b/2.JPG?s=1) https://a.b/3.webp, https://a.b/1.png\ndata:image/gif;base64,R0lG base64://QUJD')
    expect(r.media.map((m) => m.src)).to.deep.equal(['https://a.b/1.png', 'https://a.b/2.JPG?s=1', 'https://a.b/3.webp', 'base64://R0lG', 'base64://QUJD'])
    expect(r.text).to.equal('pic,')
  })
  it('file links become files with their names; other links and code blocks stay', () => {
    const r = extractMedia('[报告](https://a.b/r.pdf) https://a.b/x.zip [site](https://a.b/page)\n```\nhttps://a.b/in-code.png\n```')
    expect(r.media).to.deep.equal([{ kind: 'file', src: 'https://a.b/r.pdf', name: '报告' }, { kind: 'file', src: 'https://a.b/x.zip', name: 'x.zip' }])
    expect(r.text).to.equal('报告 [site](https://a.b/page)\n```\nhttps://a.b/in-code.png\n```')
  })
  it(`at most ${MAX_MEDIA}; the rest stays in the text`, () => {
    const urls = Array.from({ length: MAX_MEDIA + 2 }, (_, i) => `https://a.b/${i}.png`)
    const r = extractMedia(urls.join('\n'))
    expect(r.media).to.have.length(MAX_MEDIA)
    expect(r.text).to.equal(urls.slice(MAX_MEDIA).join('\n'))
  })
})

describe('delivery: forward nodes and sentences', () => {
  it('nodes at paragraph boundaries, about NODE_CHARS each; a huge paragraph is cut', () => {
    const para = (n: number): string => `段落${n}：${'字'.repeat(300)}`
    const nodes = splitNodes(Array.from({ length: 8 }, (_, i) => para(i)).join('\n\n'))
    expect(nodes.length).to.be.greaterThan(2)
    for (const n of nodes) {
      expect(n.length).to.be.at.most(NODE_CHARS)
      expect(n.startsWith('段落'), 'starts at a paragraph').to.equal(true)
    }
    expect(splitNodes('长'.repeat(2500)).map((n) => n.length)).to.deep.equal([800, 800, 800, 100])
  })
  it(`at most ${MAX_NODES} nodes: nodes grow, then the end is cut with an ellipsis`, () => {
    const many = Array.from({ length: 200 }, (_, i) => `p${i} ${'x'.repeat(700)}`).join('\n\n')
    const nodes = splitNodes(many)
    expect(nodes).to.have.length(MAX_NODES)
    expect(nodes.at(-1)?.endsWith('…')).to.equal(true)
  })
  it(`sentences (at most ${MAX_SENTENCES}) and their pauses`, () => {
    expect(splitSentences('你好。今天怎么样？Fine. Really!\n好的……')).to.deep.equal(['你好。', '今天怎么样？', 'Fine.', 'Really!', '好的……'])
    expect(splitSentences(Array.from({ length: 12 }, (_, i) => `句${i}。`).join(''))).to.have.length(MAX_SENTENCES)
    expect(sentenceDelay('abc', 800)).to.equal(860)
    expect(sentenceDelay('x'.repeat(1000), 800)).to.equal(2800)
    expect(sentenceDelay('abc', 0)).to.equal(0)
  })
})

describe('delivery: the form of an answer', () => {
  it('long -> forward nodes (or image), short -> single, split sentences when asked, off keeps one message', () => {
    const long = `${'很长的一段话。'.repeat(100)}`
    expect(planDelivery(long, PLAIN).mode).to.equal('forward')
    expect(planDelivery(long, { ...PLAIN, longAnswer: 'image' }).mode).to.equal('image')
    expect(planDelivery(long, { ...PLAIN, longAnswer: 'off' }).mode).to.equal('single')
    expect(planDelivery('一。二。', PLAIN)).to.deep.include({ mode: 'single', parts: ['一。二。'] })
    expect(planDelivery('一。二。', { ...PLAIN, splitSentences: true })).to.deep.include({ mode: 'sentences', parts: ['一。', '二。'] })
    // an image too big to render goes as a forward
    expect(planDelivery('字'.repeat(9000), { ...PLAIN, longAnswer: 'image' }).mode).to.equal('forward')
  })
  it('tool images come first and are not repeated; an answer of only reasoning is empty', () => {
    const p = planDelivery('看 ![](https://a.b/1.png)', PLAIN, [{ kind: 'image', src: 'base64://AAA' }, { kind: 'image', src: 'https://a.b/1.png' }])
    expect(p.media.map((m) => m.src)).to.deep.equal(['base64://AAA', 'https://a.b/1.png'])
    expect(p.text).to.equal('看')
    expect(planDelivery('<think>only this', PLAIN)).to.deep.include({ text: '', parts: [] })
  })
})
