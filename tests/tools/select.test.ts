// Many tools, one request (issue 19, point 5): with 500 enabled custom tools (stored in a temp data
// folder), a chat turn in the standalone host sends at most tools.maxToolsPerRequest of them to the
// fake model, and still the one the message needs; a channel refusing the tool list gets a message
// that says so.
import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../../standalone/host.js'
import { t } from '../../lib/i18n.js'
import type { Runtime } from '../../lib/runtime.js'
import { ToolSelector } from '../../lib/tools/select.js'
import type { RegisteredTool } from '../../lib/tools/types.js'
import { stopHost } from '../support/plugin-host.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER } from '../host/helpers.js'

const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const WORDS = ['convert', 'format', 'hash', 'encode', 'decode', 'sort', 'count', 'merge', 'split', 'round']

/** 500 custom tools: 498 fillers, a weather tool and a Chinese express-tracking tool. */
function customTools (): unknown[] {
  const now = new Date(0).toISOString()
  const tool = (name: string, description: string): unknown => ({
    name, description, category: 'custom', inputSchema: { type: 'object', properties: {} }, dangerous: false, risk: 'low',
    action: { type: 'text', text: `${name} ran` }, createdAt: now, updatedAt: now
  })
  const out = Array.from({ length: 498 }, (_, i) => tool(`util_${String(i).padStart(3, '0')}`, `Utility ${i}: ${WORDS[i % WORDS.length]} the ${WORDS[(i * 3) % WORDS.length]} values of a list`))
  out.splice(250, 0, tool('weather_lookup', 'Looks up the weather forecast of a city'))
  out.splice(400, 0, tool('express_track', '查询快递物流信息（快递单号）'))
  return out
}

const toolNames = (body: { tools?: Array<{ function: { name: string } }> }): string[] => (body.tools ?? []).map((x) => x.function.name)

describe('tools: at most tools.maxToolsPerRequest tools per chat request', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let host: Host
  let dataDir: string
  let rt: Runtime
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-select-'))
    writeFileSync(join(dataDir, 'custom-tools.json'), JSON.stringify({ tools: customTools() }))
    host = createHost({ profile: 'trss', pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    rt = (await (host.module as { lingxi: { start(): Promise<{ rt: Runtime }> } }).lingxi.start()).rt
    await rt.config.update({ language: 'en', channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }], trigger: { private: 'always', group: 'at', prefix: 'lx', randomRate: 0 } })
  })
  after(async () => {
    await stopHost(host)
    await fake.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  beforeEach(() => { fake.reset() })
  const lastBody = (): { tools?: Array<{ function: { name: string } }> } => fake.chatRequests().at(-1)?.body

  it('500 enabled tools: the request carries the default cap (64) and the tool the message needs, which runs', async () => {
    const reg = rt.need('tools').registry
    expect(reg.list().length).to.be.at.least(500)
    expect(rt.config.get().tools.maxToolsPerRequest).to.equal(64)
    fake.enqueue({ toolCalls: [{ name: 'weather_lookup', arguments: {} }] }, { content: 'sunny' })
    await host.sendPrivate('30001', 'What is the weather forecast for Beijing tomorrow?')
    const first = fake.chatRequests()[0]?.body as { tools?: Array<{ function: { name: string } }> }
    const names = toolNames(first)
    expect(names.length).to.equal(64)
    expect(names).to.include('weather_lookup')
    // the tool ran (the call was checked against the same selection) and its result went back
    const second = JSON.stringify(fake.chatRequests()[1]?.body.messages)
    expect(second).to.include('weather_lookup ran')
    expect(host.transcript.at(-1)?.text).to.equal('sunny')
  })

  it('a Chinese message finds its tool; the last turns count too; the cap and always-on tools are configurable', async () => {
    await rt.config.update({ tools: { maxToolsPerRequest: 10, alwaysOnTools: ['util_123'] } })
    try {
      await host.sendPrivate('30002', '帮我查一下这个快递到哪了')
      let names = toolNames(lastBody())
      expect(names.length).to.equal(10)
      expect(names).to.include('util_123')
      // sent in the registry's order, whatever ranked first: the tool list opens every cached request (lib/tools/provider.ts)
      const order = rt.need('tools').registry.list().map((t) => t.name)
      const at = names.map((n) => order.indexOf(n))
      expect(at).to.deep.equal([...at].sort((a, b) => a - b))
      expect(names).to.include('express_track')
      expect(names).to.not.include('weather_lookup')
      // a follow-up without the words: the previous turn still brings the weather tool
      await host.sendPrivate('30003', 'weather forecast of Shanghai please')
      await host.sendPrivate('30003', 'and for tomorrow?')
      names = toolNames(lastBody())
      expect(names.length).to.equal(10)
      expect(names).to.include('weather_lookup')
    } finally {
      await rt.config.update({ tools: { maxToolsPerRequest: 64, alwaysOnTools: [] } })
    }
  })

  it('a channel refusing the tool list (HTTP 400 about tools): the user is told so, not a generic error', async () => {
    fake.enqueue({ status: 400, errorMessage: "Invalid 'tools': array too long. Expected an array with maximum length 128" })
    await host.sendPrivate('30004', 'hello there')
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'chat.toolsRefused'))
    // another 400 is still the generic model error
    fake.enqueue({ status: 400, errorMessage: 'Invalid value for temperature' })
    await host.sendPrivate('30004', 'hello again')
    expect(host.transcript.at(-1)?.text).to.equal(t('en', 'chat.modelError'))
  })
})

