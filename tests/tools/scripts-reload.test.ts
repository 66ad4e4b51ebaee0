// Script tools reloaded many times do not keep their old modules alive (no ESM module-map leak).
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { systemClock } from '../../lib/core/clock.js'
import type { Runtime } from '../../lib/runtime.js'
import { ScriptTools } from '../../lib/tools/scripts.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

describe('tools: script reloads do not leak', function () {
  this.timeout(30_000)
  let dir: string
  let scripts: ScriptTools
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-scripts-'))
    const rt = { paths: { dataDir: dir }, clock: systemClock, log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } } as unknown as Runtime
    scripts = new ScriptTools(rt)
  })
  after(async () => {
    await scripts.stopWatching()
    rmSync(dir, { recursive: true, force: true })
  })

  it('an old version is collected after a reload', async () => {
    await scripts.write('big', '.js', 'const payload = new Array(1e5).fill(1); export const execute = () => payload.length')
    const first = new WeakRef(scripts.list()[0]!)
    for (let i = 0; i < 20; i++) {
      await scripts.write('big', '.js', `const payload = new Array(1e5).fill(${i}); export const execute = () => payload.length + ${i}`)
    }
    await new Promise((r) => setImmediate(r))
    gc()
    await new Promise((r) => setImmediate(r))
    gc()
    expect(first.deref()).to.equal(undefined)
    const tool = scripts.list()[0]!
    const r = await tool.execute({}, { scope: { userId: 'u', isMaster: true, via: 'api', conversationId: 'c' }, userPermission: 'master', isMaster: true })
    expect(r.content[0]).to.deep.equal({ type: 'text', text: String(1e5 + 19) })
  })

  it('a default-export object and CommonJS module.exports both work', async () => {
    await scripts.write('obj', '.ts', 'export default { description: "d", category: "math", dangerous: true, risk: "high", execute: (a: { n: number }) => ({ content: [{ type: "text", text: String(a.n * 2) }], isError: false }) }')
    const t = scripts.list().find((x) => x.name === 'obj')!
    // What the script says about its own risk is only a hint: the master's defaults apply (high, not dangerous).
    expect(t).to.include({ category: 'math', dangerous: false, risk: 'high', description: 'd' })
    expect((await scripts.files()).find((f) => f.name === 'obj')).to.deep.include({ enabled: false, declared: { risk: 'high', dangerous: true } })
    const r = await t.execute({ n: 4 }, { scope: { userId: 'u', isMaster: true, via: 'api', conversationId: 'c' }, userPermission: 'master', isMaster: true })
    expect(r.content[0]).to.deep.equal({ type: 'text', text: '8' })
    await scripts.write('cjs', '.js', 'const os = require("node:os"); module.exports = { execute: () => typeof os.platform() }')
    expect(scripts.errorOf('cjs')).to.equal(undefined)
  })
})
