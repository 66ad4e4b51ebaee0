// boot/deps.mjs: which install a folder gets (the host's package manager at the host root, the mode its
// last install used) and how it is run (output to the log, a time limit that ends the whole process tree).
import { expect } from 'chai'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hostFolder, installAndCheck, installPlan, missingDependencies, runInstall, type InstallPlan } from '../../boot/deps.mjs'

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true } catch { return false } }

describe('update: the install plan and run (boot/deps.mjs)', function () {
  this.timeout(30_000)
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-install-')) })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  function layout (host: Record<string, string>): string {
    for (const [name, text] of Object.entries(host)) {
      mkdirSync(join(dir, name, '..'), { recursive: true })
      writeFileSync(join(dir, name), text)
    }
    const plugin = join(dir, 'plugins', 'lingxi-plugin')
    mkdirSync(plugin, { recursive: true })
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({ name: 'lingxi-plugin', dependencies: { 'left-pad-nowhere': '^1.0.0' } }))
    return plugin
  }

  it('a pnpm host (workspace): pnpm install at the host root; -P when its node_modules was installed without dev packages', () => {
    const plugin = layout({ 'package.json': '{"name":"miao-yunzai"}', 'pnpm-workspace.yaml': "packages:\n  - 'plugins/**'\n" })
    expect(hostFolder(plugin)).to.deep.equal({ root: dir, name: 'miao-yunzai', pnpm: true, prodOnly: false })
    expect(installPlan(plugin)).to.deep.equal({ manager: 'pnpm', cwd: dir, args: ['install', '--no-frozen-lockfile', '--prefer-offline'], display: `cd "${dir}" && pnpm install` })
    mkdirSync(join(dir, 'node_modules'))
    writeFileSync(join(dir, 'node_modules', '.modules.yaml'), 'hoistPattern:\n  - \'*\'\nincluded:\n  dependencies: true\n  devDependencies: false\n  optionalDependencies: true\nlayoutVersion: 5\n')
    expect(installPlan(plugin)).to.deep.include({ args: ['install', '--no-frozen-lockfile', '--prefer-offline', '--prod'], display: `cd "${dir}" && pnpm install -P` })
    // pnpm 10 and 11 write the file as JSON
    writeFileSync(join(dir, 'node_modules', '.modules.yaml'), JSON.stringify({ hoistedDependencies: {}, included: { dependencies: true, devDependencies: false, optionalDependencies: true }, layoutVersion: 5 }, null, 2))
    expect(installPlan(plugin).display).to.equal(`cd "${dir}" && pnpm install -P`)
    writeFileSync(join(dir, 'node_modules', '.modules.yaml'), JSON.stringify({ included: { dependencies: true, devDependencies: true, optionalDependencies: true } }, null, 2))
    expect(installPlan(plugin).display).to.equal(`cd "${dir}" && pnpm install`)
  })

  it('outside a host, or in a host without pnpm: npm install in the plugin folder', () => {
    const plugin = layout({ 'package.json': '{"name":"some-host"}' })
    expect(installPlan(plugin)).to.deep.equal({ manager: 'npm', cwd: plugin, args: ['install', '--no-audit', '--no-fund', '--prefer-offline'], display: `cd "${plugin}" && npm install` })
    expect(hostFolder(dir)).to.equal(undefined)
  })

  it('missing and out-of-range packages are both missing', () => {
    const plugin = layout({ 'package.json': '{}' })
    const mod = join(plugin, 'node_modules', 'old-pkg')
    mkdirSync(mod, { recursive: true })
    writeFileSync(join(mod, 'package.json'), '{"name":"old-pkg","version":"1.4.0"}')
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({ dependencies: { 'old-pkg': '^2.0.0', gone: '^1.0.0', linked: 'file:../x' } }))
    expect(missingDependencies(plugin)).to.deep.equal([
      { name: 'old-pkg', range: '^2.0.0', installed: '1.4.0' },
      { name: 'gone', range: '^1.0.0' },
      { name: 'linked', range: 'file:../x' }
    ])
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({ dependencies: { 'old-pkg': '^1.2.0' } }))
    expect(missingDependencies(plugin)).to.deep.equal([])
  })

  const node = (code: string): InstallPlan => ({ manager: process.execPath as 'npm', cwd: dir, args: ['-e', code], display: 'x' })

  it('runs the install, each output line to the log; a failure says how it ended', async () => {
    const lines: string[] = []
    const ok = await runInstall(node('console.log("one"); console.error("two")'), { log: (l) => lines.push(l) })
    expect(ok).to.deep.equal({ ok: true, output: ['one', 'two'] })
    expect(lines).to.have.members(['one', 'two'])
    const failed = await runInstall(node('console.log("ERR_PNPM_FETCH_404"); process.exit(3)'))
    expect(failed.ok).to.equal(false)
    expect(failed.error).to.match(/exited with 3/)
    expect(failed.output).to.deep.equal(['ERR_PNPM_FETCH_404'])
    const missing = await runInstall({ manager: 'no-such-package-manager-here' as 'npm', cwd: dir, args: [], display: 'x' })
    expect(missing.ok).to.equal(false)
    expect(missing.error).to.match(/not installed or not on PATH/)
  })

  it('a version the install keeps (the host pins it) is used from then on, not installed again at every start', async () => {
    const plugin = layout({ 'package.json': '{}' })
    const mod = join(plugin, 'node_modules', 'compression')
    mkdirSync(mod, { recursive: true })
    writeFileSync(join(mod, 'package.json'), '{"name":"compression","version":"1.8.1"}')
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({ dependencies: { compression: '^1.8.2', gone: '^1.0.0' } }))
    expect(missingDependencies(plugin).map((m) => m.name)).to.deep.equal(['compression', 'gone'])
    const lines: string[] = []
    // an install that ends well but changes nothing (pnpm keeping the host's override)
    const r = await installAndCheck(plugin, { ...node(''), cwd: plugin }, { log: (l) => lines.push(l) })
    expect(r.ok, 'gone is still missing').to.equal(false)
    expect(r.missing).to.deep.equal([{ name: 'gone', range: '^1.0.0' }])
    expect(lines.join('\n')).to.include('compression@1.8.1 as installed')
    expect(missingDependencies(plugin), 'the next start does not install for it again').to.deep.equal([{ name: 'gone', range: '^1.0.0' }])
    // a new range (an update raised it again) is checked afresh
    writeFileSync(join(plugin, 'package.json'), JSON.stringify({ dependencies: { compression: '^1.9.0' } }))
    expect(missingDependencies(plugin)).to.deep.equal([{ name: 'compression', range: '^1.9.0', installed: '1.8.1' }])
    // a failed install accepts nothing
    const failed = await installAndCheck(plugin, { ...node('process.exit(1)'), cwd: plugin })
    expect(failed.missing).to.deep.equal([{ name: 'compression', range: '^1.9.0', installed: '1.8.1' }])
  })

  it('past its time limit the install and the processes it started are ended', async function () {
    if (process.platform === 'win32') this.skip() // taskkill is the Windows path; this test reads POSIX pids
    const pidFile = join(dir, 'grandchild.pid')
    // a package manager that starts a child of its own and hangs (a stuck download)
    const code = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000)`
    const t0 = Date.now()
    const r = await runInstall(node(code), { timeoutMs: 1500 })
    expect(r.ok).to.equal(false)
    expect(r.error).to.match(/did not finish within 2 s/)
    expect(Date.now() - t0).to.be.lessThan(10_000)
    const { readFileSync } = await import('node:fs')
    const grandchild = Number(readFileSync(pidFile, 'utf8'))
    for (let i = 0; i < 50 && alive(grandchild); i++) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(alive(grandchild), 'the package manager\'s own child is gone too').to.equal(false)
  })
})
