// The storage port's contract (lib/storage/records.ts): the same behaviours against the embedded
// JournalStore and against PgRecordStore on a real PostgreSQL (tests/support/postgres.ts; skipped, saying
// why, when no server can be started).
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JournalStore } from '../../lib/core/journal-store.js'
import { PgRecordStore } from '../../lib/storage/pg/record-store.js'
import { journalAsRecords, type RecordStore } from '../../lib/storage/records.js'
import { postgresOrSkip } from '../support/postgres.js'

interface Rec { id: string; name: string; items?: number[]; n?: number }
interface Meta { count: number; label?: string }
type Store = RecordStore<Rec, string, Meta>
interface Engine { open(): Promise<Store>; cleanup(): Promise<void> }

const engines: Array<{ name: string; make(ctx: Mocha.Context): Promise<Engine> }> = [
  {
    name: 'JournalStore (files)',
    async make () {
      const dir = mkdtempSync(join(tmpdir(), 'lingxi-contract-'))
      return {
        open: async () => journalAsRecords(await JournalStore.open<Rec, string, Meta>(join(dir, 'contract.json'), { key: (r) => r.id, meta: { count: 0 }, sync: false })),
        cleanup: async () => rmSync(dir, { recursive: true, force: true })
      }
    }
  },
  {
    name: 'PgRecordStore (PostgreSQL)',
    async make (ctx) {
      const url = await postgresOrSkip(ctx)
      return { open: () => PgRecordStore.open<Rec, string, Meta>(url, 'contract', { key: (r) => r.id, meta: { count: 0 } }), cleanup: async () => undefined }
    }
  }
]

for (const engine of engines) {
  describe(`storage port contract: ${engine.name}`, () => {
    let e: Engine
    let store: Store
    before(async function () { e = await engine.make(this) })
    after(async () => { await e?.cleanup() })
    beforeEach(async () => {
      store = await e.open()
      await store.clear()
      await store.setMeta({ count: 0, label: '' })
    })
    afterEach(async () => { await store?.close() })

    const reopen = async (): Promise<Store> => {
      await store.close()
      store = await e.open()
      return store
    }

    it('put, get, has, size and values; reopen keeps them', async () => {
      await store.put({ id: 'a', name: 'A' })
      await store.putMany([{ id: 'b', name: 'B' }, { id: 'c', name: 'C', n: 1 }])
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'A' })
      expect(store.has('b')).to.equal(true)
      expect(store.has('z')).to.equal(false)
      expect(store.size).to.equal(3)
      await reopen()
      expect([...store.values()].map((r) => r.id).sort()).to.deep.equal(['a', 'b', 'c'])
      expect(store.get('c')).to.deep.equal({ id: 'c', name: 'C', n: 1 })
    })

    it('a later put replaces the record whole', async () => {
      await store.put({ id: 'a', name: 'A', n: 1 })
      await store.put({ id: 'a', name: 'A2' })
      await reopen()
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'A2' })
    })

    it('patch sets fields; false for an unknown record', async () => {
      await store.put({ id: 'a', name: 'A', n: 1 })
      expect(await store.patch('a', { n: 2 })).to.equal(true)
      expect(await store.patch('nope', { n: 2 })).to.equal(false)
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'A', n: 2 })
      await reopen()
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'A', n: 2 })
      expect(store.has('nope')).to.equal(false)
    })

    it('appendTo extends a list, keeps the last max and sets fields; false for an unknown record', async () => {
      await store.put({ id: 'a', name: 'A' })
      expect(await store.appendTo('a', 'items', [1, 2, 3])).to.equal(true)
      expect(await store.appendTo('a', 'items', [4, 5], { max: 4, set: { n: 9 } })).to.equal(true)
      expect(await store.appendTo('nope', 'items', [1])).to.equal(false)
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'A', items: [2, 3, 4, 5], n: 9 })
      await reopen()
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'A', items: [2, 3, 4, 5], n: 9 })
    })

    it('changes made without waiting land in order', async () => {
      const writes = [store.put({ id: 'a', name: 'A' })]
      for (let i = 0; i < 20; i++) writes.push(store.appendTo('a', 'items', [i], { max: 5 }).then(() => undefined))
      writes.push(store.patch('a', { name: 'done' }).then(() => undefined), store.put({ id: 'b', name: 'B' }), store.delete('b').then(() => undefined))
      await Promise.all(writes)
      await reopen()
      expect(store.get('a')).to.deep.equal({ id: 'a', name: 'done', items: [15, 16, 17, 18, 19] })
      expect(store.has('b')).to.equal(false)
    })

    it('delete removes; false when absent', async () => {
      await store.put({ id: 'a', name: 'A' })
      expect(await store.delete('a')).to.equal(true)
      expect(await store.delete('a')).to.equal(false)
      await reopen()
      expect(store.size).to.equal(0)
    })

    it('meta: defaults, patches merge, a put carries a meta patch; reopen keeps it', async () => {
      expect(store.meta.count).to.equal(0)
      await store.setMeta({ label: 'x' })
      await store.put({ id: 'a', name: 'A' }, { count: 3 })
      expect(store.meta).to.deep.equal({ count: 3, label: 'x' })
      await reopen()
      expect(store.meta).to.deep.equal({ count: 3, label: 'x' })
    })

    it('reserve takes consecutive numbers from a meta counter, never the same twice (in PostgreSQL also from two holders at once); reopen keeps the counter', async () => {
      expect(await store.reserve('count')).to.equal(1) // 0 counts as unset: numbering starts at 1
      expect(await store.reserve('count', 3)).to.equal(2)
      expect(store.meta.count).to.equal(5)
      // in PostgreSQL a second holder of the store stands for another instance; a data folder has one holder
      const other = engine.name.startsWith('PgRecordStore') ? await e.open() : store
      try {
        const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? store : other).reserve('count')))
        expect(new Set(taken).size, 'distinct').to.equal(20)
      } finally { if (other !== store) await other.close() }
      await reopen()
      expect(store.meta.count).to.be.at.least(15)
      expect(await store.reserve('count')).to.be.at.least(15)
    })

    it('a store larger than a read page (PostgreSQL reads 5,000 rows at a time) is read back whole', async () => {
      const many = Array.from({ length: 12_345 }, (_, i) => ({ id: `k${String(i).padStart(5, '0')}`, name: `n${i}` }))
      for (let i = 0; i < many.length; i += 2000) await store.putMany(many.slice(i, i + 2000))
      await reopen()
      expect(store.size).to.equal(many.length)
      expect(store.get('k00000')?.name).to.equal('n0')
      expect(store.get('k05000')?.name).to.equal('n5000') // the first of the second page
      expect(store.get('k12344')?.name).to.equal('n12344')
    })

    it('clear removes every record; reopen keeps it empty', async () => {
      await store.putMany([{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }])
      await store.clear()
      expect(store.size).to.equal(0)
      await store.put({ id: 'c', name: 'C' })
      await reopen()
      expect([...store.values()].map((r) => r.id)).to.deep.equal(['c'])
    })

    it('idle resolves after the queued writes; a closed store refuses writes', async () => {
      void store.put({ id: 'a', name: 'A' })
      await store.idle()
      await reopen()
      expect(store.has('a')).to.equal(true)
      await store.close()
      let refused = false
      await store.put({ id: 'b', name: 'B' }).catch(() => { refused = true })
      expect(refused).to.equal(true)
      store = await e.open()
    })
  })
}
