// Upgrading the plugin in the real TRSS-Yunzai host, as owners do it from QQ. The plugin is installed
// for real (support/upgrade.ts): `git clone` of a local remote of this working tree (commit A) into
// plugins/lingxi-plugin and `pnpm install` at the host root. Scenario 1, the host's own update: the
// remote moves to commit B, which adds a dependency; the master sends `#更新lingxi-plugin`; TRSS
// (plugins/other/update.js) runs `git pull` in the plugin folder, `pnpm install` at its root because the
// pull's output names package.json, and restarts (process.execve); the plugin comes back at B with the
// new package installed and answers again.
// The scenarios share one host, one after the other: each is a function registering its tests in
// order (mocha runs a suite's own tests before its nested suites, and endHostSuite keeps the host copy
// of a failed run only for failures of the top suite: so no nested `describe`). A later scenario (the
// plugin's own `#lx更新`, moving the remote to commit C) is one more function called after the first.
// Set-up and what it needs: tests/realhost/README.md; skipped in one line without the snapshot.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { advanceRemote } from './support/git-remote.js'
import { FakeOneBot, worldOf } from './support/onebot.js'
import { endHostSuite, writePluginConfig } from './support/prepare.js'
import { outputLines, pluginProblems, type HostProcess } from './support/trss-host.js'
import { NEW_DEP, NO_SUCH_DEP, pluginCommit, prepareInstalledHost, SECOND_DEP, UPDATE_MS, reconnectAfterRestart, resolvedFromPlugin, startInstalledHost, waitForLine, type InstalledHost } from './support/upgrade.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002

