// A start with a dependency missing from node_modules (an update that brought a package nobody installed,
// an install that failed): the plugin still loads and answers chat with every feature that does not need
// it; the features that do are reported off, in the masters' private message and by `#lx版本`. A package
// every start needs (bundled in, boot/deps.mjs INLINE) missing: a stand-in loads that tells the master why.
// Each case runs the plugin in its own process, the way a host loads it (index.js), from a copy whose
// node_modules links every installed package but the one removed; LINGXI_INSTALL=0 keeps it removed (the
// install itself is tested in the real hosts, tests/realhost/upgrade-*.test.ts).
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { INLINE } from '../../boot/deps.mjs'
import { PACKAGE_FEATURES } from '../../lib/core/packages.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'

const run = promisify(execFile)
const repo = resolve(import.meta.dirname, '../..')
const CHILD_SOURCE = join(repo, 'tests/lifecycle/fixtures/missing-package-child.ts')
// The child runs on plain node as a host does: under tsx, `import './index.js'` would load index.ts and
// skip the loader. So the fixture and the standalone host are bundled first (packages stay imports,
// resolved from the project's node_modules beside the bundle).
const CHILD = join(repo, 'node_modules', '.cache', 'lingxi-tests', 'missing-package-child.mjs')
const MASTER = '10001'

interface ChildReport {
  loadErrors: string[]
  plugins: string[]
  featuresOff?: string[]
  version?: string
  chat?: string
  sent: Array<{ to: string; text: string }>
  http?: { dashboard: number; login: number; loginText: string; mcp: number; mcpText: string }
}

/** node_modules of the copy: a link to each installed package except `without` (scoped ones one by one). */
function linkModules (copy: string, without: string): void {
  const dir = join(copy, 'node_modules')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, '.cache'), { recursive: true }) // the copy's own bundle cache
  const from = join(repo, 'node_modules')
  for (const name of readdirSync(from)) {
    if (name === '.cache' || name === '.package-lock.json') continue
    if (name.startsWith('@')) {
      mkdirSync(join(dir, name))
      for (const sub of readdirSync(join(from, name))) if (`${name}/${sub}` !== without) symlinkSync(join(from, name, sub), join(dir, name, sub), 'dir')
    } else if (name !== without) {
      symlinkSync(join(from, name), join(dir, name), name === '.bin' ? 'dir' : 'junction')
    }
  }
}

/** Copies of the plugin started at once (this machine has 2 cores). */
const PARALLEL = 2
const CASES = [...PACKAGE_FEATURES.keys(), 'zod']

