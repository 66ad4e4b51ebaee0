// The tool switches (lib/tools/switches.ts) on the real configuration service (temp user file):
// one tool, a category, "enable all" / "disable all", the dangerous list, and update with rollback.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { ConfigService } from '../../lib/config/service.js'
import { ToolSwitches, type ToolsConfigStore, type ToolsPatch } from '../../lib/tools/switches.js'
import type { RegisteredTool, SourceSwitch } from '../../lib/tools/types.js'
import { fakeTool } from './helpers.js'

const DEFAULTS = join(process.cwd(), 'config', 'default.yaml')

/** A script source's own switch, off until set (like lib/tools/scripts.ts). */
function scriptSwitch (): SourceSwitch & { on: Set<string> } {
  const on = new Set<string>()
  return { on, isOn: (n) => on.has(n), setOn: async (n, v) => { if (v) on.add(n); else on.delete(n) } }
}

describe('tools: switches (the only writer of config tools)', () => {
  let dir: string
  let config: ConfigService
  let failWrites: boolean
  let store: ToolsConfigStore & { writes: ToolsPatch[] }
  let scripts: ReturnType<typeof scriptSwitch>
  let tools: RegisteredTool[]
  let sw: ToolSwitches
  const on = (name: string): boolean => sw.isOn(tools.find((t) => t.name === name)!)

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lx-switches-'))
    config = new ConfigService({ defaultFile: DEFAULTS, userFile: join(dir, 'config.yaml') })
    failWrites = false
    const writer = config.writer('tools')
    store = {
      writes: [],
      get: () => writer.get(),
      update: async (patch) => {
        if (failWrites) throw new Error('disk full')
        store.writes.push(patch)
        return writer.update(patch)
      }
    }
    scripts = scriptSwitch()
    tools = [
      fakeTool('get_time', { category: 'time' }),
      fakeTool('send', { category: 'message' }),
      fakeTool('mcp:a:fetch', { source: 'mcp', server: 'a', category: 'mcp' }),
      fakeTool('doubler', { source: 'script', category: 'time' })
    ]
    sw = new ToolSwitches({ config: store, tools: () => tools, ownSwitch: (t) => (t.source === 'script' ? scripts : undefined) })
  })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('one tool: off and on again, written to the user file; a script follows its own switch; unknown is TOOL_NOT_FOUND', async () => {
    await sw.setTool('send', false)
    expect(on('send')).to.equal(false)
    expect(config.get().tools.disabledTools).to.deep.equal(['send'])
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).to.match(/send/)
    await sw.setTool('send', true)
    expect(on('send')).to.equal(true)

    expect(on('doubler')).to.equal(false) // a script is off until enabled
    await sw.setTool('doubler', true)
    expect(scripts.on.has('doubler')).to.equal(true)
    expect(on('doubler')).to.equal(true)
    await sw.setTool('doubler', false)
    expect(scripts.on.has('doubler')).to.equal(false)

    let err: unknown
    try { await sw.setTool('ghost', true) } catch (e) { err = e }
    expect(err).to.have.property('code', 'TOOL_NOT_FOUND')
  })

  it('enabling a tool adds it to a non-empty allow list', async () => {
    await sw.update({ allowedTools: ['get_time'] })
    expect(on('send')).to.equal(false)
    await sw.setTool('send', true)
    expect(config.get().tools.allowedTools).to.deep.equal(['get_time', 'send'])
    expect(on('send')).to.equal(true)
  })

  it('a category: off, then on lifts its tools\' own switches but never turns a script on', async () => {
    await sw.setTool('get_time', false)
    await sw.setCategory('time', false)
    expect(sw.isCategoryOn('time')).to.equal(false)
    expect(on('get_time')).to.equal(false)
    expect(on('send')).to.equal(true)
    await sw.setCategory('time', true)
    expect(sw.isCategoryOn('time')).to.equal(true)
    expect(on('get_time')).to.equal(true)
    expect(on('doubler')).to.equal(false)
    expect(config.get().tools.disabledCategories).to.deep.equal([])
    let err: unknown
    try { await sw.setCategory('nope', false) } catch (e) { err = e }
    expect(err).to.have.property('code', 'NOT_FOUND')
    expect(await sw.setCategory('time', true)).to.equal(2) // answers its tool count
  })

  it('"enable all" means every built-in, custom and MCP tool is on: master switch on, disabled and allow lists cleared; scripts keep their own switch', async () => {
    await sw.update({ enabled: false, disabledTools: ['send'], disabledCategories: ['mcp'], enabledCategories: ['time'], allowedTools: ['get_time'] })
    await scripts.setOn('doubler', false)
    expect(tools.filter((t) => sw.isOn(t))).to.deep.equal([])

    expect(await sw.setAll(true)).to.equal(4)
    const c = config.get().tools
    expect(c).to.deep.include({ enabled: true, disabledTools: [], disabledCategories: [], enabledCategories: [], allowedTools: [] })
    expect(['get_time', 'send', 'mcp:a:fetch'].map(on)).to.deep.equal([true, true, true])
    expect(on('doubler')).to.equal(false) // its own switch is off: "enable all" leaves it off
    expect(scripts.on.size).to.equal(0)

    // A script the master enabled stays on through "disable all" + "enable all" (its own switch untouched).
    await sw.setTool('doubler', true)
    expect(await sw.setAll(false)).to.equal(4)
    expect(tools.filter((t) => sw.isOn(t))).to.deep.equal([])
    expect(config.get().tools.disabledTools).to.have.members(['get_time', 'send', 'mcp:a:fetch', 'doubler'])
    await sw.setAll(true)
    expect(on('doubler')).to.equal(true)
  })

  it('a set of tools (the built-in enable-all / disable-all) touches only those tools', async () => {
    await sw.setCategory('time', false)
    expect(await sw.setTools([tools[0]!, tools[1]!], false)).to.equal(2)
    expect(config.get().tools.disabledTools).to.have.members(['get_time', 'send'])
    await sw.setTools([tools[0]!, tools[1]!], true)
    expect(config.get().tools.disabledTools).to.deep.equal([])
    expect(config.get().tools.disabledCategories).to.deep.equal([]) // their categories are lifted too
    expect(on('mcp:a:fetch')).to.equal(true)
  })

  it('the dangerous list and what may be offered in chat', async () => {
    const untrusted = fakeTool('mcp:u:run', { source: 'mcp', server: 'u', dangerous: true, untrusted: true })
    tools.push(untrusted)
    const get = tools[0]!
    expect(sw.isDangerous(get)).to.equal(false)
    await sw.setDangerous('get_time', true)
    expect(sw.isDangerous(get)).to.equal(true)
    expect(sw.offerable(get, false)).to.equal(false)
    expect(sw.offerable(get, true)).to.equal(true)
    // An untrusted server's tool is offered (it asks the master), unless the master lists it dangerous.
    expect(sw.offerable(untrusted, false)).to.equal(true)
    await sw.setDangerous('mcp:u:run', true)
    expect(sw.offerable(untrusted, false)).to.equal(false)
    await sw.setDangerous('get_time', false)
    expect(config.get().tools.dangerousTools).to.deep.equal(['mcp:u:run'])
  })

  it('update: applies, and rolls back (then applies again) when applying fails', async () => {
    let applied = 0
    const cfg = await sw.update({ approvalTimeoutMs: 30000 }, () => { applied++ })
    expect(cfg.approvalTimeoutMs).to.equal(30000)
    expect(applied).to.equal(1)

    let seen: number | undefined
    let err: unknown
    try {
      await sw.update({ approvalTimeoutMs: 45000, eventProbability: 0.5 }, () => {
        applied++
        if (seen === undefined) { seen = config.get().tools.approvalTimeoutMs; throw new Error('refresh failed') }
      })
    } catch (e) { err = e }
    expect(seen).to.equal(45000) // applied against the new values first
    expect(err).to.have.property('code', 'INTERNAL_ERROR')
    expect(config.get().tools).to.include({ approvalTimeoutMs: 30000, eventProbability: 0.1 })
    expect(applied).to.equal(3) // once with the new values, once after the rollback
    expect(store.writes.at(-1)).to.deep.equal({ approvalTimeoutMs: 30000, eventProbability: 0.1 })
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).to.not.match(/45000/)
  })

  it('a failed write changes nothing and does not apply; an invalid value is refused by the schema', async () => {
    const before = config.get().tools
    failWrites = true
    let applied = false
    let err: unknown
    try { await sw.update({ approvalTimeoutMs: 20000 }, () => { applied = true }) } catch (e) { err = e }
    expect(err).to.be.an('error').with.property('message', 'disk full')
    expect(applied).to.equal(false)
    expect(config.get().tools).to.equal(before)
    try { await sw.setAll(true) } catch (e) { err = e }
    expect(err).to.have.property('message', 'disk full')

    failWrites = false
    err = undefined
    try { await sw.update({ approvalTimeoutMs: 5 }) } catch (e) { err = e }
    expect(err).to.have.property('code', 'INVALID_CONFIG')
    expect(config.get().tools.approvalTimeoutMs).to.equal(before.approvalTimeoutMs)
  })
})
