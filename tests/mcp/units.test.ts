// Small pieces of the MCP domain: config spellings, PATH look-up, result conversion, key checks,
// idle session expiry of our endpoint (manual clock).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { findCommand } from '../../lib/mcp/command.js'
import { toToolResult } from '../../lib/mcp/connection.js'
import { McpEndpoint } from '../../lib/mcp/endpoint.js'
import { keyMatches, McpSessions, offeredKey } from '../../routes/_http/mcp-transport.js'
import { validateServerConfig } from '../../lib/mcp/validate.js'
import { withInferredType } from '../../lib/mcp/types.js'
import { echoSource, ManualClock, quietLog, TestRegistry } from './helpers.js'

describe('MCP units', () => {
  it('infers the type the way desktop clients write configs', () => {
    expect(withInferredType({ command: 'npx', args: ['-y', 'x'] })).to.include({ type: 'stdio' })
    expect(withInferredType({ url: 'http://a/mcp' })).to.include({ type: 'streamable-http' })
    expect(withInferredType({ type: 'streamableHttp', url: 'http://a/mcp' })).to.include({ type: 'streamable-http' })
    expect(withInferredType({ package: '@x/y' })).to.include({ type: 'npx' })
    expect(validateServerConfig({ type: 'sse', url: 'https://a/sse', headers: { Authorization: 'Bearer x' } })).to.deep.equal({ type: 'sse', url: 'https://a/sse', headers: { Authorization: 'Bearer x' } })
    expect(() => validateServerConfig({ type: 'stdio', command: 'x', timeoutMs: 10 })).to.throw(/timeoutMs must be >= 1000/)
  })

  it('finds commands on PATH or by full path', () => {
    expect(findCommand('node')).to.be.a('string')
    expect(findCommand(process.execPath)).to.equal(process.execPath)
    expect(findCommand('node', { PATH: '/nonexistent' })).to.equal(undefined)
    expect(findCommand('/nonexistent/bin/node')).to.equal(undefined)
  })

  it('converts MCP call results to the registry ToolResult', () => {
    expect(toToolResult({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AAA', mimeType: 'image/png' }] }))
      .to.deep.equal({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AAA', mimeType: 'image/png' }], isError: false })
    expect(toToolResult({ content: [{ type: 'resource', resource: { uri: 'x://y', text: 'body' } }], isError: true }))
      .to.deep.equal({ content: [{ type: 'text', text: 'body' }], isError: true })
    expect(toToolResult({ content: [], structuredContent: { sum: 3 } }).content).to.deep.equal([{ type: 'text', text: '{"sum":3}' }])
  })

  it('reads the API key from Bearer or X-API-Key and compares it in constant time', () => {
    expect(offeredKey({ authorization: 'Bearer abc' })).to.equal('abc')
    expect(offeredKey({ 'x-api-key': 'xyz', authorization: 'Bearer abc' })).to.equal('xyz')
    expect(offeredKey({ authorization: 'Basic abc' })).to.equal(undefined)
    expect(keyMatches('abc', 'abc')).to.equal(true)
    expect(keyMatches('abd', 'abc')).to.equal(false)
    expect(keyMatches('abc', '')).to.equal(false)
    expect(keyMatches(undefined, 'abc')).to.equal(false)
  })

  it('closes sessions idle for 30 minutes', async () => {
    const clock = new ManualClock()
    const reg = new TestRegistry()
    reg.addSource(echoSource())
    const ep = new McpEndpoint({ version: 't', tools: () => reg, exposed: () => [] })
    const sessions = new McpSessions({ clock, log: quietLog })
    const srv = createServer((_req, res) => { void sessions.openSse(ep, res, '/m') })
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
    try {
      const r = await fetch(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/sse`)
      const reader = (r.body as ReadableStream<Uint8Array>).getReader()
      await reader.read()
      expect((await sessions.status(ep, true)).activeSessions).to.equal(1)
      expect((await sessions.status(ep, true)).toolCount).to.equal(1)
      clock.advance(10 * 60_000)
      await sessions.sweep()
      expect((await sessions.status(ep, true)).activeSessions, 'not idle long enough').to.equal(1)
      clock.advance(25 * 60_000)
      await sessions.sweep()
      expect((await sessions.status(ep, true)).activeSessions).to.equal(0)
      const end = await reader.read()
      expect(end.done).to.equal(true)
    } finally {
      await sessions.close()
      srv.closeAllConnections()
      await new Promise<void>((resolve) => srv.close(() => resolve()))
    }
  })
})
