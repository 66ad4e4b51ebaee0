// The pieces of a streamed answer (lib/delivery/pieces.ts) and the reasoning kept out of them
// (lib/delivery/stream-reasoning.ts): text fed in chunks as a model streams it, pieces taken after each.
import { expect } from 'chai'
import { LONG_PARAGRAPH, PieceSplitter } from '../../lib/delivery/pieces.js'
import { ReasoningGate } from '../../lib/delivery/stream-reasoning.js'

/** Feeds `text` in chunks of `step` characters; gives the pieces as taken and what was left at the end. */
function stream (text: string, minChars: number, step = 3): { pieces: string[]; rest: string } {
  const sp = new PieceSplitter(minChars)
  const pieces: string[] = []
  for (let i = 0; i < text.length; i += step) {
    sp.push(text.slice(i, i + step))
    pieces.push(...sp.take(pieces.length === 0))
  }
  return { pieces, rest: sp.flush().trim() }
}

/** Every way the text can be cut into chunks of 1..7 characters gives the same pieces. */
function steady (text: string, minChars: number): { pieces: string[]; rest: string } {
  const first = stream(text, minChars, 1)
  for (let step = 2; step <= 7; step++) expect(stream(text, minChars, step), `chunks of ${step}`).to.deep.equal(first)
  return first
}

describe('delivery: pieces of a streamed answer', () => {
  it('CJK sentences: the first piece at its first sentence end, later ones at paragraph ends', () => {
    const text = '第一句话在这里说完了，足够长。第二句话也很长的样子！第三句呢？\n\n新的段落开始了，这是第二段。还有更多的内容在后面。\n\n最后一段。'
    const { pieces, rest } = steady(text, 10)
    expect(pieces).to.deep.equal(['第一句话在这里说完了，足够长。', '第二句话也很长的样子！第三句呢？', '新的段落开始了，这是第二段。还有更多的内容在后面。'])
    expect(rest).to.equal('最后一段。')
  })

  it('English: a period ends a sentence only before a space; numbers, domains, file names and abbreviations stay whole', () => {
    const text = 'Pi is 3.14 and e is 2.71 in file.ts, e.g. from example.com today. Next one here.\n\nMore.'
    const { pieces, rest } = steady(text, 10)
    expect(pieces).to.deep.equal(['Pi is 3.14 and e is 2.71 in file.ts, e.g. from example.com today.', 'Next one here.'])
    expect(rest).to.equal('More.')
  })

  it('never inside a URL, a link or inline code; ? and ! in a URL are no sentence ends', () => {
    const text = 'See https://example.com/a.b?c=1&d=2!x for it. Then [the docs. really](https://x.y/z?q=1) and `a. b` too. Done here now.'
    const { pieces } = steady(text, 5)
    expect(pieces[0]).to.equal('See https://example.com/a.b?c=1&d=2!x for it.')
    const all = [...pieces, stream(text, 5).rest].join(' ')
    expect(all).to.include('https://example.com/a.b?c=1&d=2!x').and.include('[the docs. really](https://x.y/z?q=1)').and.include('`a. b`')
    for (const p of pieces) expect(p, p).to.not.match(/^\S*\)|^[?!]/)
  })

  it('a code fence is one piece with what leads into it, blank lines and periods inside it notwithstanding', () => {
    const text = 'Here is the code:\n\n```js\nconst a = 1. \n\nb = 2.\n```\n\nAfter the code we talk. More talk here.\n\nEnd.'
    const { pieces, rest } = steady(text, 5)
    expect(pieces).to.deep.equal(['Here is the code:\n\n```js\nconst a = 1. \n\nb = 2.\n```', 'After the code we talk. More talk here.'])
    expect(rest).to.equal('End.')
  })

  it('a fence still open holds everything from the text before it on', () => {
    const sp = new PieceSplitter(5)
    sp.push('Intro line that is long enough.\n\n```py\nx = 1. y = 2.\n\nz = 3.\n')
    expect(sp.take(true)).to.deep.equal(['Intro line that is long enough.'])
    expect(sp.take(false)).to.deep.equal([])
    expect(sp.pending).to.equal('```py\nx = 1. y = 2.\n\nz = 3.\n')
  })

  it('a markdown table is never cut between its rows, nor at the periods in its cells', () => {
    const text = 'Numbers below, as a table. Read them.\n| a | b |\n|---|---|\n| 1. x | 2. y |\n| 3 | 4 |\n\nTable done. Yes it is done now.\n\nBye.'
    const { pieces, rest } = steady(text, 5)
    expect(pieces).to.deep.equal(['Numbers below, as a table.', 'Read them.\n| a | b |\n|---|---|\n| 1. x | 2. y |\n| 3 | 4 |', 'Table done. Yes it is done now.'])
    expect(rest).to.equal('Bye.')
  })

  it('a list item is never cut; the list stays with its lead-in line; a heading stays with what follows it', () => {
    const text = '## Steps\n\nDo this first:\n1. Install it. Then run it.\n2. Configure. Carefully.\n   still item two. Yes.\n\nAll done now, enjoy it.\n\nBye.'
    const { pieces, rest } = steady(text, 5)
    expect(pieces).to.deep.equal(['## Steps\n\nDo this first:\n1. Install it. Then run it.\n2. Configure. Carefully.\n   still item two. Yes.', 'All done now, enjoy it.'])
    expect(rest).to.equal('Bye.')
  })

  it('pieces shorter than streamMinChars wait and are merged with what follows', () => {
    const text = '好的。明白了。我来解释一下这个问题的原因。\n\n短。\n\n这一段足够长，可以自己成为一条消息了。\n\n尾巴。'
    const { pieces, rest } = steady(text, 15)
    expect(pieces).to.deep.equal(['好的。明白了。我来解释一下这个问题的原因。', '短。\n\n这一段足够长，可以自己成为一条消息了。'])
    expect(rest).to.equal('尾巴。')
    // with 0 every sentence may be a first piece
    expect(stream('好。对。', 0, 1).pieces).to.deep.equal(['好。'])
  })

  it('a paragraph growing past LONG_PARAGRAPH is cut at its last sentence end', () => {
    const sentence = '这是一个很长的段落里的一句话，用来凑够长度。'
    const text = sentence.repeat(Math.ceil(LONG_PARAGRAPH / sentence.length) + 3)
    const { pieces, rest } = stream(text, 10, 5)
    expect(pieces.length).to.be.at.least(2)
    expect(pieces[0]).to.equal(sentence)
    expect(pieces[1]!.length).to.be.at.least(LONG_PARAGRAPH)
    expect(pieces.join('') + rest).to.equal(text)
  })

  it('quotes and brackets after an end mark stay with their sentence; a bare "!" that may open an image waits', () => {
    const { pieces } = stream('他说：“这样就好了。”然后我们继续往下讲别的内容。', 5, 1)
    expect(pieces[0]).to.equal('他说：“这样就好了。”')
    const sp = new PieceSplitter(3)
    sp.push('Look at this picture !')
    expect(sp.take(true)).to.deep.equal([])
    sp.push('[cat](https://img.example.com/cat.png) it is cute. More.')
    expect(sp.take(true)).to.deep.equal(['Look at this picture ![cat](https://img.example.com/cat.png) it is cute.'])
  })
})

