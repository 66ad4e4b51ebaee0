// The knowledge index built in the background at start: searches answer during the build (never
// waiting for it), from a bounded scan of a small preset's documents or from what is indexed so far.
import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { PluginLogger } from '../../lib/core/logger.js'
import { KnowledgeService } from '../../lib/knowledge/service.js'
import type { KnowledgeDoc } from '../../lib/knowledge/types.js'

describe('knowledge: searches during the start-up index build', () => {
  const noop = (): void => {}
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
  let dir = ''
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-kb-build-'))
    const at = new Date(0).toISOString()
    const docs: KnowledgeDoc[] = Array.from({ length: 6000 }, (_, i) => ({
      id: `d${i}`, title: `文档 ${i}`, content: `${'通用的内容段落，讲述各种日常事务。'.repeat(20)} general text ${i}`, presetId: '', createdAt: at, updatedAt: at
    }))
    docs.push({ id: 'hotpot', title: '火锅指南', content: '重庆火锅的底料用牛油。', presetId: 'chef', createdAt: at, updatedAt: at })
    docs.push({ id: 'noodle', title: '面条', content: '兰州拉面的汤要清。', presetId: 'chef', createdAt: at, updatedAt: at })
    writeFileSync(join(dir, 'knowledge.json'), JSON.stringify({ meta: {}, records: docs }))
  })
  after(() => { rmSync(dir, { recursive: true, force: true }) })

  it('answers a preset search at once from its documents, and any search without waiting', async () => {
    const kb = await KnowledgeService.open(join(dir, 'knowledge.json'), { clock: systemClock, log })
    try {
      expect(kb.indexComplete).to.equal(false)
      const chef = await kb.search('火锅 底料', { presetId: 'chef', limit: 3 })
      expect(chef.map((h) => h.id)).to.deep.equal(['hotpot'])
      expect(chef[0]!.highlighted).to.include('<mark>')
      const any = await kb.search('日常 general', { limit: 5 })
      expect(kb.indexComplete).to.equal(false) // answered from the documents indexed so far
      expect(any.length).to.be.at.most(5)
      await kb.ready()
      expect(kb.indexComplete).to.equal(true)
      expect(await kb.search('日常 general', { limit: 5 })).to.have.length(5)
      expect((await kb.search('拉面', { limit: 3 })).map((h) => h.id)).to.deep.equal(['noodle'])
      // a lone character still finds its document through the bounded expansion
      expect((await kb.search('锅', { limit: 3 })).map((h) => h.id)).to.include('hotpot')
    } finally { await kb.close() }
  })

  it('a document updated before the build reached it is found by its new text only', async () => {
    const kb = await KnowledgeService.open(join(dir, 'knowledge.json'), { clock: systemClock, log })
    try {
      await kb.update('d5999', { content: '独一无二的麻辣香锅' })
      await kb.ready()
      expect((await kb.search('麻辣香锅', { limit: 3 })).map((h) => h.id)).to.deep.equal(['d5999'])
      expect((await kb.search('general', { limit: 10_000 })).map((h) => h.id)).to.not.include('d5999')
      await kb.update('d5999', { content: `${'通用的内容段落，讲述各种日常事务。'.repeat(20)} general text 5999` })
    } finally { await kb.close() }
  })
})
