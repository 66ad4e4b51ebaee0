// Two instances on one PostgreSQL (lib/storage/README.md, "Changes of other instances"): each sees the
// other's changes within 2 s (waiting for the onRemote call, never sleeping), concurrent appends to one
// record both land, a lost listening connection is re-opened and the store re-read, and a writer killed
// with SIGKILL loses nothing it reported acknowledged.
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { PgRecordStore } from '../../lib/storage/pg/record-store.js'
import { loadPg } from '../../lib/storage/pg/pool.js'
import { postgresOrSkip } from '../support/postgres.js'

interface Rec { id: string; name: string; items?: number[] }
type Store = PgRecordStore<Rec, string>

/** Resolves at the first onRemote call of `store` for which `done` holds; fails after `ms`. */
function remoteChange (store: Store, done: (key: string, rec: Rec | undefined) => boolean, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { off(); reject(new Error(`no matching remote change within ${ms} ms`)) }, ms)
    const off = store.onRemote((key, rec) => {
      if (!done(key, rec)) return
      clearTimeout(timer)
      off()
      resolve()
    })
  })
}

describe('storage: two instances on one PostgreSQL', () => {
  let url: string
  let a: Store
  let b: Store
  before(async function () { url = await postgresOrSkip(this) })
  beforeEach(async () => {
    a = await PgRecordStore.open<Rec, string>(url, 'shared', { key: (r) => r.id })
    b = await PgRecordStore.open<Rec, string>(url, 'shared', { key: (r) => r.id })
    await a.clear()
    await b.idle()
  })
  afterEach(async () => { await a?.close(); await b?.close() })

  it('a put, a patch, an append and a delete of one instance reach the other within 2 s', async () => {
    let seen = remoteChange(b, (k, r) => k === 'x' && r?.name === 'X')
    await a.put({ id: 'x', name: 'X' })
    await seen
    expect(b.get('x')).to.deep.equal({ id: 'x', name: 'X' })

    seen = remoteChange(b, (k, r) => k === 'x' && r?.items?.length === 2)
    await a.appendTo('x', 'items', [1, 2])
    await seen
    seen = remoteChange(b, (k, r) => k === 'x' && r?.name === 'Y')
    await a.patch('x', { name: 'Y' })
    await seen
    expect(b.get('x')).to.deep.equal({ id: 'x', name: 'Y', items: [1, 2] })

    seen = remoteChange(a, (k, r) => k === 'x' && r === undefined)
    await b.delete('x')
    await seen
    expect(a.has('x')).to.equal(false)
  })

  it('its own changes are not reported back to the writer', async () => {
    let own = 0
    a.onRemote(() => { own++ })
    const seen = remoteChange(b, (k) => k === 'z')
    await a.put({ id: 'q', name: 'Q' })
    await a.put({ id: 'z', name: 'Z' })
    await seen
    await a.idle()
    expect(own).to.equal(0)
  })

  it('appends of both instances to one record at once all land, on both', async () => {
    await a.put({ id: 'c', name: 'C', items: [] })
    await remoteChange(b, (k) => k === 'c').catch(() => undefined)
    const both = (s: Store): boolean => (s.get('c')?.items?.length ?? 0) === 20
    const aDone = new Promise<void>((resolve) => { const off = a.onRemote(() => { if (both(a)) { off(); resolve() } }) })
    const bDone = new Promise<void>((resolve) => { const off = b.onRemote(() => { if (both(b)) { off(); resolve() } }) })
    const writes: Array<Promise<boolean>> = []
    for (let i = 0; i < 10; i++) writes.push(a.appendTo('c', 'items', [i]), b.appendTo('c', 'items', [100 + i]))
    await Promise.all(writes)
    await a.idle()
    await b.idle()
    await Promise.all([both(a) ? undefined : aDone, both(b) ? undefined : bDone])
    expect([...(a.get('c')?.items ?? [])].sort((x, y) => x - y)).to.deep.equal([...(b.get('c')?.items ?? [])].sort((x, y) => x - y))
    expect(a.get('c')?.items).to.have.length(20)
  })

  it('a clear and a big batch reach the other instance', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ id: `m${i}`, name: String(i) }))
    const seen = remoteChange(b, () => b.size === 100, 5000)
    await a.putMany(many)
    await seen
    const cleared = remoteChange(b, () => b.size === 0)
    await a.clear()
    await cleared
  })

  it('after the listening connection is lost, it reconnects and re-reads the store', async () => {
    const pg = await loadPg()
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      const seen = remoteChange(b, (k, r) => k === 'after' && r?.name === 'A', 5000)
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN lx_changes' AND datname = current_database()`)
      await a.put({ id: 'after', name: 'A' })
      await seen
    } finally { await admin.end() }
  })
})

describe('storage: a PostgreSQL writer killed with SIGKILL', () => {
  let url: string
  before(async function () { url = await postgresOrSkip(this) })

  it('loses nothing it reported acknowledged', async function () {
    this.timeout(180_000) // two child processes through tsx: slow on a loaded machine
    const acked = new Set<number>()
    for (let round = 0; round < 2; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/pg-writer.ts', import.meta.url)), url, String(round * 100_000 + 1)], { stdio: ['ignore', 'pipe', 'inherit'] })
      let buf = ''
      const target = acked.size + 200
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
    }
    const s = await PgRecordStore.open<{ id: number; text: string; items?: number[] }, number>(url, 'killed', { key: (r) => r.id })
    try {
      const lost = [...acked].filter((id) => s.get(id)?.text !== `record ${id}` || s.get(id)?.items?.[0] !== id)
      expect(lost, 'acknowledged but lost').to.deep.equal([])
      expect(acked.size).to.be.at.least(400)
    } finally { await s.close() }
  })
})
