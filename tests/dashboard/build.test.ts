// The start-time build check: dist counts as stale when missing or older than any source file.
import { expect } from 'chai'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dashboardStale } from '../../routes/_http/dashboard-build.js'

describe('dashboard build staleness', () => {
  let dir: string
  const at = (path: string, secondsAgo: number): void => { const t = Date.now() / 1000 - secondsAgo; utimesSync(path, t, t) }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-webbuild-'))
    mkdirSync(join(dir, 'resources', 'src', 'pages'), { recursive: true })
    writeFileSync(join(dir, 'resources', 'src', 'pages', 'a.tsx'), 'x')
    writeFileSync(join(dir, 'resources', 'index.html'), 'x')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is stale without dist/index.html', () => {
    expect(dashboardStale(dir)).to.equal(true)
  })

  it('is fresh when dist is newer than every source, stale again when a nested source changes', () => {
    mkdirSync(join(dir, 'resources', 'dist'))
    const built = join(dir, 'resources', 'dist', 'index.html')
    writeFileSync(built, 'x')
    for (const p of ['src/pages/a.tsx', 'src/pages', 'src', 'index.html']) at(join(dir, 'resources', p), 100)
    at(built, 10)
    expect(dashboardStale(dir)).to.equal(false)
    at(join(dir, 'resources', 'src', 'pages', 'a.tsx'), 1)
    expect(dashboardStale(dir)).to.equal(true)
  })
})

describe('dashboard build output', function () {
  this.timeout(120_000)
  let copy: string | undefined
  after(() => { if (copy) rmSync(copy, { recursive: true, force: true }) })

  it('is a production build even when NODE_ENV says otherwise (no development JSX runtime)', async () => {
    const { ensureDashboardBuilt } = await import('../../routes/_http/dashboard-build.js')
    const { PLUGIN_DIR } = await import('./browser.js')
    const { cpSync, readdirSync, readFileSync, symlinkSync } = await import('node:fs')
    expect(process.env.NODE_ENV).to.not.equal('production') // the tests run with NODE_ENV=test
    // built here, now, in a copy of the plugin folder: the project's resources/dist is read by the browser and
    // real-host suites running beside this one (tests/README.md, "Running in parallel")
    copy = mkdtempSync(join(tmpdir(), 'lingxi-webbuild-copy-'))
    for (const part of ['package.json', 'lib', 'boot']) cpSync(join(PLUGIN_DIR, part), join(copy, part), { recursive: true })
    cpSync(join(PLUGIN_DIR, 'resources'), join(copy, 'resources'), { recursive: true, filter: (src) => !src.startsWith(join(PLUGIN_DIR, 'resources', 'dist')) })
    symlinkSync(join(PLUGIN_DIR, 'node_modules'), join(copy, 'node_modules'), 'dir')
    await ensureDashboardBuilt(copy)
    const assets = join(copy, 'resources', 'dist', 'assets')
    const js = readdirSync(assets).filter((f) => f.endsWith('.js'))
    expect(js.length).to.be.above(0)
    for (const f of js) expect(readFileSync(join(assets, f), 'utf8'), f).to.not.match(/jsxDEV|lineNumber:/)
  })
})