describe('lifecycle: a start with a package missing from node_modules', function () {
  this.timeout(600_000)
  const copies: string[] = []
  const temps: string[] = []
  let fake: FakeOpenAI
  const reports = new Map<string, ChildReport | Error>()

  before(async () => {
    const { build } = await import('esbuild')
    await build({ entryPoints: [CHILD_SOURCE], outfile: CHILD, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', logLevel: 'silent' })
    for (let i = 0; i < PARALLEL; i++) {
      const copy = mkdtempSync(join(tmpdir(), 'lingxi-missing-'))
      for (const part of ['index.js', 'index.ts', 'package.json', 'package-lock.json', 'boot', 'apps', 'lib', 'routes', 'config', 'resources', 'skills']) {
        if (existsSync(join(repo, part))) cpSync(join(repo, part), join(copy, part), { recursive: true, filter: (src) => !src.includes(join('resources', 'node_modules')) })
      }
      copies.push(copy)
    }
    fake = await startFakeOpenAI()
    // every case's own process, PARALLEL at a time; each copy runs one case after another
    const queue = [...CASES]
    await Promise.all(copies.map(async (copy) => {
      for (let pkg = queue.shift(); pkg !== undefined; pkg = queue.shift()) {
        reports.set(pkg, await startWithout(copy, pkg).catch((err: Error) => err))
      }
    }))
  })
  after(async () => {
    await fake?.close()
    for (const d of [...copies, ...temps]) rmSync(d, { recursive: true, force: true })
  })

  async function startWithout (copy: string, pkg: string): Promise<ChildReport> {
    linkModules(copy, pkg)
    const data = mkdtempSync(join(tmpdir(), 'lingxi-missing-data-'))
    temps.push(data)
    // a clean environment: no NODE_OPTIONS of the test runner
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LINGXI_DATA_DIR: data, LINGXI_INSTALL: '0', LINGXI_QUIET: '1', LINGXI_CASE: pkg }
    const { stdout } = await run(process.execPath, [CHILD, copy, fake.url], { env, cwd: repo, timeout: 120_000, maxBuffer: 16 << 20 })
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildReport
  }

  const reportOf = (pkg: string): ChildReport => {
    const r = reports.get(pkg)
    if (r instanceof Error || !r) throw r ?? new Error(`no report for ${pkg}`)
    return r
  }
  /** The model requests of one case: the user's message of that case is unique to it. */
  const modelAsked = (pkg: string): boolean => fake.chatRequests().some((q) => JSON.stringify(q.body).includes(`在吗 ${pkg}`))

  for (const [pkg, features] of PACKAGE_FEATURES) {
    it(`without ${pkg}: loads, turns off ${features.join(', ')} only, tells the master${features.includes('models') ? '' : ', answers chat'}`, () => {
      const r = reportOf(pkg)
      expect(r.loadErrors, 'the host loaded the plugin without an error').to.deep.equal([])
      expect(r.plugins).to.include('lingxi-chat')
      expect(r.featuresOff).to.have.members([...features])
      const notices = r.sent.filter((s) => s.to === MASTER && s.text.startsWith('灵犀：缺少依赖'))
      expect(notices, 'one private message to the master').to.have.length(1)
      expect(notices[0]!.text).to.include(pkg).and.to.include('npm install')
      expect(r.version, '#lx版本 answered').to.equal('lingxi-update')
      expect(r.chat, 'the chat took the message').to.equal('lingxi-chat')
      const answer = r.sent.filter((s) => s.to === '20001').map((s) => s.text).join('\n')
      // the web server: each part answers, or says it is unavailable (503, never 500) without its package
      expect(r.http?.dashboard, 'GET / (the dashboard page)').to.equal(features.includes('dashboard') && pkg === 'koa-send' ? 503 : 200)
      expect(r.http?.login, `POST /api/auth/login: ${r.http?.loginText}`).to.equal(features.includes('apiBodies') ? 503 : 401)
      if (features.includes('mcp')) {
        expect(r.http?.mcp, 'the MCP endpoint').to.equal(503)
        expect(r.http?.mcpText).to.include(pkg)
      } else {
        expect(r.http?.mcp, `the MCP endpoint: ${r.http?.mcpText}`).to.equal(200)
      }
      if (features.includes('models')) {
        expect(modelAsked(pkg), 'no model request can be made').to.equal(false)
      } else {
        expect(modelAsked(pkg), 'the model was asked').to.equal(true)
        expect(answer, 'the fake model echoes the message').to.include(`在吗 ${pkg}`)
      }
    })
  }

  it('without a package every start needs (zod): a stand-in tells the master what to run', () => {
    expect(INLINE).to.include('zod')
    const r = reportOf('zod')
    expect(r.plugins).to.deep.equal(['lingxi-rescue'])
    const notices = r.sent.filter((s) => s.to === MASTER && s.text.includes('灵犀插件未加载'))
    expect(notices.length, 'the master was told (once at start, once more for #lx版本)').to.equal(2)
    expect(notices[0]!.text).to.include('zod').and.to.include('npm install')
    expect(r.version).to.equal('lingxi-rescue')
    expect(r.chat, 'nothing answers chat').to.not.equal('lingxi-chat')
  })
})
