// The compact in-memory forms of the memory store (lib/memory/id-set.ts, the shared empty metadata):
// same behaviour as a Set and as a record of its own, on disk and through the service.
import { expect } from 'chai'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IdSet } from '../../lib/memory/id-set.js'
import { MemoryService } from '../../lib/memory/service.js'
import { systemClock, type Clock } from '../../lib/core/clock.js'
import type { PluginLogger } from '../../lib/core/logger.js'

const clock: Clock = { ...systemClock, now: () => 1_700_000_000_000 }
const log = { error () {}, warn () {}, info () {}, debug () {} } as unknown as PluginLogger

describe('memory: compact in-memory forms', () => {
  it('IdSet behaves as a Set (insertion order, no duplicates) below and above its array size', () => {
    for (const n of [3, 64, 65, 300]) {
      const a = new IdSet()
      const b = new Set<number>()
      for (let i = 0; i < n; i++) { const id = (i * 7919) % 1000; a.add(id); b.add(id); a.add(id) }
      for (let i = 0; i < n; i += 3) { const id = (i * 7919) % 1000; expect(a.delete(id)).to.equal(b.delete(id)) }
      expect(a.delete(-1)).to.equal(false)
      expect(a.size).to.equal(b.size)
      expect([...a]).to.deep.equal([...b])
      for (const id of b) expect(a.has(id)).to.equal(true)
    }
  })

  it('records without metadata share one frozen {}; metadata written later is its own and is stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-mem-compact-'))
    const file = join(dir, 'memories.json')
        try {
      let svc = await MemoryService.open(file, { clock, log })
      const a = await svc.add({ userId: 'u1', content: 'likes jazz' })
      const b = await svc.add({ userId: 'u1', content: 'likes tea', metadata: {} })
      expect(a.metadata).to.deep.equal({})
      expect(a.metadata).to.equal(b.metadata)
      expect(Object.isFrozen(a.metadata)).to.equal(true)
      const c = await svc.update(b.id, { metadata: { via: 'test' } })
      expect(c.metadata).to.deep.equal({ via: 'test' })
      expect(svc.get(a.id)!.metadata).to.deep.equal({})
      await svc.close()
      svc = await MemoryService.open(file, { clock, log })
      expect(svc.get(a.id)!.metadata).to.deep.equal({})
      expect(svc.get(b.id)!.metadata).to.deep.equal({ via: 'test' })
      await svc.close()
      const onDisk = [file, join(dir, 'memories.journal.jsonl')].filter(existsSync).map((f) => readFileSync(f, 'utf8')).join('')
      expect(onDisk).to.contain('"metadata":{}').and.to.contain('"metadata":{"via":"test"}')
    } finally { rmSync(dir, { recursive: true, force: true }) }
  })

  it('a snapshot read at start (the streamed layout) shares the empty metadata and keeps the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-mem-compact-'))
    const file = join(dir, 'memories.json')
    const rec = (id: number, metadata: Record<string, unknown>): string => JSON.stringify({ id, userId: 'u1', content: `fact ${id}`, category: 'custom', subType: '', confidence: 0.9, groupId: '', metadata, source: 'manual', createdAt: 1, updatedAt: 1 })
    writeFileSync(file, `{"meta":{"nextId":4},"g":0,"records":[\n${rec(1, {})},\n${rec(2, { k: 1 })},\n${rec(3, {})}\n]}\n`)
    try {
      const svc = await MemoryService.open(file, { clock, log })
      expect(svc.list({ userId: 'u1' }).map((r) => r.id)).to.deep.equal([3, 2, 1])
      expect(svc.get(1)!.metadata).to.equal(svc.get(3)!.metadata)
      expect(Object.isFrozen(svc.get(1)!.metadata)).to.equal(true)
      expect(svc.get(2)!.metadata).to.deep.equal({ k: 1 })
      await svc.close()
    } finally { rmSync(dir, { recursive: true, force: true }) }
  })
})
