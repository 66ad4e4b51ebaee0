// Upgrading the plugin in the real Miao-Yunzai host, as owners do it from QQ. Miao's `#更新<plugin>`
// (plugins/other/update.js) only pulls, then restarts through its runner: here the host runs under its own
// keep-alive runner (lib/tools/ksr.js), so the restart is a new app process. The plugin is installed for
// real (support/miao-host.ts installPluginFromGit): `git clone` of a local remote of this working tree,
// then `pnpm install -P` at the host root as the Miao notes say. Scenarios, one host, in order:
// 1. the host's `#更新lingxi-plugin` with commit B adding a dependency: nothing installs it but the
//    plugin's own check at start (boot/deps.mjs), which runs `pnpm install -P` at the host root;
// 2. the plugin's `#lx更新` with commit C adding another: it installs, then restarts through the host;
// 3. the host's `#更新` with commit D adding a package the registry does not have: the install at start
//    fails, the plugin loads everything else and the master gets the command to run.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { advanceRemote, createPluginRemote, headOf, type PluginRemote } from './support/git-remote.js'
import { endMiaoSuite, MIAO_START_MS, outputLines, prepareMiaoHost, startMiaoHost, writePluginConfig, type MiaoHost, type MiaoSend, type PreparedMiaoHost } from './support/miao-host.js'
import { NEW_DEP, NO_SUCH_DEP, pnpmOnPath, SECOND_DEP, UPDATE_MS } from './support/upgrade.js'

const MASTER = 10001
const FRIEND = 10002

