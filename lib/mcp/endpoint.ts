// Our own MCP endpoint, the protocol half: an MCP server over the enabled tools of the registry,
// through its permission and dangerous-tool gate, one per client session. The HTTP transports, the
// sessions and the API key live with the web layer (routes/_http/mcp-transport.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { errorText } from '../core/errors.js'
import { AliasMap } from '../tools/alias.js'
import type { RegisteredTool, ToolRegistryApi } from '../tools/types.js'
import type { ChatScope } from '../chat/contracts.js'
import { loadSdk, mcpOff, SdkMissing } from './sdk.js'

/** Where an MCP client's calls run (each session's own ids aside): what decides which tools can work for it. */
const CLIENT_SCOPE: ChatScope = { userId: 'mcp', isMaster: false, via: 'mcp', conversationId: 'mcp' }

const ENDPOINT_NAME = 'lingxi-plugin'

// The server half of the SDK is loaded on first use: it is one of the heaviest imports and most
// installations never open /mcp (start time, see bench/foundation.bench.ts). It may be missing (sdk.ts):
// then no session is opened (SdkMissing) and info() says why.
let serverSdk: Promise<{
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server
  types: typeof import('@modelcontextprotocol/sdk/types.js')
}> | undefined
function loadServerSdk (): NonNullable<typeof serverSdk> {
  const off = mcpOff() // checked on every use, not only on the first load
  if (off) return Promise.reject(new SdkMissing(off))
  return (serverSdk ??= loadSdk(() => Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js')
  ])).then(([a, types]) => ({ Server: a.Server, types }), (err: unknown) => { serverSdk = undefined; throw err }))
}

export interface EndpointOptions {
  version: string
  tools: () => ToolRegistryApi | undefined
  /** Config `mcp.server.tools`: exposed tool names or `prefix*` patterns; empty = every enabled tool. */
  exposed: () => string[]
  /** Config `mcp.server.offeredTools` / `withheldTools`: the per-tool "offered on /mcp" switch (none: the defaults). */
  offer?: () => McpOffer
}

/**
 * The per-tool "offered on /mcp" switch as configured: registry names (lists, never object keys) of the
 * tools switched on that are off by default, and of those switched off that are on by default.
 */
export interface McpOffer { offeredTools: string[]; withheldTools: string[] }

const NO_SWITCHES: McpOffer = { offeredTools: [], withheldTools: [] }

/**
 * Off on /mcp until the master switches them on: `fetch_url` (requests from the bot's network), custom
 * tools (the master's HTTP requests, with his headers) and script tools (code with the bot's rights).
 * Every other tool is offered by default.
 */
function offeredByDefault (tool: Pick<RegisteredTool, 'name' | 'source'>): boolean {
  return !(tool.name === 'fetch_url' || tool.source === 'custom' || tool.source === 'script')
}

/** Whether the tool's switch offers it on /mcp (the other rules of `exposedTools` aside). */
export function offeredOnMcp (tool: Pick<RegisteredTool, 'name' | 'source'>, offer: McpOffer): boolean {
  if (offer.withheldTools.includes(tool.name)) return false
  return offeredByDefault(tool) || offer.offeredTools.includes(tool.name)
}

/** The switch lists once `tool` is set to `on` (set back to its default, its name leaves both lists). */
export function withMcpOffer (offer: McpOffer, tool: Pick<RegisteredTool, 'name' | 'source'>, on: boolean): McpOffer {
  const offeredTools = offer.offeredTools.filter((n) => n !== tool.name)
  const withheldTools = offer.withheldTools.filter((n) => n !== tool.name)
  if (on !== offeredByDefault(tool)) (on ? offeredTools : withheldTools).push(tool.name)
  return { offeredTools, withheldTools }
}

/** What the endpoint says about itself (GET /mcp/status adds the sessions and transports). */
export interface EndpointInfo {
  name: string
  version: string
  protocolVersion: string
  toolCount: number
  /** Why the endpoint cannot open sessions (the MCP SDK is not installed, sdk.ts); protocolVersion is '' then. */
  unavailable?: string
}

function matches (name: string, rules: string[]): boolean {
  return rules.some((r) => r.endsWith('*') ? name.startsWith(r.slice(0, -1)) : r === name)
}

