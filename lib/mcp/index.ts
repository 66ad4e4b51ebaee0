// Start-up of the MCP domain: the client manager (servers connect in the background, never blocking
// the plugin's start) and our own endpoint's MCP server over the tool registry (its HTTP transports
// are in routes/_http/mcp-transport.ts).
import { inSection } from '../config/object-paths.js'
import type { Domain, Runtime } from '../runtime.js'
import type { ToolRegistryApi } from '../tools/types.js'
import { McpEndpoint } from './endpoint.js'
import { McpManager } from './manager.js'

declare module '../runtime.js' {
  interface Services { mcp: McpManager; mcpEndpoint: McpEndpoint }
}

/** The tool registry when the tools domain runs. */
export function toolRegistryOf (rt: Runtime): ToolRegistryApi | undefined {
  return rt.optional('tools')?.registry
}

function initMcp (rt: Runtime): void {
  const manager = new McpManager({
    config: rt.config,
    bus: rt.bus,
    log: rt.log,
    clock: rt.clock,
    version: rt.version,
    tools: () => toolRegistryOf(rt)
  })
  rt.provide('mcp', manager)
  manager.start()
  const endpoint = new McpEndpoint({
    version: rt.version,
    tools: () => toolRegistryOf(rt),
    exposed: () => rt.config.get().mcp.server.tools,
    offer: () => rt.config.get().mcp.server
  })
  rt.provide('mcpEndpoint', endpoint)
  // Open /mcp sessions are told when the exposed tools change: a registry change (sources, switches)
  // or a change of the exposed list or the per-tool switch (mcp.server), of the tool switches in the configuration, or
  // of what offers web_search and draw_image (webTools.search, image.enabled: lib/tools/README.md).
  const offRegistry = rt.optional('tools')?.registry.onChange(() => { endpoint.toolsChanged() })
  const offConfig = rt.bus.on('config', (paths) => {
    if (paths.some((p) => ['mcp.server', 'tools', 'webTools.search', 'image.enabled'].some((s) => inSection(p, s)))) endpoint.toolsChanged()
  })
  // search_memory and search_knowledge are offered where they can find something (lib/tools/builtin/lookup.ts)
  const offKnowledge = rt.optional('knowledge')?.onPresenceChange(() => { endpoint.toolsChanged() })
  const offMemory = rt.optional('memory')?.onPresenceChange(() => { endpoint.toolsChanged() })
  rt.onStop.push(() => { offRegistry?.(); offConfig(); offKnowledge?.(); offMemory?.() })
  rt.onStop.push(() => manager.stop())
}

export const mcpDomain: Domain = { name: 'mcp', provides: ['mcp', 'mcpEndpoint'], needs: [], optional: ['tools', 'knowledge', 'memory'], start: initMcp }
