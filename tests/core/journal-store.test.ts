// lib/core/journal-store.ts: snapshot + append-only journal; acked writes survive kill -9.
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { JournalStore, journalPath } from '../../lib/core/journal-store.js'

interface Rec { id: number; text: string }
interface Conv { id: string; updatedAt: number; messages: string[]; note?: string }
const openConv = (file: string, compactAfter = 2000): Promise<JournalStore<Conv, string>> =>
  JournalStore.open<Conv, string>(file, { key: (c) => c.id, compactAfter, now: () => 42 })
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

const open = (file: string, compactAfter = 2000): Promise<JournalStore<Rec, number, { next: number }>> =>
  JournalStore.open<Rec, number, { next: number }>(file, { key: (r) => r.id, meta: { next: 1 }, compactAfter, now: () => 42 })

describe('JournalStore', () => {
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-journal-')) })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('keeps puts, deletes and meta across a reopen without a clean close', async () => {
    const file = join(dir, 'm.json')
    const s = await open(file)
    await Promise.all([s.put({ id: 1, text: 'a' }, { next: 2 }), s.put({ id: 2, text: 'b' }, { next: 3 }), s.put({ id: 3, text: 'c' })])
    await s.put({ id: 1, text: 'a2' })
    expect(await s.delete(2)).to.equal(true)
    expect(await s.delete(99)).to.equal(false)
    // no close(): as after a crash, the journal alone carries the changes
    const again = await open(file)
    expect([...again.values()]).to.deep.equal([{ id: 1, text: 'a2' }, { id: 3, text: 'c' }])
    expect(again.meta).to.deep.equal({ next: 3 })
    await again.close()
    await s.close()
  })

  it('folds the journal into the snapshot in the background when it grows; close does not fold', async () => {
    const file = join(dir, 'c.json')
    const s = await open(file, 10)
    for (let i = 1; i <= 25; i++) await s.put({ id: i, text: `t${i}` })
    await s.idle()
    // writes made while a fold runs go to the new journal, however many: the first write after it folds again
    // when the journal grew past the threshold meanwhile (how many that is depends on the machine's speed)
    await s.put({ id: 26, text: 't26' })
    await s.idle()
    expect(s.lastFold?.records).to.be.at.least(10)
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { g: number; records: Rec[] }
    expect(snap.records.length).to.be.at.least(10)
    expect(snap.g).to.be.a('number')
    expect(readFileSync(journalPath(file), 'utf8').trim().split('\n').length).to.be.at.most(11)
    const before = readFileSync(file, 'utf8')
    await s.close()
    expect(readFileSync(file, 'utf8')).to.equal(before) // stop only syncs; the journal carries the rest
    const again = await open(file, 10)
    expect([...again.values()].map((r) => r.id)).to.deep.equal(Array.from({ length: 26 }, (_, i) => i + 1))
    await again.close()
  })

  it('reads a compact one-line snapshot of the older layout (longer than a head line may be) whole', async () => {
    const file = join(dir, 'compact.json')
    const records = Array.from({ length: 30000 }, (_, i) => ({ id: i + 1, text: 'x'.repeat(200) }))
    writeFileSync(file, JSON.stringify({ meta: { next: 30001 }, records })) // ~6.5 MB, no newline
    const s = await open(file)
    expect(s.size).to.equal(30000)
    expect(s.get(30000)?.text).to.have.length(200)
    expect(s.meta).to.deep.equal({ next: 30001 })
    await s.close()
  })

  it('drops a torn last line (an append that was never acked) and keeps appending after it', async () => {
    const file = join(dir, 't.json')
    const s = await open(file)
    await s.put({ id: 1, text: 'ok' })
    appendFileSync(journalPath(file), '{"p":{"id":2,"te')
    const again = await open(file)
    expect([...again.values()].map((r) => r.id)).to.deep.equal([1])
    await again.put({ id: 3, text: 'after' })
    const third = await open(file)
    expect([...third.values()].map((r) => r.id)).to.deep.equal([1, 3])
    for (const x of [s, again, third]) await x.close()
  })

  it('skips an unreadable line in the middle, sets a copy aside and logs it', async () => {
    const file = join(dir, 'x.json')
    writeFileSync(journalPath(file), '{"p":{"id":1,"text":"a"}}\nGARBAGE\n{"p":{"id":2,"text":"b"}}\n')
    const errors: string[] = []
    const log = { error: (m: string) => { errors.push(m) }, warn: () => {}, info: () => {}, debug: () => {} }
    const s = await JournalStore.open<Rec, number>(file, { key: (r) => r.id, log: log as never, now: () => 7 })
    expect([...s.values()].map((r) => r.id)).to.deep.equal([1, 2])
    expect(errors.join()).to.match(/1 unreadable line/)
    expect(readdirSync(dir)).to.include('x.journal.corrupt-7.jsonl')
    await s.close()
  })

  it('moves a corrupt snapshot aside instead of overwriting it', async () => {
    const file = join(dir, 'bad.json')
    writeFileSync(file, '{"records": [')
    const s = await open(file)
    expect(s.size).to.equal(0)
    expect(readFileSync(join(dir, 'bad.corrupt-42.json'), 'utf8')).to.equal('{"records": [')
    await s.close()
  })

  it('loses no acknowledged write when the process is killed (-9) mid-write loop', async function () {
    this.timeout(30000)
    const file = join(dir, 'crash.json')
    const acked = new Set<number>()
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/journal-writer.ts', import.meta.url)), file], { stdio: ['ignore', 'pipe', 'inherit'] })
      let buf = ''
      const target = acked.size + 300 + round * 137
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject)
        child.on('exit', () => resolve())
        child.stdout.on('data', (d: Buffer) => {
          buf += d.toString()
          const lines = buf.split('\n')
          buf = lines.pop() ?? ''
          for (const l of lines) if (/^\d+$/.test(l)) acked.add(Number(l))
          if (acked.size >= target) child.kill('SIGKILL')
        })
      })
      const s = await open(file)
      const missing = [...acked].filter((id) => !s.has(id))
      expect(missing, `round ${round}: acked but lost`).to.deep.equal([])
      for (const id of acked) expect(s.get(id)?.text).to.equal(`record ${id} `.repeat(20))
      await s.close()
    }
    expect(readdirSync(dir).filter((f) => f.includes('corrupt'))).to.deep.equal([])
  })

  describe('deltas (appendTo, patch)', () => {
    it('journals only the new items, trims to the bound and replays after an unclean stop', async () => {
      const file = join(dir, 'conv.json')
      const s = await openConv(file)
      await s.put({ id: 'a', updatedAt: 1, messages: ['m1', 'm2'] })
      expect(await s.appendTo('a', 'messages', ['m3', 'm4'], { max: 3, set: { updatedAt: 2 } })).to.equal(true)
      expect(await s.patch('a', { note: 'n' })).to.equal(true)
      expect(await s.appendTo('nobody', 'messages', ['x'])).to.equal(false)
      expect(await s.patch('nobody', { note: 'x' })).to.equal(false)
      expect(s.get('a')).to.deep.equal({ id: 'a', updatedAt: 2, messages: ['m2', 'm3', 'm4'], note: 'n' })
      const lines = readFileSync(journalPath(file), 'utf8').trim().split('\n')
      expect(lines.at(-2)).to.equal('{"a":{"k":"a","f":"messages","i":["m3","m4"],"n":3,"s":{"updatedAt":2}}}')
      const again = await openConv(file) // no close: the journal alone carries the deltas
      expect(again.get('a')).to.deep.equal({ id: 'a', updatedAt: 2, messages: ['m2', 'm3', 'm4'], note: 'n' })
      for (const x of [s, again]) await x.close()
    })

    it('never replays a delta twice: a rotated journal the snapshot covers is skipped', async () => {
      const file = join(dir, 'twice.json')
      const s = await openConv(file)
      await s.put({ id: 'a', updatedAt: 1, messages: [] })
      for (let i = 0; i < 5; i++) await s.appendTo('a', 'messages', [`m${i}`])
      const rotatedCopy = join(dir, 'copy.jsonl')
      copyFileSync(journalPath(file), rotatedCopy)
      await s.fold()
      await s.appendTo('a', 'messages', ['after'])
      // as if the process died after the snapshot's rename, before the rotated journal's removal
      const snap = JSON.parse(readFileSync(file, 'utf8')) as { g: number }
      copyFileSync(rotatedCopy, join(dir, `twice.journal.${snap.g}.jsonl`))
      const again = await openConv(file)
      expect(again.get('a')?.messages).to.deep.equal(['m0', 'm1', 'm2', 'm3', 'm4', 'after'])
      expect(existsSync(join(dir, `twice.journal.${snap.g}.jsonl`))).to.equal(false)
      for (const x of [s, again]) await x.close()
    })

    it('keeps every acked write made while a fold runs, deltas exactly once', async () => {
      const file = join(dir, 'busy.json')
      const s = await openConv(file)
      await s.putMany(Array.from({ length: 20_000 }, (_, i) => ({ id: `c${i}`, updatedAt: 0, messages: ['x'.repeat(40), 'y'.repeat(40)] })))
      const folding = s.fold()
      const writes: Array<Promise<unknown>> = []
      for (let i = 0; i < 300; i++) {
        writes.push(s.appendTo(`c${i}`, 'messages', [`new${i}`], { set: { updatedAt: i } }))
        writes.push(s.put({ id: `n${i}`, updatedAt: i, messages: [] }))
        if (i % 10 === 0) { writes.push(s.delete(`c${19_999 - i}`)); await tick() }
      }
      await Promise.all(writes)
      await folding
      expect(s.lastFold?.records).to.be.at.least(20_000)
      const check = (x: JournalStore<Conv, string>): void => {
        expect(x.size).to.equal(20_000 + 300 - 30)
        for (let i = 0; i < 300; i++) {
          expect(x.get(`c${i}`)?.messages).to.deep.equal(['x'.repeat(40), 'y'.repeat(40), `new${i}`])
          expect(x.has(`n${i}`)).to.equal(true)
        }
        expect(x.has('c19999')).to.equal(false)
      }
      check(s)
      const unclean = await openConv(file) // snapshot (taken mid-writes) + the new journal
      check(unclean)
      await s.close()
      await unclean.close()
    })

    it('streams a fold of 50k records in chunks without blocking the event loop', async function () {
      this.timeout(30_000)
      const file = join(dir, 'big.json')
      const s = await openConv(file, 1_000_000)
      await s.putMany(Array.from({ length: 50_000 }, (_, i) => ({ id: `c${i}`, updatedAt: i, messages: ['hello there, how are you today?', 'fine thanks and you? '.repeat(3)] })))
      let ticking = true
      let maxGap = 0
      let ticks = 0
      const ticker = (async () => {
        let last = performance.now()
        while (ticking) {
          await tick()
          const now = performance.now()
          maxGap = Math.max(maxGap, now - last)
          last = now
          ticks++
        }
      })()
      await s.fold()
      ticking = false
      await ticker
      const report = s.lastFold!
      expect(report.records).to.equal(50_000)
      expect(report.chunks, 'snapshot written in many small chunks').to.be.at.least(report.bytes / (256 * 1024))
      expect(report.chunks).to.be.above(10)
      expect(ticks, 'the loop ran between chunks').to.be.at.least(report.chunks)
      expect(maxGap, 'longest gap between event-loop ticks during the fold (ms)').to.be.below(250)
      expect(report.longestSliceMs, 'longest the fold held the loop between two yields (ms)').to.be.below(100)
      expect((JSON.parse(readFileSync(file, 'utf8')) as { records: Conv[] }).records).to.have.length(50_000)
      await s.close()
    })

    it('abandons a fold at close (fast stop); the next open replays the rotated journal and folds it', async () => {
      const file = join(dir, 'stop.json')
      const s = await openConv(file)
      await s.putMany(Array.from({ length: 30_000 }, (_, i) => ({ id: `c${i}`, updatedAt: i, messages: ['m'.repeat(60)] })))
      void s.fold()
      await tick()
      await s.appendTo('c1', 'messages', ['late'])
      await s.close()
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([])
      const again = await openConv(file)
      expect(again.size).to.equal(30_000)
      expect(again.get('c1')?.messages).to.deep.equal(['m'.repeat(60), 'late'])
      await again.fold()
      expect(readdirSync(dir).filter((f) => /\.journal\.\d+\.jsonl$/.test(f))).to.deep.equal([])
      const third = await openConv(file)
      expect(third.get('c1')?.messages).to.deep.equal(['m'.repeat(60), 'late'])
      for (const x of [again, third]) await x.close()
    })

    it('loses no acked delta and duplicates none when killed (-9) while folding', async function () {
      this.timeout(30000)
      const file = join(dir, 'dcrash.json')
      const acked = new Map<number, number>()
      for (let round = 0; round < 3; round++) {
        const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/journal-delta-writer.ts', import.meta.url)), file], { stdio: ['ignore', 'pipe', 'inherit'] })
        let buf = ''
        let count = 0
        const target = 400 + round * 97
        await new Promise<void>((resolve, reject) => {
          child.on('error', reject)
          child.on('exit', () => resolve())
          child.stdout.on('data', (d: Buffer) => {
            buf += d.toString()
            const lines = buf.split('\n')
            buf = lines.pop() ?? ''
            for (const l of lines) {
              const m = /^(\d+):(\d+)$/.exec(l)
              if (m) { acked.set(Number(m[1]), Math.max(acked.get(Number(m[1])) ?? -1, Number(m[2]))); count++ }
            }
            if (count >= target) child.kill('SIGKILL')
          })
        })
        const s = await JournalStore.open<{ id: number; items: number[] }, number>(file, { key: (r) => r.id })
        for (const [w, n] of acked) {
          const items = s.get(w)?.items ?? []
          expect(items.length, `round ${round}, writer ${w}: acked item lost`).to.be.above(n)
          expect(items, `round ${round}, writer ${w}: items replayed twice or out of order`).to.deep.equal(items.map((_, i) => i))
        }
        expect(s.size).to.equal(3004)
        await s.close()
      }
    })
  })

  describe('files written before deltas and generations', () => {
    it('replays a journal of the old layout (no generation line) over an old snapshot, then folds it', async () => {
      const file = join(dir, 'old.json')
      writeFileSync(file, JSON.stringify({ meta: { next: 5 }, records: [{ id: 1, text: 'snap' }, { id: 2, text: 'two' }] }))
      writeFileSync(journalPath(file), '{"p":{"id":3,"text":"j"},"m":{"next":6}}\n{"d":2}\n{"p":{"id":1,"text":"new"}}\n')
      const s = await open(file)
      expect([...s.values()]).to.deep.equal([{ id: 1, text: 'new' }, { id: 3, text: 'j' }])
      expect(s.meta).to.deep.equal({ next: 6 })
      await s.fold()
      await s.put({ id: 4, text: 'four' })
      const again = await open(file)
      expect([...again.values()].map((r) => r.id).sort()).to.deep.equal([1, 3, 4])
      expect((JSON.parse(readFileSync(file, 'utf8')) as { g: number }).g).to.be.a('number')
      for (const x of [s, again]) await x.close()
    })

    it('skips a journal whose generation the snapshot already covers', async () => {
      const file = join(dir, 'stale.json')
      writeFileSync(file, JSON.stringify({ meta: { next: 1 }, g: 4, records: [{ id: 1, text: 'folded' }] }))
      writeFileSync(journalPath(file), '{"g":4}\n{"d":1}\n')
      const s = await open(file)
      expect([...s.values()]).to.deep.equal([{ id: 1, text: 'folded' }])
      await s.put({ id: 2, text: 'b' })
      expect(readFileSync(journalPath(file), 'utf8').split('\n')[0]).to.equal('{"g":5}')
      const again = await open(file)
      expect([...again.values()].map((r) => r.id)).to.deep.equal([1, 2])
      for (const x of [s, again]) await x.close()
    })
  })

  describe('snapshot layout (one record per line)', () => {
    it('writes one record per line, still one JSON document, and reads it back', async () => {
      const file = join(dir, 'lines.json')
      const s = await open(file)
      await s.putMany([{ id: 1, text: 'a\nb' }, { id: 2, text: '二' }])
      await s.fold()
      await s.close()
      const text = readFileSync(file, 'utf8')
      expect(text.split('\n')).to.have.length(5) // head, 2 records, tail, ''
      expect((JSON.parse(text) as { records: Rec[] }).records).to.deep.equal([{ id: 1, text: 'a\nb' }, { id: 2, text: '二' }])
      const again = await open(file)
      expect([...again.values()]).to.deep.equal([{ id: 1, text: 'a\nb' }, { id: 2, text: '二' }])
      await again.close()
    })

    it('moves a torn line-layout snapshot aside (never a partial load)', async () => {
      const file = join(dir, 'torn.json')
      writeFileSync(file, '{"meta":{"next":1},"g":3,"records":[\n{"id":1,"text":"a"},\n{"id":2,"te')
      const s = await open(file)
      expect(s.size).to.equal(0)
      expect(readdirSync(dir)).to.include('torn.corrupt-42.json')
      await s.close()
    })
  })
})