describe('delivery: reasoning kept out of a streamed answer', () => {
  const run = (chunks: string[]): { text: string; resets: number } => {
    const g = new ReasoningGate()
    let text = ''
    let resets = 0
    for (const c of chunks) {
      const r = g.push(c)
      if (r.reset) { resets++; text = '' }
      text += r.text
    }
    return { text: text + g.end(), resets }
  }

  it('a <think> block split across chunks, tags cut anywhere, never shows', () => {
    const whole = '<think>secret plan. SECRET</think>\n\nThe answer. It is 42.'
    for (let step = 1; step <= 9; step++) {
      const chunks: string[] = []
      for (let i = 0; i < whole.length; i += step) chunks.push(whole.slice(i, i + step))
      expect(run(chunks).text, `chunks of ${step}`).to.equal('The answer. It is 42.')
    }
    expect(run(['Hi <thinking a="1">x', 'y</thinking> there', ' <reasoning>z</reason', 'ing>!']).text).to.equal('Hi there !')
  })

  it('an unterminated <think> holds everything after it back, to the end', () => {
    const g = new ReasoningGate()
    expect(g.push('<th').text).to.equal('')
    expect(g.push('ink>still thinking. Long. ').text).to.equal('')
    expect(g.push('more thoughts').text).to.equal('')
    expect(g.end()).to.equal('')
  })

  it('a "<" that is no tag of ours goes on once the next chunk shows it', () => {
    const g = new ReasoningGate()
    expect(g.push('1 <').text).to.equal('1 ')
    expect(g.push(' 2 and <b>x</b>').text).to.equal('< 2 and <b>x</b>')
    expect(g.push(' a <thin').text).to.equal(' a ')
    expect(g.end()).to.equal('<thin')
  })

  it('a closing tag without its opening one: the text before it was reasoning (reset)', () => {
    const r = run(['reasoning without an opening tag', ' goes on.</th', 'ink>\n\nThe real answer.'])
    expect(r).to.deep.equal({ text: 'The real answer.', resets: 1 })
  })
})
