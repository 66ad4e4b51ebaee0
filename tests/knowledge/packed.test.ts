// lib/knowledge/packed-text.ts: a document mixing Chinese with Latin text is held as UTF-8 bytes (less
// memory than V8's two-byte string); everything read from the knowledge base and everything written to
// its files is the same text as before, through real files in a temp folder.
import { expect } from 'chai'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { PluginLogger } from '../../lib/core/logger.js'
import { pack, PackedText, unpack } from '../../lib/knowledge/packed-text.js'
import { KnowledgeService } from '../../lib/knowledge/service.js'

const MIXED = 'Node.js 的事件循环 (event loop) 把 I/O 回调排进队列；setImmediate 在 check 阶段运行 😀。'.repeat(40)

describe('knowledge: documents held packed', () => {
  const noop = (): void => {}
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
  let dir = ''
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-kb-packed-')) })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('packs only where the UTF-8 bytes take less memory than the string', () => {
    expect(pack(MIXED)).to.be.instanceOf(PackedText)
    expect(unpack(pack(MIXED))).to.equal(MIXED)
    expect((pack(MIXED) as PackedText).length).to.equal(MIXED.length)
    for (const s of ['中文的段落，没有拉丁字母。'.repeat(50), 'plain ASCII text '.repeat(50), 'café crème brûlée '.repeat(50), 'short 中文']) {
      expect(pack(s), s.slice(0, 12)).to.equal(s)
    }
    expect(JSON.stringify({ content: pack(MIXED) })).to.equal(JSON.stringify({ content: MIXED }))
  })

  it('reads, lists, searches and writes a packed document as its text, across restarts', async () => {
    const file = join(dir, 'knowledge.json')
    const at = new Date(0).toISOString()
    writeFileSync(file, JSON.stringify({ meta: {}, records: [{ id: 'loop', title: '事件循环', content: MIXED, presetId: 'dev', createdAt: at, updatedAt: at }] }))
    let kb = await KnowledgeService.open(file, { clock: systemClock, log })
    await kb.ready()
    const check = async (content: string): Promise<void> => {
      expect(kb.get('loop').content).to.equal(content)
      const [item] = kb.list()
      expect({ content: item?.content, contentLength: item?.contentLength, truncated: item?.truncated }).to.deep.equal({ content: content.slice(0, 500), contentLength: content.length, truncated: true })
      const [hit] = await kb.search('setImmediate check', { presetId: 'dev' })
      expect(hit?.id).to.equal('loop')
      expect(content).to.include(hit?.text ?? '-') // a passage: a range of the document's text
      expect(hit?.text.length).to.be.below(content.length)
      expect(content).to.include(hit?.snippet.replace(/^…|…$/g, '') ?? '-')
    }
    await check(MIXED) // read from the snapshot (packed at open)
    const edited = `${MIXED}追加一段 appended text.`
    await kb.update('loop', { content: edited })
    await check(edited)
    await kb.close()
    // the journal holds the text itself
    const journal = readdirSync(dir).find((f) => f.startsWith('knowledge.journal'))! // the documents' (the bases keep their own)
    expect(readFileSync(join(dir, journal), 'utf8')).to.include(JSON.stringify(edited))
    kb = await KnowledgeService.open(file, { clock: systemClock, log }) // replayed from the journal
    await kb.ready()
    await check(edited)
    await kb.remove('loop')
    expect(kb.size).to.equal(0)
    await kb.close()
  })
})