describe('tools: ToolSelector', () => {
  const tool = (name: string, description: string): RegisteredTool => ({
    name, description, category: 'c', source: 'builtin', inputSchema: { type: 'object' }, risk: 'low', dangerous: false,
    execute: async () => ({ content: [], isError: false })
  })
  const all = Array.from({ length: 20 }, (_, i) => tool(`t${i}`, `filler ${i}`)).concat(tool('mcp:srv:read_file', 'Reads a file'))

  it('keeps an offered list within the cap whole and in order; only offered tools are chosen', () => {
    const sel = new ToolSelector()
    const offered = all.slice(0, 5)
    expect(sel.select(offered, () => all, { input: 'read file', pinned: [], max: 5 })).to.equal(offered)
    const picked = sel.select(all.slice(0, 19), () => all, { input: 'read file', pinned: ['t3', 'nope'], max: 4 }).map((x) => x.name)
    expect(picked).to.deep.equal(['t3', 't0', 't1', 't2'])
  })

  it('finds a tool by the words of its registry name; a rebuilt index sees new tools', () => {
    const sel = new ToolSelector()
    expect(sel.select(all, () => all, { input: 'please read the file', pinned: [], max: 3 })[0]?.name).to.equal('mcp:srv:read_file')
    const more = all.concat(tool('translate_text', 'Translates text'))
    expect(sel.select(more, () => more, { input: 'translate', pinned: [], max: 3 }).map((x) => x.name)).to.not.include('translate_text')
    sel.invalidate()
    expect(sel.select(more, () => more, { input: 'translate', pinned: [], max: 3 })[0]?.name).to.equal('translate_text')
  })
})

describe('tools: ToolSelector across languages', () => {
  const tool = (name: string, description: string, category = 'custom'): RegisteredTool => ({
    name, description, category, source: 'builtin', inputSchema: { type: 'object' }, risk: 'low', dangerous: false,
    execute: async () => ({ content: [], isError: false })
  })
  const WORDS = ['convert', 'format', 'hash', 'encode', 'decode', 'sort', 'count', 'merge', 'split', 'round']
  /** 101 tools: 97 English fillers, an English `add`, a weather tool, a Chinese-described translator, `util_list`. */
  const hundred = (): RegisteredTool[] => {
    const out = Array.from({ length: 97 }, (_, i) => tool(`util_${String(i).padStart(3, '0')}`, `Utility ${i}: ${WORDS[i % WORDS.length]} the ${WORDS[(i * 3) % WORDS.length]} values of a list`))
    out.splice(60, 0, tool('add', 'Adds two numbers and returns the sum'))
    out.splice(70, 0, tool('mcp:wx:get_forecast', 'Get the weather forecast for a city', 'mcp'))
    out.splice(80, 0, tool('fanyi', '把一段文字翻译成另一种语言'))
    out.push(tool('util_list', 'Utility helper of a list'))
    return out
  }

  it('a Chinese question finds a tool described in English (and the other way round)', () => {
    const all = hundred()
    const sel = new ToolSelector()
    const names = (input: string): string[] => sel.select(all, () => all, { input, pinned: [], max: 10 }).map((x) => x.name)
    expect(names('帮我算一下 20 加 22')).to.include('add')
    expect(names('明天上海的天气怎么样')).to.include('mcp:wx:get_forecast')
    expect(names('please translate this sentence into French')).to.include('fanyi')
    // the English fillers are not brought in by the words of the question alone
    expect(names('帮我算一下 20 加 22')[0]).to.equal('add')
  })

  it('keeps the tools the message names (registry name, model-facing alias or bare MCP name) and the pinned ones', () => {
    const all = hundred()
    const sel = new ToolSelector()
    const pick = (input: string, pinned: string[] = []): string[] => sel.select(all, () => all, { input, pinned, max: 3 }).map((x) => x.name)
    // its words are everywhere, other tools match the rest of the message better: kept because it is named
    expect(pick('run util_list to sort, merge and split the values')).to.include('util_list')
    expect(pick('use mcp_wx_get_forecast for Paris')).to.include('mcp:wx:get_forecast')
    expect(pick('call get_forecast.')).to.include('mcp:wx:get_forecast')
    const picked = pick('sort the values with util_list or util_list, then merge and split', ['util_050'])
    expect(picked[0]).to.equal('util_050')
    expect(picked[1]).to.equal('util_list')
  })

  it('logs once per turn what the cap left out: counts and names, capped', () => {
    const all = hundred()
    const lines: Array<{ msg: string; meta: Record<string, unknown> | undefined }> = []
    const sel = new ToolSelector({ log: { info: (msg: string, meta?: Record<string, unknown>) => { lines.push({ msg, meta }) } } })
    const turn = {}
    const q = { input: '帮我算一下 20 加 22', pinned: [], max: 10, turn }
    const picked = sel.select(all, () => all, q)
    sel.select(all, () => all, q) // the same turn again (a later round, a call's check): not logged again
    expect(lines).to.have.length(1)
    const line = lines[0] as { msg: string; meta: Record<string, unknown> }
    expect(line.msg).to.match(/10 of 101/)
    expect(line.meta.offered).to.equal(101)
    expect(line.meta.sent).to.equal(10)
    expect(line.meta.leftOut).to.equal(91)
    const names = line.meta.leftOutNames as string[]
    expect(names.length).to.be.at.most(21)
    expect(names).to.not.include('add')
    for (const n of names.slice(0, -1)) expect(picked.map((x) => x.name)).to.not.include(n)
    expect(names.at(-1)).to.match(/more/)
    // another turn is logged; a list within the cap is not
    sel.select(all, () => all, { ...q, turn: {} })
    expect(lines).to.have.length(2)
    sel.select(all.slice(0, 5), () => all, { ...q, turn: {} })
    expect(lines).to.have.length(2)
  })
})
