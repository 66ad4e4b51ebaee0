// index.js refuses an unsupported Node.js in one log line before it imports anything else
// (boot/node-version.mjs); on Node 18 the plugin used to fail deep inside with
// "Invalid flags supplied to RegExp constructor 'gv'".
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { MIN_NODE, nodeRefusal } from '../../boot/node-version.mjs'
import { PLUGIN_ROOT } from '../support/plugin-host.js'

const run = promisify(execFile)
const INDEX = join(PLUGIN_ROOT, 'index.js')

/** Imports index.js in a plain node child whose process.versions.node says `version`. */
async function importWith (version: string | undefined, node = process.execPath): Promise<{ out: Record<string, unknown>; stderr: string }> {
  const fake = version ? `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });` : ''
  // a host's logger: the refusal must go through it
  const script = `${fake}
    const lines = []; globalThis.logger = { error: (l) => lines.push(l), warn () {}, info () {}, debug () {}, mark () {}, trace () {}, fatal () {} };
    globalThis.plugin = class { constructor (o = {}) { Object.assign(this, o) } }; globalThis.Bot = { uin: 1 };
    const m = await import(${JSON.stringify(pathToFileURL(INDEX).href)});
    console.log(JSON.stringify({ apps: Object.keys(m.apps), lingxi: m.lingxi === undefined ? null : typeof m.lingxi, lines }));
    process.exit(0)`
  const { stdout, stderr } = await run(node, ['--input-type=module', '-e', script], { cwd: PLUGIN_ROOT, timeout: 60_000, env: { ...process.env, LINGXI_PORT: '0' } })
  return { out: JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'), stderr }
}

describe('boot: the Node.js version check of index.js', function () {
  this.timeout(60_000)

  it('names the version package.json requires', () => {
    const engines = (JSON.parse(readFileSync(join(PLUGIN_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
    expect(engines).to.equal(`>=${MIN_NODE}`)
  })

  it('refuses older versions, accepts this one and newer', () => {
    for (const v of ['18.18.0', '16.20.2', '20.18.3', '20.0.0', '19.9.0']) {
      const line = nodeRefusal(v)
      expect(line, v).to.be.a('string').and.include(`>= ${MIN_NODE}`).and.include(v)
      expect(line?.split('\n'), 'one line').to.have.length(1)
    }
    for (const v of ['20.19.0', '20.20.1', '22.0.0', '24.21.0', process.versions.node]) expect(nodeRefusal(v), v).to.equal(null)
  })

  it('index.js on a faked Node 18: one line through the host logger, no apps, the plugin not loaded', async () => {
    const { out } = await importWith('18.18.0')
    expect(out.apps).to.deep.equal([])
    expect(out.lingxi).to.equal(null)
    expect(out.lines).to.have.length(1)
    expect((out.lines as string[])[0]).to.include('Node.js >= 20.19.0').and.include('18.18.0')
  })

  it('index.js on this Node loads the apps', async () => {
    const { out } = await importWith(undefined)
    expect(out.apps).to.include('LingxiChat')
    expect(out.lingxi).to.equal('object')
    expect(out.lines).to.deep.equal([])
  })

  it('a real old Node (LINGXI_OLD_NODE=<path to node 18>) gets the line instead of a SyntaxError', async function () {
    const old = process.env.LINGXI_OLD_NODE
    if (!old || !existsSync(old)) {
      console.log('    (skipped: no old Node binary here; set LINGXI_OLD_NODE to a Node 18 binary to run it)')
      this.skip()
    }
    const { out, stderr } = await importWith(undefined, old)
    expect(stderr).to.not.include('SyntaxError')
    expect(out.apps).to.deep.equal([])
    expect((out.lines as string[])[0]).to.include('Node.js >= 20.19.0')
  })
})
