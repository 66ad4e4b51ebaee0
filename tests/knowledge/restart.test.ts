// Processing is durable (lib/knowledge/README.md, "Files in"): a document a crash left `processing` is
// processed again at the next start, once; one already tried twice (it may be what crashed the
// process) is marked failed; upload files no document waits for are removed; a record written
// before files existed is a ready pasted document.
import { expect } from 'chai'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { systemClock } from '../../lib/core/clock.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { PluginLogger } from '../../lib/core/logger.js'
import { KnowledgeService } from '../../lib/knowledge/service.js'
import type { KnowledgeDoc } from '../../lib/knowledge/types.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/knowledge/', import.meta.url))

describe('knowledge: processing survives a restart', () => {
  const noop = (): void => {}
  const log = new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus: new EventBus() })
  let dir = ''
  before(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-kb-restart-')) })
  after(() => { rmSync(dir, { recursive: true, force: true }) })

  it('resumes a document left processing, gives up on one tried twice, sweeps stray uploads, reads old records as ready', async () => {
    const uploads = join(dir, 'knowledge-uploads')
    mkdirSync(uploads)
    const at = new Date(0).toISOString()
    const file = (id: string, attempts: number): KnowledgeDoc => ({
      id, title: id, content: '', presetId: 'p', createdAt: at, updatedAt: at, status: 'processing', attempts,
      source: { kind: 'file', name: `${id}.pdf`, type: 'pdf', bytes: 1 }
    })
    const records: KnowledgeDoc[] = [
      file('resumed', 1), file('crashed-twice', 2),
      { id: 'old', title: '旧文档', content: '旧格式的记录没有状态，也能被搜到：风铃草。', presetId: '', createdAt: at, updatedAt: at }
    ]
    writeFileSync(join(dir, 'knowledge.json'), JSON.stringify({ meta: {}, records }))
    copyFileSync(join(FIXTURES, 'safety.pdf'), join(uploads, 'resumed.pdf'))
    copyFileSync(join(FIXTURES, 'safety.pdf'), join(uploads, 'crashed-twice.pdf'))
    writeFileSync(join(uploads, 'stray.txt'), 'left by a crash before its document was recorded')
    const kb = await KnowledgeService.open(join(dir, 'knowledge.json'), { clock: systemClock, log, uploadsDir: uploads })
    try {
      await kb.processed('resumed')
      await kb.ready()
      expect(kb.get('resumed')).to.include({ status: 'ready', title: '安全管理制度' })
      expect(kb.get('resumed').chunks).to.equal(3)
      expect(kb.get('crashed-twice')).to.include({ status: 'failed', chunks: 0 })
      expect(kb.get('crashed-twice').error).to.match(/^处理中断了两次/)
      expect(kb.get('old')).to.include({ status: 'ready', chunks: 1 })
      expect(kb.get('old').source).to.deep.equal({ kind: 'text' })
      expect((await kb.search('风铃草'))[0]?.docId).to.equal('old')
      expect((await kb.search('消防演练', { presetId: 'p' }))[0]).to.include({ docId: 'resumed', page: 2 })
      for (let i = 0; i < 50 && readdirSync(uploads).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(readdirSync(uploads)).to.deep.equal([]) // processed, given up and stray files all removed
    } finally { await kb.close() }
    // the outcome is on disk
    const again = await KnowledgeService.open(join(dir, 'knowledge.json'), { clock: systemClock, log, uploadsDir: uploads })
    try {
      expect(again.get('resumed').status).to.equal('ready')
      expect(again.get('resumed').chunks).to.equal(3)
      expect(existsSync(join(uploads, 'resumed.pdf'))).to.equal(false)
    } finally { await again.close() }
  })
})
