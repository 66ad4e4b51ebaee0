// Tool call through our /mcp (streamable HTTP, session open) for a trivial tool: p50 under 2 ms, and
// within 1.5x of the SDK's own server on plain node:http measured in the same run (same client,
// rounds interleaved so both see the same machine load).
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { toolRegistryOf } from '../lib/mcp/index.js'
import type { ToolRegistryApi } from '../lib/tools/types.js'
import { startLingxi } from '../tests/support/server.js'
import { echoSource, TestRegistry } from '../tests/mcp/helpers.js'
import { type BenchRow, percentile } from './types.js'

const KEY = 'bench-mcp-key-0123456789'
const ROUNDS = 6
const PER_ROUND = 150

function readJson (req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let s = ''
    req.on('data', (c: Buffer) => { s += c.toString() })
    req.on('end', () => { try { resolve(s ? JSON.parse(s) : undefined) } catch (e) { reject(e) } })
    req.on('error', reject)
  })
}

/** The SDK's own stateful streamable HTTP server on plain node:http with the same trivial tool and the
 * same transport settings as ours (JSON responses). */
async function sdkBaseline (): Promise<{ url: string; server: Server }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const server = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : undefined
      const sid = req.headers['mcp-session-id'] as string | undefined
      const existing = sid ? sessions.get(sid) : undefined
      if (existing) return existing.handleRequest(req, res, body)
      if (!isInitializeRequest(body)) { res.writeHead(400).end(); return }
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true, onsessioninitialized: (id) => { sessions.set(id, t) } })
      const mcp = new McpServer({ name: 'baseline', version: '1' })
      mcp.registerTool('lx_echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text: `echo:${text}` }] }))
      await mcp.connect(t)
      await t.handleRequest(req, res, body)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server }
}

async function client (url: string, headers: Record<string, string>): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' })
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return c
}

async function measure (c: Client, n: number, out: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const r = await c.callTool({ name: 'lx_echo', arguments: { text: 'x' } })
    out.push(performance.now() - t0)
    if (r.isError) throw new Error(`tool call failed: ${JSON.stringify(r.content)}`)
  }
}

export async function run (): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-bench-mcp-'))
  process.env.LINGXI_PORT = '0'
  const lx = await startLingxi({ env: { ...process.env, LINGXI_DATA_DIR: dataDir, LINGXI_QUIET: '1' } })
  const base = await sdkBaseline()
  const clients: Client[] = []
  try {
    await lx.rt.config.update({ mcp: { server: { apiKey: KEY } } })
    const reg = toolRegistryOf(lx.rt) ?? ((lx.rt as unknown as { tools: ToolRegistryApi }).tools = new TestRegistry())
    reg.addSource(echoSource('bench-echo'))
    const ours = await client(`${lx.web.localUrl}/mcp/`, { Authorization: `Bearer ${KEY}` })
    const theirs = await client(base.url, {})
    clients.push(ours, theirs)
    const warm: number[] = []
    await measure(ours, 200, warm)
    await measure(theirs, 200, warm)
    const a: number[] = []
    const b: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      await measure(ours, PER_ROUND, a)
      await measure(theirs, PER_ROUND, b)
    }
    const p50 = percentile(a, 50)
    const baseP50 = percentile(b, 50)
    const ratio = p50 / baseP50
    const r3 = (n: number): number => Math.round(n * 1000) / 1000
    return [
      { name: 'tool call via our /mcp (streamable HTTP, session open) p50', figure: r3(p50), unit: 'ms', target: '< 2', pass: p50 < 2 },
      { name: 'same call, SDK server on plain node:http p50 (reference)', figure: r3(baseP50), unit: 'ms', target: 'reference', pass: true },
      { name: 'our /mcp p50 / SDK plain node:http p50', figure: Math.round(ratio * 100) / 100, unit: 'x', target: '<= 1.5', pass: ratio <= 1.5 }
    ]
  } finally {
    for (const c of clients) await c.close().catch(() => undefined)
    await new Promise<void>((resolve) => { base.server.close(() => resolve()); base.server.closeAllConnections() })
    await lx.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
