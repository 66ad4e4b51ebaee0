// README, Install (no build step): hosts import index.js with plain node; after `git clone` + install, and after a
// later `git pull` with no rebuild, the host must load the current TypeScript code.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const repo = resolve(import.meta.dirname, '../..')
const script = join(repo, 'tests/host/fixtures/plain-node-host.mjs')
const serveScript = join(repo, 'tests/host/fixtures/plain-node-serve.mjs')

const cacheDir = join(repo, 'node_modules/.cache/lingxi-plugin')
/**
 * The bundles built for the plugin folder `dir` (boot/load-plugin.mjs names them by the folder's hash): other
 * copies' bundles come and go in the same cache while other test files run beside this one.
 */
const bundlesOf = (dir: string): string[] => {
  const prefix = `plugin-${createHash('sha256').update(dir).digest('hex').slice(0, 8)}-`
  return existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.startsWith(prefix) && f.endsWith('.mjs')) : []
}

async function loadApps (dir: string, extraEnv: Record<string, string> = {}): Promise<Array<{ key: string; name: string; dsc: string }>> {
  // A clean environment: no NODE_OPTIONS carrying the test runner's tsx loader.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extraEnv }
  const { stdout } = await run(process.execPath, [script, dir], { env, cwd: dir, timeout: 30000 })
  return stdout.trim().split('\n').map((l) => JSON.parse(l) as { key: string; name: string; dsc: string })
}

describe('loading without a build step', function () {
  this.timeout(60000)
  let copy: string
  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'lingxi-clone-'))
    for (const part of ['index.js', 'index.ts', 'package.json', 'boot', 'apps', 'lib', 'routes', 'config', 'resources', 'skills']) {
      if (existsSync(join(repo, part))) cpSync(join(repo, part), join(copy, part), { recursive: true })
    }
    symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'))
  })
  after(() => {
    for (const f of bundlesOf(copy)) rmSync(join(cacheDir, f), { force: true })
    rmSync(copy, { recursive: true, force: true })
  })

  it('plain node loads the TypeScript plugin through index.js', async () => {
    expect(existsSync(join(copy, 'dist'))).to.equal(false)
    const before = new Set(bundlesOf(copy))
    const apps = await loadApps(copy)
    expect(apps.map((a) => a.name)).to.include('lingxi-panel')
    expect(bundlesOf(copy).filter((f) => !before.has(f)), 'a bundle was built for this folder').to.have.length(1)
  })

  it('reuses the bundle while the sources are unchanged, and can load through tsx instead', async () => {
    const built = bundlesOf(copy).map((f) => [f, statSync(join(cacheDir, f)).mtimeMs] as const)
    await loadApps(copy)
    expect(bundlesOf(copy).map((f) => [f, statSync(join(cacheDir, f)).mtimeMs] as const)).to.deep.equal(built)
    const viaTsx = await loadApps(copy, { LINGXI_BUNDLE: '0' })
    expect(viaTsx.map((a) => a.name)).to.include('lingxi-panel')
  })

  it('rebuilds after an install changes the dependencies (the lockfile), since some are bundled in', async () => {
    const before = new Set(bundlesOf(copy))
    writeFileSync(join(copy, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/zod': { version: '0.0.0-test' } } }))
    await loadApps(copy)
    expect(bundlesOf(copy).filter((f) => !before.has(f)), 'rebuilt once').to.have.length(1)
  })

  it('the bundle (with its inlined dependencies) starts under plain node and serves the API', async () => {
    const data = mkdtempSync(join(tmpdir(), 'lingxi-bundle-data-'))
    try {
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LINGXI_DATA_DIR: data, LINGXI_PORT: '0' }
      const { stdout } = await run(process.execPath, [serveScript, copy], { env, cwd: copy, timeout: 30000 })
      const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, { status: number; body: any }>
      expect(out.health).to.deep.include({ status: 200 })
      expect(out.health.body.data.healthy).to.equal(true)
      expect(out.login.status).to.equal(200) // jsonwebtoken signs
      expect(out.verify.body.data).to.include({ valid: true, userId: '10001' }) // ... and verifies
      expect(out.exportYaml.status).to.equal(200)
      expect(out.exportYaml.body).to.be.a('string').and.match(/^commandPrefix: /m) // yaml keeps the comments
      expect(out.badConfig.status).to.equal(400) // zod validates
      expect(out.badConfig.body).to.include({ code: 'INVALID_CONFIG' })
      expect(out.badConfig.body.errors[0].path).to.equal('context.maxMessages')
      expect(out.badJson.status).to.equal(400)
      expect(out.skills.status).to.equal(200) // gray-matter read the bundled SKILL.md files
      expect(out.skills.body.data.documents.map((d: { name: string }) => d.name)).to.include('translator')
    } finally {
      rmSync(data, { recursive: true, force: true })
    }
  })

  it('picks up edited sources on the next start, as after a git pull', async () => {
    const file = join(copy, 'apps/panel.ts')
    const src = readFileSync(file, 'utf8')
    expect(src).to.include("dsc: '灵犀管理面板登录'")
    writeFileSync(file, src.replace("dsc: '灵犀管理面板登录'", "dsc: 'pulled change'"))
    const before = new Set(bundlesOf(copy))
    const apps = await loadApps(copy)
    expect(apps.find((a) => a.name === 'lingxi-panel')?.dsc).to.equal('pulled change')
    const after = bundlesOf(copy)
    expect(after.filter((f) => !before.has(f)), 'rebuilt once').to.have.length(1)
    expect(after.length, 'the stale bundle of this folder was removed').to.equal(before.size)
  })
})
