// lib/update against real git: the version of a checkout, the remote check, and the update itself
// (fast-forward, refusals, the forced reset, the install when the packages changed), in temp repositories.
import { expect } from 'chai'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { missingDependencies } from '../../boot/deps.mjs'
import { git } from '../../lib/update/git.js'
import { updatePlugin } from '../../lib/update/updater.js'
import { checkRemote, UpdateRefused, versionInfo } from '../../lib/update/version.js'
import { gitFixture, gitIn, type GitFixture } from './git-fixture.js'

const now = (): number => Date.UTC(2026, 11, 1)

async function refusal (p: Promise<unknown>): Promise<UpdateRefused> {
  try {
    await p
  } catch (err) {
    if (err instanceof UpdateRefused) return err
    throw err
  }
  throw new Error('expected a refusal')
}

describe('update: version, remote check and update of a git checkout', function () {
  this.timeout(60_000)
  let f: GitFixture
  beforeEach(() => { f = gitFixture() })
  afterEach(() => f.remove())

  it('reads the version, commit, date, branch and upstream; a changed tracked file makes it dirty', async () => {
    const v = await versionInfo(f.checkout)
    expect(v).to.include({ version: '1.2.3', git: true, commit: f.head(), shortCommit: f.head().slice(0, 7), branch: 'main', upstream: 'origin/main', dirty: false })
    expect(Date.parse(v.date ?? '')).to.be.a('number').and.not.NaN
    writeFileSync(join(f.checkout, 'README.md'), 'changed\n')
    expect((await versionInfo(f.checkout)).dirty).to.equal(true)
  })

  it('a folder that is not a checkout of its own (a copy, or a folder inside another repository) is not git', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'lingxi-update-plain-'))
    try {
      writeFileSync(join(plain, 'package.json'), '{"version":"0.0.1"}')
      expect(await versionInfo(plain)).to.deep.equal({ version: '0.0.1', git: false })
      const inner = join(f.checkout, 'plugins', 'inner')
      mkdirSync(inner, { recursive: true })
      writeFileSync(join(inner, 'package.json'), '{"version":"0.0.2"}')
      expect(await versionInfo(inner)).to.deep.equal({ version: '0.0.2', git: false })
      expect(await refusal(checkRemote(inner, now))).to.include({ reason: 'noGit', status: 409 })
    } finally {
      rmSync(plain, { recursive: true, force: true })
    }
  })

  it('checks the remote on demand: behind and ahead, with the new commits', async () => {
    expect(await checkRemote(f.checkout, now)).to.deep.include({ upstream: 'origin/main', behind: 0, ahead: 0, commits: [] })
    const id = f.publish('feat: something new', { 'a.txt': 'a' })
    f.commitLocally('local tweak', { 'b.txt': 'b' })
    const c = await checkRemote(f.checkout, now)
    expect(c).to.include({ behind: 1, ahead: 1, checkedAt: '2026-12-01T00:00:00.000Z' })
    expect(c.commits.map((x) => [x.hash, x.subject])).to.deep.equal([[id.slice(0, 7), 'feat: something new']])
  })

  it('fast-forwards to the remote and lists the new commits; no install when no package file changed', async () => {
    const before = f.head()
    f.publish('one', { 'a.txt': '1' })
    const id = f.publish('two', { 'a.txt': '2' })
    const r = await updatePlugin(f.checkout, { force: false })
    expect(r).to.include({ before, after: id, total: 2 })
    expect(r.commits.map((c) => c.subject)).to.deep.equal(['two', 'one'])
    expect(r.install).to.equal(undefined)
    expect(readFileSync(join(f.checkout, 'a.txt'), 'utf8')).to.equal('2')
    const again = await updatePlugin(f.checkout, { force: false })
    expect(again).to.include({ before: id, after: id, total: 0 })
  })

  it('refuses a checkout with local changes, naming the files, and changes nothing', async () => {
    const before = f.head()
    f.publish('upstream change', { 'a.txt': 'x' })
    writeFileSync(join(f.checkout, 'README.md'), 'my edit\n')
    const err = await refusal(updatePlugin(f.checkout, { force: false }))
    expect(err.reason).to.equal('dirty')
    expect(err.detail).to.deep.equal(['README.md'])
    expect(err.status).to.equal(409)
    expect(f.head()).to.equal(before)
    expect(readFileSync(join(f.checkout, 'README.md'), 'utf8')).to.equal('my edit\n')
  })

  it('refuses a checkout with commits the remote does not have', async () => {
    f.publish('upstream', { 'a.txt': 'up' })
    const local = f.commitLocally('local', { 'b.txt': 'local' })
    const err = await refusal(updatePlugin(f.checkout, { force: false }))
    expect(err.reason).to.equal('diverged')
    expect(f.head()).to.equal(local)
  })

  it('forced: drops local changes and commits, keeps the files git ignores (the user config)', async () => {
    const id = f.publish('upstream', { 'a.txt': 'up' })
    f.commitLocally('local', { 'b.txt': 'local' })
    writeFileSync(join(f.checkout, 'README.md'), 'my edit\n')
    writeFileSync(join(f.checkout, 'config.yaml'), 'mine: true\n')
    const r = await updatePlugin(f.checkout, { force: true })
    expect(r.after).to.equal(id)
    expect(f.head()).to.equal(id)
    expect(readFileSync(join(f.checkout, 'README.md'), 'utf8')).to.equal('fixture\n')
    expect(existsSync(join(f.checkout, 'b.txt'))).to.equal(false)
    expect(readFileSync(join(f.checkout, 'config.yaml'), 'utf8')).to.equal('mine: true\n')
  })

  it('a second update while one runs is refused as busy', async () => {
    f.publish('upstream', { 'a.txt': 'up' })
    const first = updatePlugin(f.checkout, { force: false })
    const err = await refusal(updatePlugin(f.checkout, { force: false }))
    expect(err.reason).to.equal('busy')
    await first
  })

  it('a remote that cannot be reached is a fetch failure that never shows the URL\'s credentials', async () => {
    gitIn(f.checkout, 'remote', 'set-url', 'origin', 'http://someone:s3cret-token@127.0.0.1:9/plugin.git')
    const err = await refusal(updatePlugin(f.checkout, { force: false }))
    expect(err.reason).to.equal('fetchFailed')
    expect(err.status).to.equal(502)
    expect(err.message).to.not.include('s3cret-token')
    const direct = await git(f.checkout, ['fetch', 'origin'])
    expect(direct.ok).to.equal(false)
    expect(direct.stderr).to.not.include('s3cret-token')
  })

  it('installs when package.json changed (a new dependency), and says so when the install fails', async () => {
    // a local package: npm installs it without the registry
    const pkgDir = join(f.dir, 'tiny-dep')
    gitIn(f.dir, 'init', '--quiet', pkgDir)
    writeFileSync(join(pkgDir, 'package.json'), '{"name":"tiny-dep","version":"1.0.0","main":"index.js"}')
    writeFileSync(join(pkgDir, 'index.js'), 'module.exports = 42\n')
    const manifest = (deps: Record<string, string>): string => `${JSON.stringify({ name: 'fixture-plugin', version: '1.2.4', type: 'module', dependencies: deps }, null, 2)}\n`
    f.publish('add tiny-dep', { 'package.json': manifest({ 'tiny-dep': `file:${pkgDir}` }) })
    const commands: string[] = []
    const r = await updatePlugin(f.checkout, { force: false, onInstall: (c) => { commands.push(c) } })
    expect(r.install, 'an install ran').to.not.equal(undefined)
    expect(r.install!.ok, r.install!.error).to.equal(true)
    expect(commands).to.deep.equal([r.install!.command])
    expect(r.install!.command).to.include('npm install')
    expect(missingDependencies(f.checkout)).to.deep.equal([])
    expect(existsSync(join(f.checkout, 'node_modules', 'tiny-dep', 'index.js'))).to.equal(true)

    f.publish('add a package that does not exist', { 'package.json': manifest({ 'tiny-dep': `file:${pkgDir}`, 'lingxi-missing-dep': `file:${join(f.dir, 'nowhere')}` }) })
    const failed = await updatePlugin(f.checkout, { force: false })
    expect(failed.install?.ok).to.equal(false)
    expect(failed.install?.error).to.be.a('string').and.not.equal('')
    expect(failed.after, 'the code is pulled all the same').to.equal(f.head())
  })
})