describe('real TRSS-Yunzai host: upgrading the installed plugin', function () {
  this.timeout(60_000)
  let p: InstalledHost | undefined
  const prepared = (): InstalledHost => { if (!p) throw new Error('the host is not prepared'); return p }
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined
  /** the remote's commits by the scenarios' names for them (A: the working tree) */
  const commits: Record<string, string> = {}
  const timings: string[] = []
  const seconds = (t0: number): string => `${((Date.now() - t0) / 1000).toFixed(1)} s`
  const master = String(MASTER)

  const newBot = (): FakeOneBot => new FakeOneBot(BOT, worldOf([MASTER, FRIEND], []))

  /** A private message from `user` answered through the fake model (it echoes the text). */
  async function answersPrivately (user: number, text: string): Promise<void> {
    const since = Date.now()
    const before = fake!.chatRequests().length
    await bot!.privateMessage(user, text)
    await bot!.waitForSent((s) => s.userId === String(user) && s.text.includes(text), 30_000, since)
    expect(fake!.chatRequests().length, 'the model was asked').to.be.greaterThan(before)
  }

  /**
   * The host restarts itself: the old protocol connection drops (within `timeoutMs`), the plugin's
   * health answers again and a new protocol client takes the place of `bot`.
   */
  async function followRestart (timeoutMs: number): Promise<void> {
    const old = bot!
    bot = newBot()
    try {
      await reconnectAfterRestart(prepared(), host!, old, bot, timeoutMs)
    } finally {
      old.close()
    }
  }

  before(async function () {
    this.timeout(30 * 60_000)
    p = await prepareInstalledHost(this, 'upgrade', { botId: BOT, masterId: MASTER })
    commits.A = p.remote.commit
    timings.push(`host install ${p.seconds.host.toFixed(1)} s`, `plugin clone ${p.seconds.clone.toFixed(1)} s`, `plugin pnpm install ${p.seconds.pluginInstall.toFixed(1)} s`)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    writePluginConfig(p.dataDir, { channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
    const t0 = Date.now()
    bot = newBot()
    host = await startInstalledHost(p, bot)
    timings.push(`first start ${seconds(t0)}`)
  })

  after(async function () {
    this.timeout(60_000)
    if (timings.length) console.log(`    upgrade suite timings: ${timings.join(', ')}`)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  it('installed from the remote (commit A), it answers a private chat', async () => {
    expect(await pluginCommit(prepared())).to.equal(commits.A)
    expect(existsSync(join(prepared().pluginDir, 'node_modules', 'esbuild')), "the plugin's dependencies are installed in its folder").to.equal(true)
    expect(await resolvedFromPlugin(prepared(), NEW_DEP.name), `${NEW_DEP.name} before commit B`).to.equal(undefined)
    await answersPrivately(FRIEND, '升级前：你好')
  })

  hostUpdateScenario()
  pluginUpdateScenario()

  it("logged no error or warning about the plugin in the host's log", function () {
    if (!host) this.skip()
    const bad = pluginProblems(host!.output())
    expect(bad, bad.join('\n')).to.deep.equal([])
  })

  failedInstallScenario()

  /** Scenario 2: commit C adds another dependency; the master's `#lx更新` (apps/update.ts). */
  function pluginUpdateScenario (): void {
    let restarted = false

    it('#lx更新: with commit C on the remote, pulls, lists C, installs, restarts through the host', async function () {
      this.timeout(UPDATE_MS + 4 * 60_000)
      if (!commits.B) this.skip()
      commits.C = await advanceRemote(prepared().remote, {
        message: `升级测试 C：依赖 ${SECOND_DEP.name}`,
        addDependencies: [`${SECOND_DEP.name}@${SECOND_DEP.version}`]
      })
      const since = Date.now()
      await bot!.privateMessage(MASTER, '#lx更新')
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('开始更新灵犀'), 20_000, since)
      // told once the pull is done, which may follow the dependency install (a registry download on a fresh
      // machine: CI once took longer than a minute here): waited for as long as an install may take
      const done = await bot!.waitForSent((s) => s.userId === master && s.text.includes('灵犀已更新'), UPDATE_MS, since)
      expect(done.text).to.include(`升级测试 C：依赖 ${SECOND_DEP.name}`).and.to.include(commits.C.slice(0, 7))
      const installing = await bot!.waitForSent((s) => s.userId === master && s.text.includes('依赖有变化'), 20_000, since)
      expect(installing.text, 'the install the README gives for TRSS').to.include('pnpm install')
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('依赖已安装'), UPDATE_MS, since)
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('即将通过宿主重启'), 20_000, since)
      // the host's own restart (plugins/other/restart.js) says it starts, then replaces the process
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('开始重启'), 20_000, since)
      await followRestart(3 * 60_000)
      restarted = true
      timings.push(`#lx更新 to the plugin back ${seconds(since)}`)
      expect(host!.child.exitCode).to.equal(null)
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('重启成功'), 30_000, since)
    })

    it('#lx更新: after the restart the plugin is at C, the new package resolves, it answers, #lx版本 shows C', async function () {
      if (!restarted) this.skip()
      expect(await pluginCommit(prepared())).to.equal(commits.C)
      const got = await resolvedFromPlugin(prepared(), SECOND_DEP.name)
      expect(got?.version, JSON.stringify(got)).to.equal(SECOND_DEP.version)
      await answersPrivately(FRIEND, '第二次升级后：你好')
      const since = Date.now()
      await bot!.privateMessage(MASTER, '#lx版本')
      const v = await bot!.waitForSent((s) => s.userId === master && s.text.includes('灵犀 '), 20_000, since)
      expect(v.text).to.include(commits.C!.slice(0, 7))
    })
  }

  /**
   * Scenario 3: commit D adds a package the registry does not have. `#lx更新` pulls it, the install fails:
   * the master is told what to run and the bot does not restart; after the host's own `#重启` the loader
   * tries the install again, fails, loads everything else, tells the master, and the bot answers.
   */
  function failedInstallScenario (): void {

    it('#lx更新 with a package that cannot be installed: the master gets the command, no restart, chat goes on', async function () {
      this.timeout(UPDATE_MS + 60_000)
      if (!commits.C) this.skip()
      commits.D = await advanceRemote(prepared().remote, {
        message: '升级测试 D：一个装不上的依赖',
        addDependencies: [`${NO_SUCH_DEP.name}@${NO_SUCH_DEP.version}`]
      })
      const since = Date.now()
      await bot!.privateMessage(MASTER, '#lx更新')
      const failed = await bot!.waitForSent((s) => s.userId === master && s.text.includes('依赖安装失败'), UPDATE_MS, since)
      expect(failed.text).to.include(`cd "${prepared().root}" && pnpm install`)
      expect(bot!.sent.filter((s) => s.time >= since && s.text.includes('开始重启')), 'no restart').to.deep.equal([])
      expect(await pluginCommit(prepared()), 'the code is pulled').to.equal(commits.D)
      await answersPrivately(FRIEND, '装不上之后：还在吗')
    })

    it('#重启 after it: the loader fails the install again, loads the rest, tells the master, answers chat', async function () {
      this.timeout(UPDATE_MS + 4 * 60_000)
      if (!commits.D) this.skip()
      const since = Date.now()
      await bot!.privateMessage(MASTER, '#重启')
      await followRestart(UPDATE_MS)
      const told = await bot!.waitForSent((s) => s.userId === master && s.text.includes('灵犀：缺少依赖'), 60_000, since)
      expect(told.text).to.include(NO_SUCH_DEP.name).and.to.include(`cd "${prepared().root}" && pnpm install`)
      expect(outputLines(host!.output()).some((l) => /缺少依赖.*lingxi-upgrade-test-no-such-package/.test(l)), 'the log says it too').to.equal(true)
      await answersPrivately(FRIEND, '重启之后：你好')
    })

  }

  /** Scenario 1: commit B adds a dependency; the master's `#更新lingxi-plugin` (TRSS's update.js). */
  function hostUpdateScenario (): void {
    let restarted = false

    it('#更新: the remote moves to commit B, which adds a dependency', async () => {
      commits.B = await advanceRemote(prepared().remote, {
        message: `升级测试：依赖 ${NEW_DEP.name}`,
        addDependencies: [`${NEW_DEP.name}@${NEW_DEP.version}`],
        files: { 'docs/upgrade-test.md': 'Commit B of the upgrade test.\n' }
      })
      expect(commits.B).to.match(/^[0-9a-f]{40}$/)
    })

    it("#更新: the master's #更新lingxi-plugin pulls, reports success and the log, installs and restarts", async function () {
      this.timeout(UPDATE_MS + 4 * 60_000)
      if (!commits.B) this.skip()
      const since = Date.now()
      const fromLine = outputLines(host!.output()).length
      await bot!.privateMessage(MASTER, '#更新lingxi-plugin')
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('开始更新 lingxi-plugin'), 20_000, since)
      const success = await bot!.waitForSent((s) => s.userId === master && s.text.includes('lingxi-plugin 更新成功'), 60_000, since)
      expect(success.text).to.match(/更新时间：\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/)
      const log = await bot!.waitForSent((s) => s.userId === master && s.text.includes('更新日志'), 20_000, since)
      expect(log.text, 'the update log names commit B').to.include(`升级测试：依赖 ${NEW_DEP.name}`)
      // the pull's output names package.json: the host installs before it restarts
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('开始更新依赖'), 20_000, since)
      const t0 = Date.now()
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('开始重启'), UPDATE_MS, since)
      const pulled = await waitForLine(host!, /git pull.*\[完成/, 5_000, fromLine)
      const installed = await waitForLine(host!, /pnpm install.*\[完成/, 5_000, fromLine)
      timings.push(`#更新 to 开始重启 ${seconds(since)} (its pnpm install ${seconds(t0)}; host log: ${pulled.replace(/^.*?git pull/, 'git pull').trim()}, ${installed.replace(/^.*?pnpm install/, 'pnpm install').trim()})`)
      await followRestart(3 * 60_000)
      restarted = true
      timings.push(`#更新 to the plugin back ${seconds(since)}`)
      expect(host!.child.exitCode, 'the process was replaced (same pid), not ended').to.equal(null)
      // TRSS tells the master once the protocol client is back
      await bot!.waitForSent((s) => s.userId === master && s.text.includes('重启成功'), 30_000, since)
    })

    it('#更新: after the restart the plugin is at commit B, the new package resolves from its folder, it answers', async function () {
      if (!restarted) this.skip()
      expect(await pluginCommit(prepared())).to.equal(commits.B)
      expect(existsSync(join(prepared().pluginDir, 'node_modules', NEW_DEP.name)), `plugins/lingxi-plugin/node_modules/${NEW_DEP.name}`).to.equal(true)
      const got = await resolvedFromPlugin(prepared(), NEW_DEP.name)
      expect(got?.version, `${NEW_DEP.name} from the plugin folder: ${JSON.stringify(got)}`).to.equal(NEW_DEP.version)
      expect(got?.entry).to.include(join(prepared().root, 'node_modules', '.pnpm'))
      expect(got?.loads, got?.error).to.equal(true)
      await answersPrivately(FRIEND, '升级后：还在吗')
    })
  }
})
