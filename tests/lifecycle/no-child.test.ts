// No build process left running after start (issue 17): the bundle build (boot/load-plugin.mjs) and
// the script tools' transpiling (lib/tools/scripts.ts) both use esbuild, whose service process
// (~86 MiB) outlives the call unless stopped. The plugin is started the way a host starts it (plain
// node importing index.js) from a fresh copy, so the first start builds the bundle.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const repo = resolve(import.meta.dirname, '../..')
const fixture = join(repo, 'tests/lifecycle/fixtures/children-after-start.mjs')

interface Report { children: Array<{ pid: number; cmd: string }>; scripts: Array<{ name: string; loaded: boolean; error?: string }> }

async function startAndList (pluginDir: string, dataDir: string, extraEnv: Record<string, string> = {}): Promise<Report> {
  // a clean environment: no NODE_OPTIONS carrying the test runner's tsx loader
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0', LINGXI_QUIET: '1', ...extraEnv }
  const { stdout } = await run(process.execPath, [fixture, pluginDir], { env, cwd: pluginDir, timeout: 60000 })
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Report
}

describe('lifecycle: no build process left running after start', function () {
  this.timeout(120_000)
  let copy: string
  let data: string
  before(function () {
    if (!existsSync('/proc/self/stat')) this.skip() // the fixture reads child processes from /proc (Linux)
    copy = mkdtempSync(join(tmpdir(), 'lingxi-nochild-'))
    for (const part of ['index.js', 'index.ts', 'package.json', 'boot', 'apps', 'lib', 'routes', 'config', 'resources', 'skills']) {
      if (existsSync(join(repo, part))) cpSync(join(repo, part), join(copy, part), { recursive: true })
    }
    symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'))
    data = mkdtempSync(join(tmpdir(), 'lingxi-nochild-data-'))
    mkdirSync(join(data, 'tools'))
    // a TypeScript script tool: loading it at start goes through esbuild's transform
    writeFileSync(join(data, 'tools', 'shout.ts'), [
      "export const description: string = 'Upper-cases its input'",
      "export const inputSchema = { type: 'object', properties: { text: { type: 'string' } } }",
      'export function execute (args: { text: string }): string { return args.text.toUpperCase() }'
    ].join('\n'))
  })
  after(() => {
    if (copy) {
      // the bundles built for this copy (boot/load-plugin.mjs names them by the folder's hash)
      const prefix = `plugin-${createHash('sha256').update(copy).digest('hex').slice(0, 8)}-`
      const cache = join(repo, 'node_modules/.cache/lingxi-plugin')
      if (existsSync(cache)) for (const f of readdirSync(cache)) if (f.startsWith(prefix)) rmSync(join(cache, f), { force: true })
      rmSync(copy, { recursive: true, force: true })
    }
    if (data) rmSync(data, { recursive: true, force: true })
  })

  it('a cold start (bundle built, a TypeScript script tool transpiled) leaves no esbuild process', async () => {
    const r = await startAndList(copy, data)
    expect(r.scripts, 'the script tool went through esbuild').to.deep.equal([{ name: 'shout', loaded: true }])
    expect(r.children.filter((c) => /esbuild/.test(c.cmd)), 'esbuild child processes').to.deep.equal([])
  })

  it('a warm start (bundle reused) leaves none either', async () => {
    const r = await startAndList(copy, data)
    expect(r.scripts.map((s) => s.loaded)).to.deep.equal([true])
    expect(r.children.filter((c) => /esbuild/.test(c.cmd))).to.deep.equal([])
  })
})
