// The automatic backups on the runtime clock (a fake one: a day passes in a tick) with their retention,
// and the terminal commands once each: `npm run backup` of one data folder, `npm run restore` into an empty
// one, which the plugin then starts on with everything seeded.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'chai'
import { backupDeps } from '../../lib/backup/index.js'
import { BackupService } from '../../lib/backup/service.js'
import { instanceClock } from '../support/shared-instances.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { ALL_SEEN, seed, seen } from './support.js'

const run = promisify(execFile)
const DAY = 24 * 3600_000

async function until (what: string, ok: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not reached within 10 s: ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('backup: the schedule, retention and the terminal commands', function () {
  this.timeout(180_000)
  const dirs: string[] = []
  const tmp = (): string => { const d = mkdtempSync(join(tmpdir(), 'lingxi-bk-')); dirs.push(d); return d }
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })

  it('makes a backup every day at backup.schedule on the runtime clock and keeps backup.keep of them', async () => {
    const s: TestServer = await startTestServer()
    const { fake, clock } = instanceClock(new Date(2026, 0, 10, 12, 0, 0).getTime())
    const settings = { schedule: '04:30', keep: 2, maxUploadMB: 64 }
    const svc = new BackupService({ ...backupDeps(s.lx.rt), clock, now: () => clock.now(), settings: () => settings })
    try {
      svc.schedule()
      expect(await svc.list()).to.deep.equal([])
      await fake.tickAsync(16 * 3600_000 + 29 * 60_000) // 04:29 the next day: not yet
      expect(await svc.list()).to.deep.equal([])
      await fake.tickAsync(60_000)
      await until('the first automatic backup', async () => (await svc.list()).length === 1)
      await until('the next one scheduled', async () => fake.countTimers() > 0)
      const first = (await svc.list())[0]!
      expect(first.kind).to.equal('auto')
      expect(first.createdAt).to.equal(new Date(2026, 0, 11, 4, 30).toISOString().replace(/\.\d{3}Z$/, 'Z'))
      for (let d = 2; d <= 3; d++) {
        await fake.tickAsync(DAY)
        await until(`backup ${d}`, async () => (await svc.list()).some((b) => b.createdAt.startsWith(new Date(2026, 0, 10 + d, 4, 30).toISOString().slice(0, 16))))
        await until('the next one scheduled', async () => fake.countTimers() > 0)
      }
      const kept = await svc.list()
      expect(kept.map((b) => b.createdAt)).to.deep.equal([12, 13].reverse().map((day) => new Date(2026, 0, day, 4, 30).toISOString().replace(/\.\d{3}Z$/, 'Z')))
      settings.schedule = ''
      svc.schedule()
      await fake.tickAsync(2 * DAY)
      expect((await svc.list()).length).to.equal(2)
    } finally {
      await svc.stop()
      fake.restore()
      await s.close()
    }
  })

  it('npm run backup, then npm run restore into an empty data folder: the plugin starts with everything', async () => {
    const from = tmp()
    const s = await startTestServer({ dataDir: from, keepData: true })
    await seed(s)
    await s.close()
    const file = join(tmp(), 'cli.jsonl.gz')
    const tsx = ['--import', 'tsx']
    const made = await run(process.execPath, [...tsx, 'scripts/backup.ts', '--out', file], { env: { ...process.env, LINGXI_DATA_DIR: from } })
    expect(made.stdout).to.include(`Backup written: ${file}`)
    expect(made.stdout).to.match(/conversations: 0 files, 1 records/)

    const to = tmp()
    const restored = await run(process.execPath, [...tsx, 'scripts/restore.ts', file], { env: { ...process.env, LINGXI_DATA_DIR: to } })
    expect(restored.stdout).to.match(/The state before was backed up: lingxi-pre-restore-/)
    expect(restored.stdout).to.match(/Restored .*conversations.*config: \d+ files, \d+ records/)
    const t = await startTestServer({ dataDir: to })
    try {
      expect(await seen(t)).to.deep.equal(ALL_SEEN)
    } finally { await t.close() }
  })
})
