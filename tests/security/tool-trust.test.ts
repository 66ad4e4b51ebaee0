// Tool trust (issue 14): an external MCP server's tools need the master's approval unless he marks the
// server trusted; a script tool is off until the master enables it and its risk is his setting (default
// high); script tools run in a worker thread with a time limit, so a runaway never blocks the bot.
// Real HTTP against the started plugin, the real server-everything over stdio, the fake model server,
// and the standalone host for the approval in chat.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../../standalone/host.js'
import type { Running } from '../../lib/lifecycle.js'
import { stdioEverything } from '../mcp/helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { stopHost } from '../support/plugin-host.js'

const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const KEY = 'tool-trust-mcp-key-0123456789'

/** The tool messages the plugin sent back to the model in its chat requests. */
const toolMessages = (fake: FakeOpenAI): string[] =>
  fake.chatRequests().flatMap((r) => (r.body?.messages ?? []) as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => String(m.content))
/** The tool names offered to the model in a chat request. */

describe('security: tool trust (HTTP)', function () {
  this.timeout(90_000)
  let s: TestServer
  let fake: FakeOpenAI
  const clients: Client[] = []

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    s = await startTestServer()
    await s.lx.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
    expect(s.lx.rt.config.get().tools.approvalMode).to.equal('auto')
  })
  beforeEach(() => { fake.reset() })
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined)
    await s?.close()
    await fake?.close()
  })

  const chat = (message: string) => s.api('/api/chat', { method: 'POST', json: { message, userId: `u${Date.now()}` } })
  const alias = (name: string): string => s.lx.rt.need('tools').provider.aliasOf(name)

  describe('MCP servers: trust setting', () => {
    it('a new server is untrusted: its tools are dangerous; list and detail say so', async () => {
      const r = await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'ev', config: stdioEverything() } })
      expect(r.status, r.text).to.equal(201)
      expect(r.body.data).to.include({ trusted: false, trust: 'untrusted', status: 'connected' })
      const list = await s.api('/api/mcp/servers')
      expect(list.body.data.find((x: { name: string }) => x.name === 'ev')).to.include({ trusted: false, trust: 'untrusted' })
      expect((await s.api('/api/mcp/servers/ev')).body.data.config.trust).to.equal(false)
      const tool = (await s.api(`/api/tools/${encodeURIComponent('mcp:ev:echo')}`)).body.data
      expect(tool).to.include({ dangerous: true, source: 'mcp' })
    })

    it('an untrusted server\'s tool is offered (dangerous; a listed dangerous tool is not); trusted, it is not dangerous', async () => {
      const echo = alias('mcp:ev:echo')
      fake.enqueue({ toolCalls: [{ name: echo, arguments: { message: 'pwned' } }] }, { content: 'done' })
      let r = await chat('use the tool')
      expect(r.status, r.text).to.equal(200)
      // offered (the master added the server to be used); through the API the master chats himself,
      // which is his own approval (a chat user's call waits for #lx同意: the host suite below)
      expect(fake.offeredTools(0), 'offered to the model').to.include(echo)
      expect(toolMessages(fake)).to.deep.equal(['Echo: pwned'])
      // a tool the master listed as dangerous is not offered without allowDangerous, untrusted or not
      await s.lx.rt.config.update({ tools: { dangerousTools: ['mcp:ev:echo'] } })
      fake.reset()
      fake.enqueue({ toolCalls: [{ name: echo, arguments: { message: 'pwned' } }] }, { content: 'done' })
      expect((await chat('use the tool')).status).to.equal(200)
      expect(fake.offeredTools(0), 'listed dangerous: not offered').to.not.include(echo)
      expect(toolMessages(fake).join('\n')).to.include('not available').and.not.include('Echo: pwned')
      await s.lx.rt.config.update({ tools: { dangerousTools: [] } })

      const pidBefore = s.lx.rt.need('mcp').pidOf('ev')
      const put = await s.api('/api/mcp/servers/ev', { method: 'PUT', json: { trust: true } })
      expect(put.status, put.text).to.equal(200)
      expect(put.body.data).to.include({ trusted: true, trust: 'trusted', status: 'connected' })
      expect(s.lx.rt.need('mcp').pidOf('ev'), 'no reconnect for a trust change').to.equal(pidBefore)
      expect(s.lx.rt.need('tools').registry.get('mcp:ev:echo')?.dangerous, 'risk re-registered at once').to.equal(false)
      expect(s.lx.rt.config.get().mcp.servers.ev?.trust).to.equal(true)

      fake.reset()
      fake.enqueue({ toolCalls: [{ name: echo, arguments: { message: 'hello' } }] }, { content: 'done' })
      r = await chat('use the tool')
      expect(r.status, r.text).to.equal(200)
      expect(fake.offeredTools(0)).to.include(echo)
      expect(toolMessages(fake)).to.deep.equal(['Echo: hello'])
    })

    it('our own /mcp endpoint refuses an untrusted server\'s tools and runs trusted ones', async () => {
      await s.lx.rt.config.update({ mcp: { server: { apiKey: KEY } } })
      const client = new Client({ name: 'trust-test', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp/`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }))
      clients.push(client)
      expect((await client.callTool({ name: 'mcp:ev:echo', arguments: { message: 'trusted' } })).content).to.deep.equal([{ type: 'text', text: 'Echo: trusted' }])
      const put = await s.api('/api/mcp/servers/ev', { method: 'PUT', json: { trust: 'untrusted' } })
      expect(put.body.data.trusted).to.equal(false)
      const refused = await client.callTool({ name: 'mcp:ev:echo', arguments: { message: 'x' } })
      expect(refused.isError).to.equal(true)
      expect(JSON.stringify(refused.content)).to.match(/approval/).and.not.include('Echo: x')
    })

    it('trust is accepted on create (top level or in the config) and update; bad values are 400', async () => {
      const r = await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'ev2', config: { ...stdioEverything(), enabled: false }, trust: 'trusted' } })
      expect(r.status, r.text).to.equal(201)
      expect(r.body.data).to.include({ trusted: true })
      const upd = await s.api('/api/mcp/servers/ev2', { method: 'PUT', json: { config: { ...stdioEverything(), enabled: false, trust: false } } })
      expect(upd.status, upd.text).to.equal(200)
      expect(upd.body.data.trusted).to.equal(false)
      for (const body of [{ trust: 'yes' }, { trust: 1 }, { config: { ...stdioEverything(), trust: 'maybe' } }]) {
        const bad = await s.api('/api/mcp/servers/ev2', { method: 'PUT', json: body })
        expect(bad.status, JSON.stringify(body)).to.equal(400)
      }
      const badCreate = await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'ev3', config: stdioEverything(), trust: 'sure' } })
      expect(badCreate.status).to.equal(400)
      expect((await s.api('/api/mcp/servers/nope', { method: 'PUT', json: { trust: true } })).status).to.equal(404)
      await s.api('/api/mcp/servers/ev2', { method: 'DELETE' })
    })

    it('a trust edited in the configuration (YAML, PUT /api/config) applies at once without a reconnect', async () => {
      const pid = s.lx.rt.need('mcp').pidOf('ev')
      expect(s.lx.rt.need('tools').registry.get('mcp:ev:echo')?.dangerous).to.equal(true)
      await s.lx.rt.config.update({ mcp: { servers: { ev: { trust: 'trusted' } } } })
      for (let i = 0; i < 100 && s.lx.rt.need('tools').registry.get('mcp:ev:echo')?.dangerous !== false; i++) await new Promise((r) => setTimeout(r, 20))
      expect(s.lx.rt.need('tools').registry.get('mcp:ev:echo')?.dangerous).to.equal(false)
      expect((await s.api('/api/mcp/servers/ev')).body.data).to.include({ trusted: true, status: 'connected' })
      expect(s.lx.rt.need('mcp').pidOf('ev')).to.equal(pid)
      await s.api('/api/mcp/servers/ev', { method: 'PUT', json: { trust: false } })
      expect(s.lx.rt.need('tools').registry.get('mcp:ev:echo')?.dangerous).to.equal(true)
    })
  })

  describe('script tools: the master\'s switch and risk', () => {
    const src = 'export const description = "Doubles"\nexport const risk = "low"\nexport const dangerous = false\n' +
      'export const inputSchema = { type: "object", properties: { n: { type: "number" } } }\nexport function execute (a: { n: number }) { return String(a.n * 2) }\n'

    it('a new script is saved off (its data says so), high risk whatever it declares, not offered to chat', async () => {
      const r = await s.api('/api/tools/js', { method: 'POST', json: { name: 'doubler.ts', source: src } })
      expect(r.status, r.text).to.equal(201)
      expect(r.body.data).to.include({ name: 'doubler', loaded: true, enabled: false, risk: 'high', dangerous: false })
      expect(r.body.message).to.equal('ok') // style B; `enabled: false` above tells the dashboard
      const view = (await s.api('/api/tools/doubler')).body.data
      expect(view).to.include({ enabled: false, risk: 'high' })
      const file = (await s.api('/api/tools/js')).body.data.find((f: { name: string }) => f.name === 'doubler')
      expect(file).to.deep.include({ enabled: false, risk: 'high', declared: { risk: 'low', dangerous: false } })

      fake.enqueue({ toolCalls: [{ name: 'doubler', arguments: { n: 21 } }] }, { content: 'done' })
      const c = await chat('double 21')
      expect(c.status, c.text).to.equal(200)
      expect(fake.offeredTools(0)).to.not.include('doubler')
      expect(toolMessages(fake).join('\n')).to.include('not available').and.not.include('42')
      const call = await s.api('/api/tools/call', { method: 'POST', json: { name: 'doubler', args: { n: 1 } } })
      expect(call.status).to.equal(403)
    })

    it('enabled by the master, it is offered and runs in a worker; the risk is his setting', async () => {
      const r = await s.api('/api/tools/js/doubler', { method: 'PUT', json: { enabled: true } })
      expect(r.status, r.text).to.equal(200)
      expect(r.body.data).to.include({ enabled: true, risk: 'high' })
      fake.enqueue({ toolCalls: [{ name: 'doubler', arguments: { n: 21 } }] }, { content: 'done' })
      const c = await chat('double 21')
      expect(fake.offeredTools(0)).to.include('doubler')
      expect(toolMessages(fake)).to.deep.equal(['42'])

      const low = await s.api('/api/tools/js/doubler', { method: 'PUT', json: { risk: 'low', dangerous: true } })
      expect(low.body.data).to.include({ risk: 'low', dangerous: true, enabled: true })
      expect((await s.api('/api/tools/doubler')).body.data).to.include({ dangerous: true, risk: 'medium' }) // dangerous: at least medium
      await s.api('/api/tools/js/doubler', { method: 'PUT', json: { dangerous: false } })
      expect((await s.api('/api/tools/js/doubler', { method: 'PUT', json: { risk: 'extreme' } })).status).to.equal(400)
      expect(c.status).to.equal(200)
    })

    it('new code saved without enabled is off again; the generic tool switch enables it too', async () => {
      const r = await s.api('/api/tools/js/doubler', { method: 'PUT', json: { source: src.replace('a.n * 2', 'a.n * 3') } })
      expect(r.status, r.text).to.equal(200)
      expect(r.body.data.enabled).to.equal(false)
      expect(r.body.message).to.match(/disabled/)
      expect(s.lx.rt.need('tools').registry.isEnabled('doubler')).to.equal(false)
      const t = await s.api('/api/tools/doubler/toggle', { method: 'PUT', json: { enabled: true } })
      expect(t.body.data.enabled).to.equal(true)
      expect((await s.api('/api/tools/js/doubler')).body.data.enabled).to.equal(true)
      const call = await s.api('/api/tools/call', { method: 'POST', json: { name: 'doubler', args: { n: 2 } } })
      expect(call.body.data.result.content[0].text).to.equal('6')
      // Off through the generic switch, on again through the script route: both switches follow.
      await s.api('/api/tools/doubler/toggle', { method: 'PUT', json: { enabled: false } })
      expect((await s.api('/api/tools/js/doubler')).body.data.enabled).to.equal(false)
      const saved = await s.api('/api/tools/js/doubler', { method: 'PUT', json: { source: src, enabled: true } })
      expect(saved.body.data.enabled).to.equal(true)
      expect(s.lx.rt.need('tools').registry.isEnabled('doubler')).to.equal(true)
    })

    it('across the thread boundary: execute gets the arguments and the call context; module state lasts between calls', async () => {
      const counter = 'let n = 0\nexport function execute (a: { x: unknown }, ctx: { scope: { userId: string; via: string }; isMaster: boolean }) {\n' +
        '  n++\n  return { n, x: a.x, user: ctx.scope.userId, via: ctx.scope.via, master: ctx.isMaster }\n}\n'
      await s.api('/api/tools/js', { method: 'POST', json: { name: 'counter.ts', source: counter } })
      await s.api('/api/tools/js/counter', { method: 'PUT', json: { enabled: true } })
      const call = async (): Promise<Record<string, unknown>> =>
        JSON.parse((await s.api('/api/tools/call', { method: 'POST', json: { name: 'counter', args: { x: { deep: [1, 'two'] } } } })).body.data.result.content[0].text)
      expect(await call()).to.deep.equal({ n: 1, x: { deep: [1, 'two'] }, user: '10001', via: 'api', master: true })
      expect((await call()).n).to.equal(2)
    })

    it('a runaway script times out (worker stopped, clear error) while the server keeps answering', async () => {
      await s.lx.rt.config.update({ tools: { scriptTimeoutMs: 1500 } })
      const loop = 'export function execute (a: { loop?: boolean }) { if (a.loop) { while (true) {} } return "alive" }\n'
      await s.api('/api/tools/js', { method: 'POST', json: { name: 'spinner.ts', source: loop } })
      await s.api('/api/tools/js/spinner', { method: 'PUT', json: { enabled: true } })
      const started = Date.now()
      const stuck = s.api('/api/tools/call', { method: 'POST', json: { name: 'spinner', args: { loop: true } } })
      await new Promise((r) => setTimeout(r, 200))
      const t0 = Date.now()
      const health = await s.api('/api/tools/js')
      expect(health.status).to.equal(200)
      expect(Date.now() - t0, 'the event loop stays responsive').to.be.below(1000)
      const r = await stuck
      expect(Date.now() - started).to.be.at.least(1400)
      expect(r.status).to.equal(500)
      expect(r.body.message ?? r.text).to.match(/longer than 1500 ms/)
      const again = await s.api('/api/tools/call', { method: 'POST', json: { name: 'spinner', args: {} } })
      expect(again.body.data.result.content[0].text, 'a fresh worker answers the next call').to.equal('alive')
    })

    it('a script that never finishes loading is reported as a load error, not hanging the save', async () => {
      const r = await s.api('/api/tools/js', { method: 'POST', json: { name: 'hang', source: 'while (true) {}\nexport const execute = () => 1\n' } })
      expect(r.status).to.equal(201)
      expect(r.body.data.loaded).to.equal(false)
      expect(r.body.data.error).to.match(/did not load within/)
      await s.lx.rt.config.update({ tools: { scriptTimeoutMs: 10000 } })
    })
  })
})

describe('security: tool trust (approval in chat through the standalone host)', function () {
  this.timeout(90_000)
  const MASTER = '10001'
  const USER = '20002'
  const GROUP = '300'
  let host: Host
  let run: Running
  let dataDir: string
  let fake: FakeOpenAI

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    dataDir = mkdtempSync(join(tmpdir(), 'lingxi-trust-host-'))
    host = createHost({ profile: 'miao', pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
    await host.start()
    expect(host.loadErrors.map((e) => String(e.error))).to.deep.equal([])
    run = await (host.module?.lingxi as { start(): Promise<Running> }).start()
    // Defaults: dangerous tools not offered, yet an untrusted server's tools are (each call asks the master).
    await run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }],
      trigger: { group: 'at' },
      tools: { allowDangerous: false, approvalMode: 'auto', approvalAllowSessionBypass: false },
      // the master's approvals land in the group log: given as context they would taint the next turn
      // and add the asker's confirmation (tests/tools/taint-confirm.test.ts); here only trust is tested
      groupLog: { contextMessages: 0 }
    })
    const view = await run.rt.need('mcp').add('ev', stdioEverything())
    expect(view).to.include({ status: 'connected', trusted: false })
  })
  beforeEach(() => { fake.reset() })
  after(async () => {
    if (host) await stopHost(host)
    await fake?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  const echo = (): string => run.rt.need('tools').provider.aliasOf('mcp:ev:echo')

  async function askedId (since: number): Promise<string> {
    const entry = await host.waitForSend((e) => e.target === 'group' && e.text.includes('需要主人批准'), since)
    expect(entry.text).to.include('mcp:ev:echo')
    const m = /同意 (\d+)/.exec(entry.text)
    expect(m, entry.text).to.not.equal(null)
    return m![1]!
  }

  it('an untrusted server\'s tool waits for #lx同意; approved, it runs', async () => {
    fake.enqueue({ toolCalls: [{ name: echo(), arguments: { message: 'approved call' } }] }, { content: 'finished' })
    const since = host.transcript.length
    const turn = host.sendGroup(GROUP, USER, 'please echo', { at: true })
    const id = await askedId(since)
    expect(toolMessages(fake), 'nothing ran before the approval').to.deep.equal([])
    expect((await host.sendGroup(GROUP, MASTER, `#lx同意 ${id}`)).stage).to.equal('handled')
    await turn
    expect(toolMessages(fake)).to.deep.equal(['Echo: approved call'])
  })

  it('refused with #lx拒绝, it does not run', async () => {
    fake.enqueue({ toolCalls: [{ name: echo(), arguments: { message: 'refused call' } }] }, { content: 'finished' })
    const since = host.transcript.length
    const turn = host.sendGroup(GROUP, USER, 'please echo', { at: true })
    const id = await askedId(since)
    await host.sendGroup(GROUP, MASTER, `#lx拒绝 ${id}`)
    await turn
    const msgs = toolMessages(fake)
    expect(msgs).to.have.length(1)
    expect(msgs[0]).to.match(/^Error: /).and.not.include('Echo: refused call')
  })

  it('once the master trusts the server, the same call runs without asking', async () => {
    await run.rt.need('mcp').setTrust('ev', true)
    fake.enqueue({ toolCalls: [{ name: echo(), arguments: { message: 'trusted call' } }] }, { content: 'finished' })
    const since = host.transcript.length
    await host.sendGroup(GROUP, USER, 'please echo', { at: true })
    expect(host.transcript.slice(since).some((e) => e.text.includes('需要主人批准'))).to.equal(false)
    expect(toolMessages(fake)).to.deep.equal(['Echo: trusted call'])
  })
})
