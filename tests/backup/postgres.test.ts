// With PostgreSQL: the backup holds the database's records (read through the storage port, the same entries
// as from the files) and a restore writes them back into the database; the plugin restarted on it answers
// with everything again. Skipped, saying why, without a PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { postgresOrSkip } from '../support/postgres.js'
import { withDatabase } from '../support/shared-instances.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { linesOf } from './craft.js'
import { ALL_SEEN, download, seed, seen, upload } from './support.js'

describe('backup: with PostgreSQL', function () {
  this.timeout(120_000)
  let url: string
  let dataDir: string
  let s: TestServer | undefined
  before(async function () {
    url = await postgresOrSkip(this)
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-backup-pg-'))
    s = await withDatabase(url, () => startTestServer({ dataDir, keepData: true }))
  })
  after(async () => {
    await s?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('backs up the database\'s records and restores them into it', async () => {
    await seed(s!)
    const bytes = await download(s!)
    const lines = linesOf(bytes)
    const manifest = JSON.parse(lines[0]!)
    expect(manifest.engine).to.equal('postgres')
    expect(manifest.parts.conversations.records).to.equal(1)
    expect(lines.some((l) => l.includes('"t":"records","part":"conversations"') && l.includes('remember the backup'))).to.equal(true)

    await s!.api('/api/conversations/private:b1', { method: 'DELETE' })
    await s!.api('/api/presets/backup-persona', { method: 'DELETE' })
    const tasks = (await s!.api('/api/tasks')).body.data as Array<{ id: string }>
    for (const t of tasks) await s!.api(`/api/tasks/${t.id}`, { method: 'DELETE' })
    const gone = await seen(s!)
    expect([gone.conversation, gone.preset, gone.task]).to.deep.equal([false, false, false])

    const r = await upload(s!, '/api/backup/restore', bytes)
    expect(r.status, r.text).to.equal(202)
    await s!.close()
    s = await withDatabase(url, () => startTestServer({ dataDir, keepData: true }))
    expect(await seen(s)).to.deep.equal(ALL_SEEN)
    // in the database itself, not only in this instance's memory: a second instance on it sees them
    const other = await withDatabase(url, () => startTestServer())
    try {
      expect(await seen(other)).to.deep.include({ conversation: true, preset: true, task: true, memory: true })
    } finally { await other.close() }
  })
})