describe('real Miao-Yunzai host: upgrading the installed plugin (under ksr.js)', function () {
  this.timeout(60_000)
  let remoteDir: string | undefined
  let remote: PluginRemote | undefined
  let p: PreparedMiaoHost | undefined
  const prepared = (): PreparedMiaoHost => { if (!p) throw new Error('the host is not prepared'); return p }
  let fake: FakeOpenAI | undefined
  let host: MiaoHost | undefined
  const running = (): MiaoHost => { if (!host) throw new Error('the host is not running'); return host }
  const commits: Record<string, string> = {}
  const timings: string[] = []
  const seconds = (t0: number): string => `${((Date.now() - t0) / 1000).toFixed(1)} s`
  const to = (target: string) => (s: MiaoSend): boolean => s.kind === 'send' && s.target === target
  const toMaster = to(`u${MASTER}`)

  /** How `name` resolves from the plugin folder, asked of a separate node (this process caches misses). */
  async function resolves (name: string): Promise<string | undefined> {
    const { execFile } = await import('node:child_process')
    return new Promise((resolve) => {
      execFile(prepared().tc.node, ['-e', `try { console.log(require(require.resolve(${JSON.stringify(`${name}/package.json`)})).version) } catch { console.log('') }`], { cwd: prepared().pluginDir }, (_err, out) => resolve(String(out).trim() || undefined))
    })
  }

  async function answersPrivately (text: string): Promise<void> {
    const since = Date.now()
    const before = fake!.chatRequests().length
    await running().privateMessage(FRIEND, text)
    await running().waitForSend((s) => to(`u${FRIEND}`)(s) && s.text.includes(text), 30_000, since)
    expect(fake!.chatRequests().length, 'the model was asked').to.be.greaterThan(before)
  }

  before(async function () {
    this.timeout(30 * 60_000)
    remoteDir = mkdtempSync(join(tmpdir(), 'lingxi-upgrade-miao-remote-'))
    remote = await createPluginRemote(join(remoteDir, 'remote.git'))
    commits.A = remote.commit
    p = await prepareMiaoHost(this, 'upgrade', { masterId: MASTER, plugin: { gitUrl: remote.url } })
    timings.push(...p.timings)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    writePluginConfig(p.dataDir, { channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
    const t0 = Date.now()
    // as on a user's machine: pnpm on PATH (the plugin's install runs it), not a CI's frozen lockfile
    const env = { PATH: `${pnpmOnPath(p.tc, p.work)}:${p.tc.nodeBinDir}:${process.env.PATH ?? ''}`, CI: 'false', npm_config_nodedir: p.tc.nodedir }
    host = await startMiaoHost(p, { mode: 'ksr', env, world: { friends: [{ user_id: MASTER, nickname: 'master' }, { user_id: FRIEND, nickname: 'friend' }] } })
    timings.push(`first start ${seconds(t0)}`)
  })

  after(async function () {
    this.timeout(60_000)
    if (timings.length) console.log(`    Miao upgrade timings: ${timings.join(', ')}`)
    await endMiaoSuite(this, p, { host, servers: [fake] })
    if (remoteDir) rmSync(remoteDir, { recursive: true, force: true })
  })

  it('installed from the remote (commit A) with pnpm install -P, it answers a private chat', async () => {
    expect(await headOf(prepared().pluginDir)).to.equal(commits.A)
    expect(await resolves(NEW_DEP.name)).to.equal(undefined)
    await answersPrivately('升级前：你好')
  })

  it("#更新lingxi-plugin (commit B adds a dependency): Miao only pulls and restarts; the plugin's check at start installs it", async function () {
    this.timeout(UPDATE_MS + 2 * MIAO_START_MS)
    commits.B = await advanceRemote(remote!, { message: `升级测试 B：依赖 ${NEW_DEP.name}`, addDependencies: [`${NEW_DEP.name}@${NEW_DEP.version}`] })
    const since = Date.now()
    const fromLine = outputLines(running().output()).length
    await running().privateMessage(MASTER, '#更新lingxi-plugin')
    await running().waitForSend((s) => toMaster(s) && s.text.includes('lingxi-plugin 更新成功'), 60_000, since)
    await running().waitForRestart(UPDATE_MS)
    timings.push(`#更新 to the plugin back ${seconds(since)}`)
    expect(await headOf(prepared().pluginDir)).to.equal(commits.B)
    const lines = outputLines(running().output()).slice(fromLine)
    expect(lines.some((l) => l.includes('缺少依赖') && l.includes(NEW_DEP.name) && l.includes('pnpm install -P')), 'the loader said what it installs, the Miao way (-P)').to.equal(true)
    expect(lines.some((l) => /\[灵犀\] packages installed in/.test(l)), lines.filter((l) => l.includes('灵犀')).join('\n')).to.equal(true)
    expect(await resolves(NEW_DEP.name)).to.equal(NEW_DEP.version)
    await answersPrivately('升级后：还在吗')
    const bad = running().problems()
    expect(bad, bad.join('\n')).to.deep.equal([])
  })

  it('#lx更新 (commit C adds another): pulls, lists C, installs, restarts through the host, answers', async function () {
    this.timeout(UPDATE_MS + 2 * MIAO_START_MS)
    if (!commits.B) this.skip()
    commits.C = await advanceRemote(remote!, { message: `升级测试 C：依赖 ${SECOND_DEP.name}`, addDependencies: [`${SECOND_DEP.name}@${SECOND_DEP.version}`] })
    const since = Date.now()
    await running().privateMessage(MASTER, '#lx更新')
    const done = await running().waitForSend((s) => toMaster(s) && s.text.includes('灵犀已更新'), 60_000, since)
    expect(done.text).to.include(`升级测试 C：依赖 ${SECOND_DEP.name}`).and.to.include(commits.C.slice(0, 7))
    const installing = await running().waitForSend((s) => toMaster(s) && s.text.includes('依赖有变化'), 20_000, since)
    expect(installing.text).to.include('pnpm install -P')
    await running().waitForSend((s) => toMaster(s) && s.text.includes('依赖已安装'), UPDATE_MS, since)
    // the host's own restart (plugins/other/restart.js) asks ksr.js for a new app process
    await running().waitForSend((s) => toMaster(s) && s.text.includes('开始执行重启'), 30_000, since)
    await running().waitForRestart(2 * MIAO_START_MS)
    timings.push(`#lx更新 to the plugin back ${seconds(since)}`)
    expect(await headOf(prepared().pluginDir)).to.equal(commits.C)
    expect(await resolves(SECOND_DEP.name)).to.equal(SECOND_DEP.version)
    await answersPrivately('第二次升级后：你好')
  })

  it('#更新 with a package the registry lacks (commit D): the install at start fails, the rest loads, the master is told what to run', async function () {
    this.timeout(UPDATE_MS + 2 * MIAO_START_MS)
    if (!commits.C) this.skip()
    commits.D = await advanceRemote(remote!, { message: '升级测试 D：一个装不上的依赖', addDependencies: [`${NO_SUCH_DEP.name}@${NO_SUCH_DEP.version}`] })
    const since = Date.now()
    await running().privateMessage(MASTER, '#更新lingxi-plugin')
    await running().waitForSend((s) => toMaster(s) && s.text.includes('lingxi-plugin 更新成功'), 60_000, since)
    await running().waitForRestart(UPDATE_MS)
    const told = await running().waitForSend((s) => toMaster(s) && s.text.includes('灵犀：缺少依赖'), 60_000, since)
    expect(told.text).to.include(NO_SUCH_DEP.name).and.to.include(`cd "${prepared().root}" && pnpm install -P`)
    expect(told.pid, 'sent by the new app process').to.equal(running().appPid)
    const notices = (await running().sends()).filter((s) => s.time >= since && toMaster(s) && s.text.includes('灵犀：缺少依赖'))
    expect(notices, 'one message').to.have.length(1)
    await answersPrivately('装不上之后：还在吗')
  })
})
