// The per-tool "offered on /mcp" switch (config mcp.server.offeredTools / withheldTools, PUT
// /api/tools/:name/mcp): fetch_url, custom tools and script tools are off on our /mcp until the master
// switches them on; every other tool is on until switched off. The SDK's real Client against /mcp.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { expect } from 'chai'
import { toolRegistryOf } from '../../lib/mcp/index.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { echoSource } from './helpers.js'

const KEY = 'mcp-offer-test-key-0123456789'
const SCRIPT = 'export const description = "Doubles"\nexport const inputSchema = { type: "object", properties: { n: { type: "number" } } }\n' +
  'export function execute (a: { n: number }) { return String(a.n * 2) }\n'

describe('Our MCP endpoint: the per-tool "offered on /mcp" switch', function () {
  this.timeout(60_000)
  let s: TestServer
  let client: Client
  let waiter: (() => void) | undefined

  before(async () => {
    s = await startTestServer()
    const reg = toolRegistryOf(s.lx.rt)
    if (!reg) throw new Error('the tools domain runs in the test server')
    reg.addSource(echoSource())
    await s.lx.rt.config.update({ mcp: { server: { apiKey: KEY } } })
    const custom = await s.api('/api/tools/custom', { method: 'POST', json: { name: 'greet', description: 'Greets', action: { type: 'text', text: 'Hello' } } })
    expect(custom.status, custom.text).to.be.oneOf([200, 201])
    const script = await s.api('/api/tools/js', { method: 'POST', json: { name: 'doubler.ts', source: SCRIPT, enabled: true } })
    expect(script.status, script.text).to.be.oneOf([200, 201])
    if (!reg.isEnabled('doubler')) expect((await s.api('/api/tools/js/doubler', { method: 'PUT', json: { enabled: true } })).status).to.equal(200)
    expect(reg.isEnabled('fetch_url'), 'fetch_url enabled in the registry').to.equal(true)
    expect(reg.isEnabled('greet') && reg.isEnabled('doubler'), 'custom and script tool enabled in the registry').to.equal(true)
    client = new Client({ name: 'offer-test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp/`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }))
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { waiter?.() })
    await client.listTools() // the GET stream (server-to-client notifications) opens after initialization
  })
  after(async () => {
    await client?.close().catch(() => undefined)
    await s?.close()
  })

  const names = async (): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name)
  const notified = async (): Promise<() => Promise<void>> => {
    const got = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no tools/list_changed notification')), 10_000)
      waiter = () => { clearTimeout(timer); resolve() }
    })
    return async () => { await got }
  }
  const offer = (name: string, offered: unknown) => s.api(`/api/tools/${encodeURIComponent(name)}/mcp`, { method: 'PUT', json: { offered } })

  it('fetch_url, custom tools and script tools are not offered by default; a call to one is refused like an unknown tool', async () => {
    const listed = await names()
    expect(listed).to.include('lx_echo')
    expect(listed).to.not.include.members(['fetch_url'])
    expect(listed).to.not.include('greet')
    expect(listed).to.not.include('doubler')
    for (const name of ['greet', 'doubler', 'fetch_url']) {
      const r = await client.callTool({ name, arguments: name === 'fetch_url' ? { url: 'http://127.0.0.1:9/' } : {} })
      expect(r.isError, name).to.equal(true)
      expect(JSON.stringify(r.content)).to.include(`Tool ${name} is not available`)
    }
    expect((await s.api('/api/tools/greet')).body.data).to.include({ name: 'greet', offeredOnMcp: false })
    expect((await s.api('/api/tools/lx_echo')).body.data).to.include({ offeredOnMcp: true })
  })

  it('switched on (API or configuration), they are listed and callable, and open sessions are told', async () => {
    let wait = await notified()
    const r = await offer('greet', true)
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.deep.equal({ name: 'greet', offeredOnMcp: true })
    await wait()
    expect(await names()).to.include('greet')
    expect((await client.callTool({ name: 'greet', arguments: {} })).content).to.deep.equal([{ type: 'text', text: 'Hello' }])

    wait = await notified()
    expect((await offer('doubler', true)).body.data.offeredOnMcp).to.equal(true)
    await wait()
    expect(await names()).to.include('doubler')

    wait = await notified()
    await s.lx.rt.config.update({ mcp: { server: { offeredTools: [...s.lx.rt.config.get().mcp.server.offeredTools, 'fetch_url'] } } })
    await wait()
    expect(await names()).to.include('fetch_url')
    expect(s.lx.rt.config.get().mcp.server.offeredTools).to.have.members(['greet', 'doubler', 'fetch_url'])
  })

  it('a default-on tool can be switched off; switched back to its default, its name leaves the lists', async () => {
    let wait = await notified()
    expect((await offer('lx_echo', false)).body.data).to.deep.equal({ name: 'lx_echo', offeredOnMcp: false })
    await wait()
    expect(await names()).to.not.include('lx_echo')
    const refused = await client.callTool({ name: 'lx_echo', arguments: { text: 'x' } })
    expect(refused.isError).to.equal(true)
    expect(s.lx.rt.config.get().mcp.server.withheldTools).to.deep.equal(['lx_echo'])

    wait = await notified()
    await offer('lx_echo', true)
    for (const name of ['greet', 'doubler', 'fetch_url']) await offer(name, false)
    await wait()
    expect(s.lx.rt.config.get().mcp.server).to.deep.include({ offeredTools: [], withheldTools: [] })
    const listed = await names()
    expect(listed).to.include('lx_echo')
    expect(listed).to.not.include.members(['greet'])
    expect(listed).to.not.include('doubler')
    expect(listed).to.not.include('fetch_url')
  })

  it('the switch route: an unknown tool is 404, a body without a boolean 400', async () => {
    const unknown = await offer('no_such_tool', true)
    expect(unknown.status).to.equal(404)
    expect(unknown.body.code).to.equal('TOOL_NOT_FOUND')
    expect((await offer('greet', 'yes')).status).to.equal(400)
    expect(s.lx.rt.config.get().mcp.server.offeredTools).to.deep.equal([])
  })

  it('switches sent at the same time are all kept', async () => {
    const answers = await Promise.all([offer('greet', true), offer('doubler', true), offer('fetch_url', true), offer('lx_echo', false)])
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200, 200])
    expect(s.lx.rt.config.get().mcp.server.offeredTools).to.have.members(['greet', 'doubler', 'fetch_url'])
    expect(s.lx.rt.config.get().mcp.server.withheldTools).to.deep.equal(['lx_echo'])
    await Promise.all([offer('greet', false), offer('doubler', false), offer('fetch_url', false), offer('lx_echo', true)])
    expect(s.lx.rt.config.get().mcp.server).to.deep.include({ offeredTools: [], withheldTools: [] })
  })
})
