// lib/core/store.ts: atomic JSON stores, corrupt files moved aside, concurrent updates.
import { expect } from 'chai'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../lib/core/store.js'

describe('Store', () => {
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-store-')) })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('starts from defaults and persists updates', async () => {
    const file = join(dir, 'a.json')
    const s = await Store.open(file, { items: [] as number[], name: 'x' })
    await s.update((d) => { d.items.push(1, 2) })
    expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal({ items: [1, 2], name: 'x' })
    const again = await Store.open(file, { items: [] as number[], name: 'x', added: true })
    expect(again.data).to.deep.equal({ items: [1, 2], name: 'x', added: true })
  })

  it('moves a corrupt file aside and starts from defaults, never overwriting it', async () => {
    const file = join(dir, 'b.json')
    writeFileSync(file, '{"items": [1, 2,')
    const s = await Store.open(file, { items: [] as number[] }, { now: () => 1234 })
    expect(s.data).to.deep.equal({ items: [] })
    expect(readFileSync(join(dir, 'b.corrupt-1234.json'), 'utf8')).to.equal('{"items": [1, 2,')
    expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal({ items: [] })
  })

  it('concurrent updates all land (coalesced writes, no lost update)', async () => {
    const file = join(dir, 'c.json')
    const s = await Store.open(file, { n: [] as number[] })
    await Promise.all(Array.from({ length: 200 }, (_, i) => s.update((d) => { d.n.push(i) })))
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { n: number[] }
    expect(onDisk.n).to.have.length(200)
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([])
    expect(existsSync(file)).to.equal(true)
  })
})
