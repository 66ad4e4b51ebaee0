// lib/core/journal-store.ts: snapshot + append-only journal; acked writes survive kill -9.
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { JournalStore, journalPath } from '../../lib/core/journal-store.js'

interface Rec { id: number; text: string }
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

  it('folds the journal into the snapshot when it grows, and on close', async () => {
    const file = join(dir, 'c.json')
    const s = await open(file, 10)
    for (let i = 1; i <= 25; i++) await s.put({ id: i, text: `t${i}` })
    const snap = JSON.parse(readFileSync(file, 'utf8')) as { records: Rec[] }
    expect(snap.records.length).to.be.at.least(20)
    expect(readFileSync(journalPath(file), 'utf8').trim().split('\n').length).to.be.below(10)
    await s.close()
    expect((JSON.parse(readFileSync(file, 'utf8')) as { records: Rec[] }).records).to.have.length(25)
    expect(readFileSync(journalPath(file), 'utf8')).to.equal('')
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
})
