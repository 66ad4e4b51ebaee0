// The tools of one connected MCP server as a source of the tool registry, named `mcp:<server>:<tool>`
// so two servers with the same tool name never overwrite each other.
import { AppError } from '../core/errors.js'
import type { RegisteredTool, ToolSource } from '../tools/types.js'
import type { McpConnection } from './connection.js'

const mcpToolName = (server: string, tool: string): string => `mcp:${server}:${tool}`
const sourceId = (server: string): string => `mcp:${server}`

/** Splits `mcp:<server>:<tool>`; tool names may themselves contain colons. */
export function parseMcpToolName (name: string): { server: string; tool: string } | undefined {
  const m = /^mcp:([^:]+):(.+)$/.exec(name)
  return m ? { server: m[1] as string, tool: m[2] as string } : undefined
}

export class McpToolSource implements ToolSource {
  readonly kind = 'mcp' as const
  readonly id: string
  private readonly listeners: Array<() => void> = []
  private cache?: RegisteredTool[]

  constructor (private readonly server: string, private readonly connection: () => McpConnection | undefined) {
    this.id = sourceId(server)
  }

  list (): RegisteredTool[] {
    if (this.cache) return this.cache
    const conn = this.connection()
    const server = this.server
    this.cache = (conn?.tools ?? []).map((t) => ({
      name: mcpToolName(server, t.name),
      description: t.description,
      category: 'mcp',
      source: 'mcp' as const,
      server,
      inputSchema: { ...t.inputSchema, type: 'object' as const },
      risk: 'medium' as const,
      dangerous: false,
      execute: async (args, ctx) => {
        const c = this.connection()
        if (!c) throw new AppError('CONNECTION_FAILED', `MCP server ${server} is not connected`)
        return c.callTool(t.name, args, ctx.signal ? { signal: ctx.signal } : {})
      }
    }))
    return this.cache
  }

  onChange (fn: () => void): void { this.listeners.push(fn) }

  /** The server's tool list changed (connected, reconnected, listChanged). */
  changed (): void {
    this.cache = undefined
    for (const fn of this.listeners) {
      try { fn() } catch { /* a listener's failure is its own */ }
    }
  }
}
