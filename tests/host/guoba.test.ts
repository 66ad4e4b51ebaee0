// guoba.support.js as guoba-plugin loads it: a dynamic import of the file in the plugin folder (with a
// cache-busting query), then supportGuoba(); the plugin itself loaded through index.js by the standalone host.
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { getPath } from '../../lib/config/object-paths.js'
import { configJsonSchema } from '../../lib/config/schema-json.js'
import type { GuobaResult, GuobaSchema } from '../../lib/config/guoba.js'
import type { Running } from '../../lib/lifecycle.js'
import { createHost, type Host } from '../../standalone/host.js'
import { stopHost } from '../support/plugin-host.js'
import { MASTER } from './helpers.js'

const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface Support {
  pluginInfo: { name: string; title: string }
  configInfo: {
    schemas: GuobaSchema[]
    getConfigData(): Promise<Record<string, unknown>>
    setConfigData(data: Record<string, unknown>, ctx: { Result: GuobaResult }): Promise<unknown>
  }
}

/** guoba's Result (its shape: code 0 and the result, or code -1 with the reason as message). */
class Result {
  constructor (readonly code: number, readonly result: unknown, readonly message: string) {}
  static ok (result: unknown, message = 'ok'): Result { return new Result(0, result, message) }
  static error (reason: string, result: unknown = {}): Result { return new Result(-1, result, reason) }
}

/** The schema node at a dotted path of the configuration's JSON Schema. */
function nodeAt (path: string): Record<string, unknown> {
  let node = configJsonSchema()
  for (const k of path.split('.')) node = (node.properties as Record<string, Record<string, unknown>>)[k]!
  return node
}

describe('guoba.support.js', function () {
  this.timeout(60_000)
  let host: Host
  let dataDir: string
  let support: Support
  let run: Running

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-guoba-'))
    host = createHost({ profile: 'trss', pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    const lingxi = host.module?.lingxi as { running(): Promise<Running> | undefined }
    run = (await lingxi.running())!
    const file = pathToFileURL(join(PLUGIN_ROOT, 'guoba.support.js')).href
    const mod = await import(`${file}?${Date.now()}`) as { supportGuoba(): Support }
    support = mod.supportGuoba()
  })
  after(async () => {
    await stopHost(host)
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('names the plugin and links the running dashboard', () => {
    expect(support.pluginInfo).to.include({ name: 'lingxi-plugin', title: '灵犀' })
    const link = support.configInfo.schemas.find((s) => s.component === 'Divider' && s.label.includes('http'))
    expect(link?.label).to.include(run.baseUrls()[0])
  })

  it('labels every field with the Chinese title of the configuration schema, and offers no secret', () => {
    const fields = support.configInfo.schemas.filter((s) => s.field !== undefined)
    expect(fields.length).to.be.greaterThan(50) // at least three makes guoba show it in its menu
    for (const f of fields) {
      const node = nodeAt(f.field!)
      expect(f.label, f.field).to.equal(node['x-title-zh'])
      expect(node['x-secret'], f.field).to.equal(undefined)
      expect(node.type, f.field).to.not.be.oneOf(['object', 'array'])
    }
    const byField = new Map(fields.map((f) => [f.field, f]))
    expect(byField.get('debug')?.component).to.equal('Switch')
    expect(byField.get('language')).to.deep.include({ component: 'Select', componentProps: { options: [{ label: 'zh-CN', value: 'zh-CN' }, { label: 'en', value: 'en' }] } })
    expect(byField.get('memory.maxMemoriesInPrompt')?.componentProps).to.include({ min: 0, max: 100, precision: 0 })
    expect(byField.has('tts.apiKey')).to.equal(false)
    // lists and nested settings are named in a note pointing at the dashboard
    expect(support.configInfo.schemas.some((s) => s.component === 'Divider' && s.label.includes(nodeAt('channels')['x-title-zh'] as string))).to.equal(true)
  })

  it('getConfigData answers the running configuration', async () => {
    const data = await support.configInfo.getConfigData()
    const cfg = run.rt.config.get()
    for (const f of support.configInfo.schemas.filter((s) => s.field !== undefined)) {
      const keys = f.field!.split('.')
      expect(getPath(data, keys), f.field).to.deep.equal(getPath(cfg, keys))
    }
  })

  it('setConfigData saves a valid change through the configuration service', async () => {
    const before = run.rt.config.get().memory.maxMemoriesInPrompt
    const form = { 'memory.maxMemoriesInPrompt': before + 3, debug: run.rt.config.get().debug }
    const r = await support.configInfo.setConfigData(form, { Result }) as Result
    expect(r.code, r.message).to.equal(0)
    expect(r.result).to.deep.equal({ updated: ['memory.maxMemoriesInPrompt'] })
    expect(run.rt.config.get().memory.maxMemoriesInPrompt).to.equal(before + 3)
    expect((await support.configInfo.getConfigData()).memory).to.include({ maxMemoriesInPrompt: before + 3 })
  })

  it('setConfigData refuses an invalid value with the field named, and changes nothing', async () => {
    const snapshot = JSON.stringify(run.rt.config.get())
    const r = await support.configInfo.setConfigData({ 'memory.maxMemoriesInPrompt': 1000, debug: true }, { Result }) as Result
    expect(r.code).to.equal(-1)
    expect(r.message).to.include('「提示词中的记忆条数」').and.include('memory.maxMemoriesInPrompt')
    expect((r.result as { errors: Array<{ path: string }> }).errors[0]?.path).to.equal('memory.maxMemoriesInPrompt')
    expect(JSON.stringify(run.rt.config.get())).to.equal(snapshot)

    const other = await support.configInfo.setConfigData({ 'tts.apiKey': 'sk-x' }, { Result }) as Result
    expect(other.code).to.equal(-1)
    expect(JSON.stringify(run.rt.config.get())).to.equal(snapshot)
  })
})
