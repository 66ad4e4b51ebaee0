// Private files in the data folder, with real files in temp folders and the started plugin (README,
// "Security model"): what the plugin writes is 0600 in 0700 folders whatever the umask, looser modes
// are tightened at start, temp files left by a crashed writer are removed, and symlinks planted in the
// data folder are never followed: the target stays unchanged and unread, the plugin keeps running.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { appendPrivateFile, prepareDataFolders, readPrivateFile, UnsafeFileError, writePrivateFile } from '../../lib/core/private-file.js'
import { startTestServer, type TestServer } from '../support/server.js'

const POSIX = process.platform !== 'win32'

/** Every entry under dir (not following links) with its permission bits. */
function modes (dir: string, base = dir): Array<{ path: string; kind: 'file' | 'dir' | 'link'; mode: number }> {
  const out: Array<{ path: string; kind: 'file' | 'dir' | 'link'; mode: number }> = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const st = lstatSync(p)
    const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file'
    out.push({ path: p.slice(base.length + 1), kind, mode: st.mode & 0o777 })
    if (kind === 'dir') out.push(...modes(p, base))
  }
  return out
}

describe('security: private files in the data folder', function () {
  this.timeout(60_000)
  let umask: number
  const temps: string[] = []
  const tempDir = (tag: string): string => { const d = mkdtempSync(join(tmpdir(), `lingxi-files-${tag}-`)); temps.push(d); return d }

  before(function () {
    if (!POSIX) this.skip() // file modes and O_NOFOLLOW are POSIX; Windows uses ACLs
    umask = process.umask(0o022) // the common default: without the plugin's care files would be 0644
  })
  after(() => {
    if (POSIX) process.umask(umask)
    for (const d of temps) rmSync(d, { recursive: true, force: true })
  })

  describe('the helper (lib/core/private-file.ts)', () => {
    it('writes 0600 files atomically and replaces a planted symlink instead of writing through it', async () => {
      const dir = tempDir('helper')
      const outside = join(tempDir('outside'), 'victim.txt')
      writeFileSync(outside, 'original')
      symlinkSync(outside, join(dir, 'store.json'))
      await writePrivateFile(join(dir, 'store.json'), '{"a":1}')
      expect(readFileSync(outside, 'utf8')).to.equal('original')
      expect(lstatSync(join(dir, 'store.json')).isSymbolicLink()).to.equal(false)
      expect(statSync(join(dir, 'store.json')).mode & 0o777).to.equal(0o600)
      expect(readdirSync(dir)).to.deep.equal(['store.json']) // no temp file left behind
    })

    it('refuses to read or append through a symlink', async () => {
      const dir = tempDir('helper')
      const outside = join(tempDir('outside'), 'victim.txt')
      writeFileSync(outside, 'original')
      symlinkSync(outside, join(dir, 'x.jsonl'))
      let readErr: unknown
      try { await readPrivateFile(join(dir, 'x.jsonl')) } catch (err) { readErr = err }
      expect(readErr).to.be.instanceOf(UnsafeFileError)
      let appendErr: unknown
      try { await appendPrivateFile(join(dir, 'x.jsonl'), 'appended\n') } catch (err) { appendErr = err }
      expect(appendErr).to.be.instanceOf(UnsafeFileError)
      expect(readFileSync(outside, 'utf8')).to.equal('original')
      expect(await readPrivateFile(join(dir, 'absent.json'))).to.equal(undefined)
    })

    it('refuses a FIFO planted as a data file at once (no blocking open)', async function () {
      const dir = tempDir('helper')
      try { execFileSync('mkfifo', [join(dir, 'fifo.json')]) } catch { this.skip() }
      let err: unknown
      try { await readPrivateFile(join(dir, 'fifo.json')) } catch (e) { err = e }
      expect(err).to.be.instanceOf(UnsafeFileError)
      err = undefined
      try { await appendPrivateFile(join(dir, 'fifo.json'), 'x') } catch (e) { err = e }
      expect(err).to.be.instanceOf(UnsafeFileError)
    })

    it('appends to new files as 0600 and tightens an existing looser one', async () => {
      const dir = tempDir('helper')
      await appendPrivateFile(join(dir, 'a.log'), 'one\n')
      writeFileSync(join(dir, 'b.log'), 'x\n', { mode: 0o644 })
      chmodSync(join(dir, 'b.log'), 0o644)
      await appendPrivateFile(join(dir, 'b.log'), 'two\n')
      expect(statSync(join(dir, 'a.log')).mode & 0o777).to.equal(0o600)
      expect(statSync(join(dir, 'b.log')).mode & 0o777).to.equal(0o600)
      expect(readFileSync(join(dir, 'b.log'), 'utf8')).to.equal('x\ntwo\n')
    })

    it('at start removes temp files of dead writers only and reports symlinks without following them', async () => {
      const dir = tempDir('prep')
      const live = `.memories.json.${process.pid}.0123abcd.tmp`
      for (const f of ['.stats.json.tmp', '.presets.json.99999999.deadbeef.tmp', 'stats.json.99999999.exit.tmp', live]) writeFileSync(join(dir, f), 'partial')
      mkdirSync(join(dir, 'stats-days'), { mode: 0o755 })
      chmodSync(join(dir, 'stats-days'), 0o755)
      writeFileSync(join(dir, 'stats-days', '.2026-01.json.tmp'), 'partial')
      const outside = tempDir('outside')
      chmodSync(outside, 0o755)
      symlinkSync(outside, join(dir, 'linked'))
      const r = await prepareDataFolders(dir)
      expect(readdirSync(dir).sort()).to.deep.equal([live, 'linked', 'stats-days'].sort())
      expect(readdirSync(join(dir, 'stats-days'))).to.deep.equal([])
      expect(r.links).to.deep.equal([join(dir, 'linked')])
      expect(statSync(join(dir, 'stats-days')).mode & 0o777).to.equal(0o700)
      expect(statSync(outside).mode & 0o777).to.equal(0o755) // the link's target is not touched
    })
  })

  describe('the started plugin', () => {
    let s: TestServer | undefined
    let dataDir: string
    let outsideDir: string
    const planted = {
      journal: { user: 'planted-user', line: '' },
      custom: '',
      secret: 'planted-secret-'.padEnd(64, 'x'),
      log: 'planted log target\n',
      config: 'web:\n  loginRateLimit: 999\n'
    }
    const targets = { journal: '', custom: '', secret: '', log: '', config: '' }
    const day = new Date().toISOString().slice(0, 10)

    before(async () => {
      dataDir = tempDir('data')
      outsideDir = tempDir('outside')
      // Left from an earlier run: loose modes, temp files of crashed writers.
      writeFileSync(join(dataDir, 'stats.json'), '{}', { mode: 0o644 })
      chmodSync(join(dataDir, 'stats.json'), 0o644)
      chmodSync(dataDir, 0o755)
      // read at start but not rewritten: only the start-up pass makes it private
      writeFileSync(join(dataDir, 'drawing.json'), '{}')
      chmodSync(join(dataDir, 'drawing.json'), 0o644)
      mkdirSync(join(dataDir, 'stats-days'), { mode: 0o755 })
      chmodSync(join(dataDir, 'stats-days'), 0o755)
      writeFileSync(join(dataDir, '.config.yaml.99999999.tmp'), 'web: {')
      writeFileSync(join(dataDir, '.stats.json.tmp'), '{"half')
      // Symlinks planted in place of the plugin's files, pointing at files the attacker wants read or changed.
      planted.journal.line = JSON.stringify({ p: { id: 999, userId: planted.journal.user, content: 'read-through-the-link', category: 'custom', subType: '', confidence: 1, groupId: '', metadata: {}, source: 'manual', createdAt: 1, updatedAt: 1 } }) + '\n'
      planted.custom = JSON.stringify({ tools: [{ name: 'planted_tool', description: 'planted', action: { type: 'text', text: 'x' } }] })
      for (const [k, content] of [['journal', planted.journal.line], ['custom', planted.custom], ['secret', planted.secret], ['log', planted.log]] as const) {
        targets[k] = join(outsideDir, `${k}.target`)
        writeFileSync(targets[k], content)
      }
      symlinkSync(targets.journal, join(dataDir, 'memories.journal.jsonl'))
      targets.config = join(outsideDir, 'config.target')
      writeFileSync(targets.config, planted.config)
      symlinkSync(targets.config, join(dataDir, 'config.yaml'))
      // Folders too: a linked scripts folder would run (and list) the attacker's scripts.
      const outsideTools = join(outsideDir, 'tools')
      mkdirSync(outsideTools)
      writeFileSync(join(outsideTools, 'planted_script.js'), 'export const description = "planted"\nexport async function execute () { return "pwned" }\n')
      symlinkSync(outsideTools, join(dataDir, 'tools'))
      symlinkSync(targets.custom, join(dataDir, 'custom-tools.json'))
      symlinkSync(targets.secret, join(dataDir, 'jwt-secret'))
      mkdirSync(join(dataDir, 'logs'))
      symlinkSync(targets.log, join(dataDir, 'logs', `lingxi-${day}.log`))
      s = await startTestServer({ dataDir })
    })
    after(async () => { await s?.close() })

    it('starts (nothing planted crashes it) and removes the temp files of crashed writers', async () => {
      expect(s).to.not.equal(undefined)
      expect((await s!.api('/api/system/health')).status).to.equal(200)
      expect(existsSync(join(dataDir, '.config.yaml.99999999.tmp'))).to.equal(false)
      expect(existsSync(join(dataDir, '.stats.json.tmp'))).to.equal(false)
    })

    it('never reads through a planted symlink: memories, custom tools and the session secret ignore the targets', async () => {
      const rt = s!.lx.rt
      expect(rt.sessions.secret).to.not.equal(planted.secret)
      const mem = await s!.api(`/api/memory/user/${planted.journal.user}`)
      expect(mem.text).to.not.include('read-through-the-link')
      const custom = await s!.api('/api/tools/custom')
      expect(custom.status).to.equal(200)
      expect(custom.text).to.not.include('planted_tool')
      expect(rt.config.get().web.loginRateLimit).to.not.equal(999) // config.yaml read through the link
      const scripts = await s!.api('/api/tools/js')
      expect(scripts.status).to.equal(200)
      expect(scripts.text).to.not.include('planted_script')
      expect(readdirSync(join(outsideDir, 'tools'))).to.deep.equal(['planted_script.js'])
      // The links were moved aside (the link itself), the real files are plugin-owned now.
      for (const f of ['memories.journal.jsonl', 'custom-tools.json', 'jwt-secret', 'tools']) {
        expect(lstatSync(join(dataDir, f)).isSymbolicLink(), f).to.equal(false)
      }
      const errors = rt.log.errors(100).map((e) => e.error).join('\n')
      expect(errors).to.match(/memories\.journal\.jsonl refused/)
      expect(errors).to.match(/custom-tools\.json refused/)
      expect(errors).to.match(/jwt-secret refused/)
    })

    it('never writes through a planted symlink: appends and log lines leave the targets unchanged', async () => {
      const add = await s!.api('/api/memory', { method: 'POST', json: { userId: 'u-files', content: 'likes tea' } })
      expect(add.status).to.equal(201)
      const tool = await s!.api('/api/tools/custom', { method: 'POST', json: { name: 'files_tool', description: 'x', action: { type: 'text', text: 'hi' } } })
      expect(tool.status).to.equal(201)
      s!.lx.rt.log.warn('a log line after start')
      await s!.lx.rt.log.flush()
      expect(readFileSync(targets.journal, 'utf8')).to.equal(planted.journal.line)
      expect(readFileSync(targets.custom, 'utf8')).to.equal(planted.custom)
      expect(readFileSync(targets.secret, 'utf8')).to.equal(planted.secret)
      expect(readFileSync(targets.log, 'utf8')).to.equal(planted.log)
      await s!.lx.rt.config.update({ web: { loginRateLimit: 12 } })
      expect(readFileSync(targets.config, 'utf8')).to.equal(planted.config)
      expect(lstatSync(join(dataDir, 'config.yaml')).isSymbolicLink()).to.equal(false)
      expect(readFileSync(join(dataDir, 'memories.journal.jsonl'), 'utf8')).to.include('likes tea')
    })

    it('leaves every file 0600 and every folder 0700 after a start and writes of each kind', async () => {
      const rt = s!.lx.rt
      await rt.config.update({ web: { loginRateLimit: 11 } }) // config.yaml
      const issued = rt.sessions.issue('10001', true)
      await rt.sessions.revoke({ jti: issued.jti, exp: Math.floor(issued.expiresAt / 1000) }) // sessions.json
      rt.stats.recordMessage({ userId: 'u-files', groupId: 'g-files' })
      await rt.stats.flush() // stats.json, stats-days/
      const script = await s!.api('/api/tools/js', { method: 'POST', json: { name: 'files_script.js', source: 'export const description = "x"\nexport async function execute () { return "ok" }\n' } })
      expect(script.status).to.equal(201) // data/tools/ and script-tools.json
      await rt.log.flush()
      const list = modes(dataDir)
      expect(list.map((e) => e.path)).to.include.members(['config.yaml', 'drawing.json', 'sessions.json', 'stats.json', 'custom-tools.json', 'jwt-secret', 'memories.journal.jsonl', join('tools', 'files_script.js')])
      expect(statSync(dataDir).mode & 0o777).to.equal(0o700)
      const loose = list.filter((e) => e.kind !== 'link' && e.mode !== (e.kind === 'dir' ? 0o700 : 0o600))
      expect(loose, JSON.stringify(loose)).to.deep.equal([])
      expect(readdirSync(join(outsideDir, 'tools'))).to.deep.equal(['planted_script.js']) // the new script went into a real folder
    })
  })
})
