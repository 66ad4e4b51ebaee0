// No path crosses a memory's scope (README "Memory", lib/memory/scope.ts): besides the prompt and search_memory
// (tests/memory/provenance.test.ts), the why record of an answer in a group lists none of the asker's private
// memories nor another group's, and our /mcp endpoint (the SDK's real client) reaches no user's memory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'

const KEY = 'memory-scope-mcp-key-0123456789'

describe('memory: no path crosses a scope (why record, /mcp)', function () {
  this.timeout(60_000)
  let s: TestServer
  let fake: FakeOpenAI
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    s = await startTestServer()
    await s.lx.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      mcp: { server: { apiKey: KEY } },
      memory: { privateInGroups: false, summarySize: 0 }
    })
    const mem = s.lx.rt.need('memory')
    const at = s.lx.rt.clock.now()
    await mem.add({ userId: 'u-scope', content: 'private: allergic to peanuts', origin: { kind: 'stated', chat: 'private', at } })
    await mem.add({ userId: 'u-scope', content: 'group 71: the group treasurer', groupId: '71', origin: { kind: 'stated', chat: 'group', at } })
    await mem.add({ userId: 'u-scope', content: 'group 72: plays the peanut game', groupId: '72', origin: { kind: 'stated', chat: 'group', at } })
  })
  after(async () => { await s?.close(); await fake?.close() })

  it('the why record of an answer in a group lists that group\'s memory only', async () => {
    const r = await s.api('/api/chat', { method: 'POST', json: { message: 'peanut treasurer?', userId: 'u-scope', groupId: '71' } })
    expect(r.status, r.text).to.equal(200)
    const why = await s.api(`/api/chat/why/${encodeURIComponent(r.body.data.whyId as string)}`)
    expect(why.status, why.text).to.equal(200)
    const used = (why.body.data.memories as Array<{ content: string }>).map((m) => m.content)
    expect(used).to.deep.equal(['group 71: the group treasurer'])
    // in a private chat: the private one, no group's
    const p = await s.api('/api/chat', { method: 'POST', json: { message: 'peanut treasurer?', userId: 'u-scope' } })
    const pw = await s.api(`/api/chat/why/${encodeURIComponent(p.body.data.whyId as string)}`)
    expect((pw.body.data.memories as Array<{ content: string }>).map((m) => m.content)).to.deep.equal(['private: allergic to peanuts'])
  })

  it('/mcp: search_memory is not offered to an MCP client, and a call finds no user\'s memory', async () => {
    const client = new Client({ name: 'scope-test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp/`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }))
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).to.not.include('search_memory')
      const r = await client.callTool({ name: 'search_memory', arguments: { query: 'peanut' } }).catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }))
      expect(JSON.stringify(r)).to.not.include('allergic').and.not.include('treasurer').and.not.include('peanut game')
    } finally { await client.close().catch(() => undefined) }
  })
})