export class McpEndpoint {
  // Registry names such as `mcp:<server>:<tool>` break the MCP tool-name rule (letters, digits, `_`,
  // `-`, `.`): clients see the same aliases the chat sends to models (lib/tools/alias.ts, stricter
  // than both rules), built over every registered tool so they are stable and match the chat's.
  private readonly aliases = new AliasMap()
  private aliasesStale = true
  /** The live MCP servers (one per client session), told when the exposed tools change. */
  private readonly servers = new Set<Server>()
  /** The exposed tools' names and descriptions as last announced. */
  private announced: string | undefined
  private checkQueued = false

  constructor (private readonly o: EndpointOptions) {}

  /**
   * The tools offered to MCP clients: enabled in the registry, switched on for /mcp (`offeredOnMcp`), in
   * the configured list, and able to work for a client (`offeredIn`: not the tools that act in a QQ
   * chat, lib/tools/README.md).
   */
  exposedTools (): RegisteredTool[] {
    const reg = this.o.tools()
    if (!reg) return []
    const rules = this.o.exposed()
    const offer = this.o.offer?.() ?? NO_SWITCHES
    const all = reg.list().filter((t) => offeredOnMcp(t, offer) && (t.offeredIn?.(CLIENT_SCOPE) ?? true))
    return rules.length ? all.filter((t) => matches(t.name, rules)) : all
  }

  private refreshAliases (reg: ToolRegistryApi): void {
    if (!this.aliasesStale) return
    this.aliases.rebuild(reg.list({ includeDisabled: true }).map((t) => t.name))
    this.aliasesStale = false
  }

  /** The exposed tools under the names clients see. */
  exposedByAlias (): Array<{ alias: string; tool: RegisteredTool }> {
    const reg = this.o.tools()
    if (!reg) return []
    this.refreshAliases(reg)
    return this.exposedTools().map((tool) => ({ alias: this.aliases.alias(tool.name), tool }))
  }

  /**
   * The registry's tools or the exposed list may have changed (registry change, config): the aliases are
   * rebuilt, and when the exposed tools differ from what was announced, every open session gets
   * `notifications/tools/list_changed`. Coalesced: many changes in one tick notify once.
   */
  toolsChanged (): void {
    this.aliasesStale = true
    if (this.checkQueued) return
    this.checkQueued = true
    queueMicrotask(() => {
      this.checkQueued = false
      if (this.servers.size === 0) { this.announced = undefined; return }
      const now = this.signature()
      if (now === this.announced) return
      this.announced = now
      for (const server of this.servers) {
        server.sendToolListChanged().catch(() => { /* a session that went away */ })
      }
    })
  }

  private signature (): string {
    return JSON.stringify(this.exposedByAlias().map(({ alias, tool }) => [alias, tool.description]))
  }

  /** A new MCP server for one client session; `sessionId` names the caller in the tool scope. */
  async createServer (sessionId: () => string | undefined): Promise<Server> {
    const { Server, types: { ListToolsRequestSchema, CallToolRequestSchema } } = await loadServerSdk()
    const server = new Server({ name: ENDPOINT_NAME, version: this.o.version }, { capabilities: { tools: { listChanged: true } } })
    if (this.servers.size === 0) this.announced = this.signature()
    this.servers.add(server)
    server.onclose = () => { this.servers.delete(server) }
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.exposedByAlias().map(({ alias, tool: t }): Tool => ({ name: alias, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'] }))
    }))
    server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
      const asked = req.params.name
      const reg = this.o.tools()
      // the alias; the registry name is accepted too (clients that listed before the aliases)
      const found = this.exposedByAlias().find(({ alias, tool }) => alias === asked || tool.name === asked)
      if (!reg || !found) {
        return { content: [{ type: 'text', text: `Tool ${asked} is not available` }], isError: true }
      }
      const sid = sessionId() ?? 'none'
      try {
        const r = await reg.call(found.tool.name, req.params.arguments ?? {}, {
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
    const base = { name: ENDPOINT_NAME, version: this.o.version, toolCount: this.exposedTools().length }
    try {
      const { types: { LATEST_PROTOCOL_VERSION } } = await loadServerSdk()
      return { ...base, protocolVersion: LATEST_PROTOCOL_VERSION }
    } catch (err) {
      if (err instanceof SdkMissing) return { ...base, protocolVersion: '', unavailable: err.message }
      throw err
    }
  }
}
