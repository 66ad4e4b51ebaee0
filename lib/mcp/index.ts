// Start-up of the MCP domain: the client manager (servers connect in the background, never blocking
// the plugin's start) and our own endpoint's session handler.
import type { Runtime } from '../runtime.js'
import type { ToolRegistryApi } from '../tools/types.js'
import { McpEndpoint } from './endpoint.js'
import { McpManager } from './manager.js'

declare module '../runtime.js' {
  interface Runtime { mcp: McpManager; mcpEndpoint: McpEndpoint }
}

/** The tool registry when the tools domain runs (it declares rt.tools in its own files). */
export function toolRegistryOf (rt: Runtime): ToolRegistryApi | undefined {
  return (rt as unknown as { tools?: ToolRegistryApi }).tools
}

export function initMcp (rt: Runtime): void {
  const manager = new McpManager({
    config: rt.config,
    bus: rt.bus,
    log: rt.log,
    clock: rt.clock,
    version: rt.version,
    tools: () => toolRegistryOf(rt)
  })
  rt.mcp = manager
  rt.providers.mcpServerCount = () => manager.count()
  manager.start()
  const endpoint = new McpEndpoint({
    version: rt.version,
    clock: rt.clock,
    log: rt.log,
    tools: () => toolRegistryOf(rt),
    exposed: () => rt.config.get().mcp.server.tools
  })
  rt.mcpEndpoint = endpoint
  rt.onStop.push(() => manager.stop(), () => endpoint.close())
}
