// What a restore refuses, with nothing changed: a tampered file, one cut short, paths that leave the data
// folder in any spelling (zip-slip), a wrong passphrase; and the secrets: absent by default, sealed with the
// passphrase when asked, opened only with it.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'
import { craft, fileEntry, linesOf, manifestOf, relines } from './craft.js'
import { download, upload } from './support.js'

describe('backup: refused files and the secrets', function () {
  this.timeout(120_000)
  let s: TestServer
  before(async () => {
    s = await startTestServer()
    await s.api('/api/config', { method: 'PUT', json: { path: 'channels', value: [{ name: 'main', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-secret-value-5678', models: ['m1'] }] } })
  })
  after(() => s.close())

  const noChange = (): void => {
    expect(existsSync(join(s.dataDir, 'backups', 'restore-pending'))).to.equal(false)
    const kept = existsSync(join(s.dataDir, 'backups')) ? readdirSync(join(s.dataDir, 'backups')).filter((n) => n.startsWith('lingxi-pre-restore-')) : []
    expect(kept, 'no backup before a refused restore').to.deep.equal([])
  }

  it('a tampered or truncated file fails clearly and changes nothing', async () => {
    await s.lx.rt.need('conversations').store.append({ id: 'private:t1', userId: 't1' }, [{ role: 'user', content: 'original text', timestamp: 1 }])
    const bytes = await download(s)
    const lines = linesOf(bytes)
    const i = lines.findIndex((l) => l.includes('original text'))
    expect(i).to.be.greaterThan(0)
    const tampered = relines(lines.map((l, n) => n === i ? l.replace('original text', 'altered  text') : l))
    for (const path of ['/api/backup/preview', '/api/backup/restore']) {
      const r = await upload(s, path, tampered)
      expect(r.status, r.text).to.equal(400)
      expect(r.body.message).to.match(/^Not a valid backup file: its content does not match its checksum/)
    }
    const cut = await upload(s, '/api/backup/restore', bytes.subarray(0, Math.floor(bytes.length / 2)))
    expect(cut.status, cut.text).to.equal(400)
    expect(cut.body.message).to.match(/^Not a valid backup file/)
    const notGzip = await upload(s, '/api/backup/preview', Buffer.from('hello'))
    expect(notGzip.status).to.equal(400)
    noChange()
  })

  it('bounds uploads by backup.maxUploadMB (413) and wants multipart (415)', async () => {
    const set = await s.api('/api/config', { method: 'PUT', json: { path: 'backup.maxUploadMB', value: 1 } })
    expect(set.status, set.text).to.equal(200)
    const big = await upload(s, '/api/backup/preview', Buffer.alloc(2 * 1024 * 1024, 1))
    expect(big.status, big.text).to.equal(413)
    expect(big.body.message).to.match(/backup\.maxUploadMB/)
    const json = await s.api('/api/backup/restore', { method: 'POST', json: {} })
    expect(json.status).to.equal(415)
    await s.api('/api/config', { method: 'PUT', json: { path: 'backup.maxUploadMB', value: 1024 } })
    noChange()
  })

  it('refuses paths outside the data folder in every spelling (zip-slip)', async () => {
    const evil = ['../evil.txt', '../../etc/passwd', '/etc/passwd', 'a/../../evil', 'C:/Windows/evil', 'C:evil', '..\\evil', 'a\\..\\..\\evil', 'ok/./x', 'nul', 'aux.txt', 'a//b', 'x\u0000y', 'backups/lingxi-auto-20200101-000000.jsonl.gz', 'dots. ']
    for (const path of evil) {
      const file = craft(manifestOf({ other: { files: 1, records: 0, bytes: 4 } }), [fileEntry(path, 'evil')])
      const r = await upload(s, '/api/backup/restore', file)
      expect(r.status, `${JSON.stringify(path)}: ${r.text}`).to.equal(400)
      expect(r.body.message, path).to.match(/^Not a valid backup file: the file path .* is refused/)
    }
    // a file filed under another part than its path says, and a store the plugin does not have
    const wrongPart = craft(manifestOf({ config: { files: 1, records: 0, bytes: 4 } }), [fileEntry('notes.txt', 'evil', 'config')])
    expect((await upload(s, '/api/backup/restore', wrongPart)).body.message).to.match(/wrong part/)
    const strange = craft(manifestOf({ other: { files: 0, records: 0, bytes: 0 } }), [{ t: 'store', part: 'other', store: '../x', count: 0, meta: {} }])
    expect((await upload(s, '/api/backup/restore', strange)).body.message).to.match(/a store this plugin does not have/)
    expect(existsSync(join(s.dataDir, '..', 'evil.txt'))).to.equal(false)
    noChange()
  })

  it('leaves the secrets out by default; with includeSecrets they are sealed and open only with the passphrase', async () => {
    const plain = await download(s)
    expect(linesOf(plain).join('\n')).to.not.include('sk-secret-value-5678')
    expect((await s.api('/api/backup', { method: 'POST', json: { includeSecrets: true } })).status).to.equal(400) // no passphrase
    expect((await s.api('/api/backup', { method: 'POST', json: { includeSecrets: true, passphrase: 'short' } })).body.message).to.match(/at least 8/)

    const sealed = await download(s, { includeSecrets: true, passphrase: 'correct horse battery' })
    const text = linesOf(sealed).join('\n')
    expect(text).to.not.include('sk-secret-value-5678')
    expect(JSON.parse(linesOf(sealed)[0]!).secrets).to.equal(true)
    const shown = await upload(s, '/api/backup/preview', sealed)
    expect(shown.body.data).to.deep.include({ secrets: true, secretsOpened: false })
    const opened = await upload(s, '/api/backup/preview', sealed, { passphrase: 'correct horse battery' })
    expect(opened.body.data).to.deep.include({ secrets: true, secretsOpened: true })
    const wrong = await upload(s, '/api/backup/restore', sealed, { passphrase: 'wrong horse battery' })
    expect(wrong.status).to.equal(400)
    expect(wrong.body.message).to.match(/passphrase does not open/)
    noChange()

    // restored with the passphrase (config only), the key changed meanwhile comes back after the restart
    await s.api('/api/config', { method: 'PUT', json: { path: 'channels', value: [{ name: 'main', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-other-value-0000', models: ['m1'] }] } })
    const r = await upload(s, '/api/backup/restore', sealed, { passphrase: 'correct horse battery', parts: 'config' })
    expect(r.status, r.text).to.equal(202)
    expect(r.body.data.parts).to.deep.equal(['config'])
    const dataDir = s.dataDir
    await s.lx.stop()
    const again = await startTestServer({ dataDir })
    s = again
    expect(s.lx.rt.config.get().channels.map((c) => c.apiKey)).to.deep.equal(['sk-secret-value-5678'])
    // stats need the bot stopped
    const stats = await upload(s, '/api/backup/restore', sealed, { parts: 'stats' })
    expect(stats.status).to.equal(400)
    expect(stats.body.message).to.match(/npm run restore/)
  })
})
