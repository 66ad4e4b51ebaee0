// The migration command (scripts/storage-migrate.ts) run as the owner runs it, both ways on a real
// PostgreSQL: the counts printed match, the records come back equal, a non-empty target is refused
// without --force. And the schema migrations: two instances starting at once apply them once.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { JournalStore } from '../../lib/core/journal-store.js'
import { copyFromPostgres, copyToPostgres } from '../../lib/storage/copy.js'
import { PORTED_STORES } from '../../lib/storage/ported.js'
import { migrate } from '../../lib/storage/pg/migrate.js'
import { loadPg } from '../../lib/storage/pg/pool.js'
import { freshDatabase, postgresOrSkip } from '../support/postgres.js'

const ROOT = join(import.meta.dirname, '..', '..')
interface Conv { id: string; userId: string; createdAt: number; updatedAt: number; messages: Array<{ role: string; content: string; timestamp: number }> }

async function runMigrate (...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'storage-migrate.ts'), ...args], { cwd: ROOT })
    return { code: 0, out: stdout + stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return { code: e.code ?? 1, out: (e.stdout ?? '') + (e.stderr ?? '') }
  }
}

interface Mem { id: number; userId: string; content: string; category: string; updatedAt: number }
const memory = (i: number): Mem => ({ id: i + 1, userId: `u${i % 4}`, content: `fact ${i} 事实`, category: 'custom', updatedAt: i })

const conversation = (i: number): Conv => ({ id: `private:u${i}`, userId: `u${i}`, createdAt: i, updatedAt: i * 10, messages: [{ role: 'user', content: `hi ${i} 你好`, timestamp: i }] })

describe('storage: the migration command (npm run storage:migrate)', function () {
  this.timeout(180_000) // a child process through tsx is slow on a loaded machine
  let url: string
  const dirs: string[] = []
  const tempDir = (): string => { const d = mkdtempSync(join(tmpdir(), 'lingxi-migrate-')); dirs.push(d); return d }
  before(async function () { url = await postgresOrSkip(this) })
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

  it('copies the files into PostgreSQL and back with equal counts, refusing a non-empty target without --force', async () => {
    const source = tempDir()
    const files = await JournalStore.open<Conv, string>(join(source, 'conversations.json'), { key: (c) => c.id })
    await files.putMany(Array.from({ length: 25 }, (_, i) => conversation(i)))
    await files.appendTo('private:u3', 'messages', [{ role: 'assistant', content: 'echo', timestamp: 4 }])
    await files.close()
    // the memories (lib/memory/service.ts): numeric ids, and the meta nextId copied with them
    const mems = await JournalStore.open<Mem, number, { nextId: number }>(join(source, 'memories.json'), { key: (m) => m.id, meta: { nextId: 1 } })
    await mems.putMany(Array.from({ length: 12 }, (_, i) => memory(i)))
    await mems.setMeta({ nextId: 13 })
    await mems.delete(5)
    await mems.close()

    const to = await runMigrate('--to', url, '--data', source)
    expect(to.code, to.out).to.equal(0)
    expect(to.out).to.include('conversations: read 25, written 25').and.include('memories: read 11, written 11').and.include('the counts match')

    // the refusals and --force in-process (the command is a thin wrapper of copy.ts): a child per run is slow
    let refusal = ''
    await copyToPostgres(source, url).catch((err: Error) => { refusal = err.message })
    expect(refusal).to.include('already holds records of conversations (25)').and.include('--force')
    const forced = await copyToPostgres(source, url, { force: true })
    // every ported store is copied (empty ones too), each with as many written as read
    expect(forced.map((c) => c.store)).to.deep.equal(PORTED_STORES.map((s) => s.name))
    expect(forced).to.deep.include({ store: 'conversations', read: 25, written: 25 }).and.deep.include({ store: 'memories', read: 11, written: 11 })
    for (const c of forced) expect(c.written, c.store).to.equal(c.read)

    const back = tempDir()
    const from = await runMigrate('--from', url, '--data', back)
    expect(from.code, from.out).to.equal(0)
    expect(from.out).to.include('conversations: read 25, written 25').and.include('memories: read 11, written 11')
    const a = await JournalStore.open<Conv, string>(join(source, 'conversations.json'), { key: (c) => c.id })
    const b = await JournalStore.open<Conv, string>(join(back, 'conversations.json'), { key: (c) => c.id })
    try {
      expect(b.size).to.equal(25)
      for (const c of a.values()) expect(b.get(c.id)).to.deep.equal(c)
    } finally { await a.close(); await b.close() }
    const ma = await JournalStore.open<Mem, number, { nextId: number }>(join(source, 'memories.json'), { key: (m) => m.id, meta: { nextId: 1 } })
    const mb = await JournalStore.open<Mem, number, { nextId: number }>(join(back, 'memories.json'), { key: (m) => m.id, meta: { nextId: 1 } })
    try {
      expect(mb.size).to.equal(11)
      expect(mb.meta.nextId).to.equal(13)
      expect(mb.has(5)).to.equal(false)
      for (const m of ma.values()) expect(mb.get(m.id)).to.deep.equal(m)
    } finally { await ma.close(); await mb.close() }

    refusal = ''
    await copyFromPostgres(url, back).catch((err: Error) => { refusal = err.message })
    expect(refusal).to.include('already holds records of conversations (25), memories (11)')
  })

  it('says what is wrong, without the password, when the server cannot be reached', async () => {
    const r = await runMigrate('--to', 'postgres://lingxi:hunter2-secret@127.0.0.1:1/lingxi', '--data', tempDir())
    expect(r.code).to.equal(1)
    expect(r.out).to.include('Cannot reach the PostgreSQL server at lingxi@127.0.0.1:1/lingxi').and.not.include('hunter2')
  })

  it('two instances migrating one new database at once apply each migration once', async () => {
    const db = await freshDatabase(url)
    const pg = await loadPg()
    const pools = [new pg.Pool({ connectionString: db }), new pg.Pool({ connectionString: db })]
    try {
      const [one, two] = await Promise.all(pools.map((p) => migrate(p)))
      // the migration files of the repository, each applied by one of the two
      const files = readdirSync(join(import.meta.dirname, '..', '..', 'lib', 'storage', 'pg', 'migrations')).filter((f) => f.endsWith('.sql')).map((f) => f.slice(0, -4)).sort()
      expect(files).to.include('001_records')
      expect([...one!, ...two!].sort()).to.deep.equal(files)
      const { rows } = await pools[0]!.query<{ id: string }>('SELECT id FROM lx_migrations ORDER BY id')
      expect(rows.map((r) => r.id)).to.deep.equal(files)
      expect(await migrate(pools[1]!)).to.deep.equal([])
    } finally { await Promise.all(pools.map((p) => p.end())) }
  })
})
