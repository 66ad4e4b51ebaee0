// `#lx版本`, `#lx更新` and `#lx强制更新` in the standalone host, on a git clone of this working tree (a local
// remote that then moves, as the real repository does). The standalone host has no restart command of
// its own: the update says so; the restart through the host's own is tested in the real hosts
// (tests/realhost/upgrade-*.test.ts), and the install on a package change in updater.test.ts.
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { advanceRemote, createPluginRemote, headOf, type PluginRemote } from '../realhost/support/git-remote.js'
import { MASTER, PLUGIN_ROOT, startPluginHost, type PluginHost } from '../support/plugin-host.js'

describe('update: #lx版本 / #lx更新 / #lx强制更新 (standalone host, a clone of the plugin)', function () {
  this.timeout(120_000)
  let dir: string
  let remote: PluginRemote
  let clone: string
  let h: PluginHost | undefined

  const texts = (from: number, to = MASTER): string[] => h!.host.transcript.slice(from).filter((t) => t.targetId === to).map((t) => t.text)
  async function command (text: string, user = MASTER): Promise<{ plugin?: string; replies: string[] }> {
    const from = h!.host.transcript.length
    const r = await h!.host.sendPrivate(user, text)
    return { plugin: r.plugin, replies: texts(from, user) }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-update-cmd-'))
    remote = await createPluginRemote(join(dir, 'remote.git'))
    clone = join(dir, 'lingxi-plugin')
    execFileSync('git', ['clone', '--quiet', remote.url, clone])
    symlinkSync(join(PLUGIN_ROOT, 'node_modules'), join(clone, 'node_modules'), 'junction')
    const dist = join(PLUGIN_ROOT, 'resources', 'dist')
    if (existsSync(join(dist, 'index.html'))) cpSync(dist, join(clone, 'resources', 'dist'), { recursive: true })
    h = await startPluginHost('miao', 'lingxi-update-cmd-data-', { pluginDir: clone })
  })
  after(async () => {
    await h?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('#lx版本 gives the version and the commit of the checkout', async () => {
    const version = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string }).version
    const r = await command('#lx版本')
    expect(r.plugin).to.equal('lingxi-update')
    expect(r.replies.join('\n')).to.include(`灵犀 ${version}`).and.to.include(remote.commit.slice(0, 7)).and.to.include('main')
  })

  it('a member cannot update', async () => {
    await advanceRemote(remote, { message: 'docs: a member must not pull this', files: { 'docs/member.md': 'x\n' } })
    const before = await headOf(clone)
    const r = await command('#lx更新', '20001')
    // the host's own permission check answers (or not) before the command runs
    expect(r.replies.join('\n')).to.not.include('更新灵犀')
    expect(await headOf(clone)).to.equal(before)
  })

  it('#lx更新 pulls the new commits and lists them; the standalone host has no restart and says so', async () => {
    const id = await advanceRemote(remote, { message: 'feat: 新的功能', files: { 'docs/new-feature.md': '新功能\n' } })
    const r = await command('#lx更新')
    expect(r.plugin).to.equal('lingxi-update')
    const all = r.replies.join('\n')
    expect(r.replies[0]).to.include('开始更新灵犀')
    expect(all).to.include('共 2 个提交').and.to.include('feat: 新的功能').and.to.include('docs: a member must not pull this').and.to.include(id.slice(0, 7))
    expect(all).to.include('即将通过宿主重启').and.to.include('手动重启')
    expect(await headOf(clone)).to.equal(id)
    expect(readFileSync(join(clone, 'docs', 'new-feature.md'), 'utf8')).to.equal('新功能\n')
    const again = await command('#lx更新')
    expect(again.replies.join('\n')).to.include('已是最新').and.to.include(id.slice(0, 7))
  })

  it('refuses files changed by hand, naming them; #lx强制更新 drops the change and updates', async () => {
    const before = await headOf(clone)
    writeFileSync(join(clone, 'README.md'), 'my own edit\n')
    const id = await advanceRemote(remote, { message: 'fix: something', files: { 'docs/fix.md': 'fix\n' } })
    const refused = await command('#lx更新')
    expect(refused.replies.join('\n')).to.include('本地修改').and.to.include('README.md').and.to.include('#lx强制更新')
    expect(await headOf(clone)).to.equal(before)
    expect(readFileSync(join(clone, 'README.md'), 'utf8')).to.equal('my own edit\n')
    const forced = await command('#lx强制更新')
    expect(forced.replies[0]).to.include('开始强制更新灵犀')
    expect(forced.replies.join('\n')).to.include('fix: something')
    expect(await headOf(clone)).to.equal(id)
    expect(readFileSync(join(clone, 'README.md'), 'utf8')).to.not.equal('my own edit\n')
  })
})
