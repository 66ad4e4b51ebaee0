// A full backup through the test server: seeded data (a conversation, a memory, a knowledge document, a
// preset, a task, a reminder) backed up, changed and deleted, restored; after the restart the plugin
// answers with all of it again. The automatic backup before the restore is kept; secrets are out by
// default and only opened with the passphrase.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'
import { ALL_SEEN, download, seed, seen, upload } from './support.js'

describe('backup: a full backup restored into the running plugin', function () {
  this.timeout(120_000)
  let dataDir: string
  let s: TestServer | undefined
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-backup-'))
    s = await startTestServer({ dataDir, keepData: true })
  })
  after(async () => {
    await s?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('backs up, restores after changes and deletions, and the plugin answers with everything again', async () => {
    await seed(s!)
    expect(await seen(s!)).to.deep.equal(ALL_SEEN)
    await s!.api('/api/config', { method: 'PUT', json: { path: 'channels', value: [{ name: 'main', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-secret-value-1234', models: ['m1'] }] } })
    const bytes = await download(s!)
    const lines = gunzipSync(bytes).toString('utf8').trim().split('\n')
    const manifest = JSON.parse(lines[0]!)
    expect(manifest).to.include({ format: 'lingxi-backup', version: 1, secrets: false, kind: 'manual', engine: 'files' })
    expect(manifest.parts.conversations.records).to.equal(1)
    expect(manifest.parts.presets.records).to.be.greaterThan(0)
    expect(bytes.toString('latin1')).to.not.include('sk-secret-value-1234')
    expect(gunzipSync(bytes).toString('utf8')).to.not.include('sk-secret-value-1234')

    const preview = await upload(s!, '/api/backup/preview', bytes)
    expect(preview.status, preview.text).to.equal(200)
    expect(preview.body.data).to.deep.include({ secrets: false, secretsOpened: false })
    expect(preview.body.data.parts).to.include.members(['conversations', 'memories', 'knowledge', 'presets', 'tasks', 'reminders', 'config'])

    // change and delete
    await s!.api('/api/conversations/private:b1', { method: 'DELETE' })
    await s!.api('/api/presets/backup-persona', { method: 'DELETE' })
    const docs = (await s!.api('/api/knowledge?limit=100')).body.data as Array<{ id: string }>
    for (const d of docs) await s!.api(`/api/knowledge/${d.id}`, { method: 'DELETE' })
    const tasks = (await s!.api('/api/tasks')).body.data as Array<{ id: string }>
    for (const t of tasks) await s!.api(`/api/tasks/${t.id}`, { method: 'DELETE' })
    for (const r of s!.lx.rt.need('reminders').list({ userId: 'b1' })) await s!.lx.rt.need('reminders').cancel(r.id, { userId: 'b1', isMaster: true })
    await s!.lx.rt.need('memory').clearUser('b1', true)
    expect(Object.values(await seen(s!)).some(Boolean), 'everything seeded is gone').to.equal(false)

    const restored = await upload(s!, '/api/backup/restore', bytes)
    expect(restored.status, restored.text).to.equal(202)
    expect(restored.body.data.restartNeeded).to.equal(true)
    expect(restored.body.data.parts).to.not.include('stats')
    const before = restored.body.data.before as string
    expect(existsSync(join(dataDir, 'backups', before))).to.equal(true)
    const list = (await s!.api('/api/backup/list')).body.data as Array<{ name: string; kind: string }>
    expect(list.map((b) => b.name)).to.include(before)
    const kept = await fetch(`${s!.base}/api/backup/${before}`, { headers: { Authorization: `Bearer ${s!.token}` } })
    expect(kept.status).to.equal(200)

    await s!.close()
    s = await startTestServer({ dataDir, keepData: true })
    expect(await seen(s)).to.deep.equal(ALL_SEEN)
    expect(s.lx.rt.config.get().channels.map((c) => c.apiKey)).to.deep.equal(['sk-secret-value-1234']) // the key in use is kept
  })
})
