import type { ToolResult } from '../../lib/chat/contracts.js'
import type { RegisteredTool, ToolSource } from '../../lib/tools/types.js'
import { parseFrame, type SseFrame } from '../support/sse.js'

const ok = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: false })

export function fakeTool (name: string, extra: Partial<RegisteredTool> = {}): RegisteredTool {
  return {
    name,
    description: `fake ${name}`,
    category: 'fake',
    source: 'builtin',
    inputSchema: { type: 'object', properties: {} },
    risk: 'low',
    dangerous: false,
    execute: async (args) => ok(`ran ${name} ${JSON.stringify(args)}`),
    ...extra
  }
}

/** A source whose list can be changed (tells the registry like an MCP server's listChanged). */
export function fakeSource (id: string, tools: RegisteredTool[], kind: ToolSource['kind'] = 'builtin'): ToolSource & { set(t: RegisteredTool[]): void } {
  let list = tools
  const fns: Array<() => void> = []
  return { id, kind, list: () => list, onChange: (fn) => { fns.push(fn) }, set: (t) => { list = t; for (const f of fns) f() } }
}

export const frames = (text: string): SseFrame[] => text.split('\n\n').filter((f) => f.trim()).map(parseFrame)
