// Our own MCP endpoint, the protocol half: an MCP server over the enabled tools of the registry,
// through its permission and dangerous-tool gate, one per client session. The HTTP transports, the
// sessions and the API key live with the web layer (routes/_http/mcp-transport.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { errorText } from '../core/errors.js'
import type { RegisteredTool, ToolRegistryApi } from '../tools/types.js'

const ENDPOINT_NAME = 'lingxi-plugin'

// The server half of the SDK is loaded on first use: it is one of the heaviest imports and most
// installations never open /mcp (start time, see bench/foundation.bench.ts).
let serverSdk: Promise<{
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server
  types: typeof import('@modelcontextprotocol/sdk/types.js')
}> | undefined
function loadServerSdk (): NonNullable<typeof serverSdk> {
  return (serverSdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js')
  ]).then(([a, types]) => ({ Server: a.Server, types })))
}

export interface EndpointOptions {
  version: string
  tools: () => ToolRegistryApi | undefined
  /** Config `mcp.server.tools`: exposed tool names or `prefix*` patterns; empty = every enabled tool. */
  exposed: () => string[]
}

/** What the endpoint says about itself (GET /mcp/status adds the sessions and transports). */
export interface EndpointInfo {
  name: string
  version: string
  protocolVersion: string
  toolCount: number
}

function matches (name: string, rules: string[]): boolean {
  return rules.some((r) => r.endsWith('*') ? name.startsWith(r.slice(0, -1)) : r === name)
}

export class McpEndpoint {
  constructor (private readonly o: EndpointOptions) {}

  /** The tools offered to MCP clients: enabled in the registry and in the configured list. */
  exposedTools (): RegisteredTool[] {
    const reg = this.o.tools()
    if (!reg) return []
    const rules = this.o.exposed()
    const all = reg.list()
    return rules.length ? all.filter((t) => matches(t.name, rules)) : all
  }

  /** A new MCP server for one client session; `sessionId` names the caller in the tool scope. */
  async createServer (sessionId: () => string | undefined): Promise<Server> {
    const { Server, types: { ListToolsRequestSchema, CallToolRequestSchema } } = await loadServerSdk()
    const server = new Server({ name: ENDPOINT_NAME, version: this.o.version }, { capabilities: { tools: { listChanged: false } } })
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.exposedTools().map((t): Tool => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'] }))
    }))
    server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
      const name = req.params.name
      const reg = this.o.tools()
      if (!reg || !this.exposedTools().some((t) => t.name === name)) {
        return { content: [{ type: 'text', text: `Tool ${name} is not available` }], isError: true }
      }
      const sid = sessionId() ?? 'none'
      try {
        const r = await reg.call(name, req.params.arguments ?? {}, {
          // An MCP client holds the API key the master set: an administrator, not the master, so
          // dangerous tools stay behind the approval gate.
          scope: { userId: `mcp:${sid}`, isMaster: false, via: 'mcp', conversationId: `mcp:${sid}` },
          userPermission: 'admin',
          isMaster: false,
          signal: extra.signal
        })
        return { content: r.content, isError: r.isError }
      } catch (err) {
        return { content: [{ type: 'text', text: errorText(err) }], isError: true }
      }
    })
    return server
  }

  async info (): Promise<EndpointInfo> {
    const { types: { LATEST_PROTOCOL_VERSION } } = await loadServerSdk()
    return { name: ENDPOINT_NAME, version: this.o.version, protocolVersion: LATEST_PROTOCOL_VERSION, toolCount: this.exposedTools().length }
  }
}
