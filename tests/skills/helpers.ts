// Helpers of the skills tests: wait for a bus event (never sleep) and an in-memory tool registry
// implementing the ToolRegistryApi contract (lib/tools/types.ts).
import type { EventBus } from '../../lib/core/event-bus.js'
import { PluginLogger } from '../../lib/core/logger.js'
import type { ToolResult } from '../../lib/chat/contracts.js'
import type { RegisteredTool, ToolCallContext, ToolRegistryApi, ToolSource } from '../../lib/tools/types.js'

export function nextSkillEvent (bus: EventBus, name: string, match: (d: Record<string, unknown>) => boolean = () => true, timeoutMs = 5000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { off(); reject(new Error(`no skills event ${name} within ${timeoutMs} ms`)) }, timeoutMs)
    const off = bus.on('skills', (n, d) => {
      if (n === name && match(d)) { clearTimeout(timer); off(); resolve(d) }
    })
  })
}

export function fakeTool (name: string, category: string, extra: Partial<RegisteredTool> = {}): RegisteredTool {
  return {
    name,
    description: `${name} tool`,
    category,
    source: 'builtin',
    inputSchema: { type: 'object', properties: {} },
    risk: 'low',
    dangerous: false,
    execute: async (args): Promise<ToolResult> => ({ content: [{ type: 'text', text: `${name}:${JSON.stringify(args)}` }], isError: false }),
    ...extra
  }
}

export class FakeRegistry implements ToolRegistryApi {
  readonly sources = new Map<string, ToolSource>()
  /** Disabled tools and categories come from the configuration (`tools.disabledTools`, `tools.disabledCategories`), like the real registry. */
  constructor (private readonly disabledTools: () => string[] = () => [], private readonly disabledCategories: () => string[] = () => []) {}
  readonly calls: Array<{ name: string; args: Record<string, unknown>; ctx: ToolCallContext }> = []

  addSource (source: ToolSource): void { this.sources.set(source.id, source) }
  removeSource (id: string): void { this.sources.delete(id) }
  get (name: string): RegisteredTool | undefined { return this.list({ includeDisabled: true }).find((t) => t.name === name) }
  list (opts: { includeDisabled?: boolean } = {}): RegisteredTool[] {
    const all = [...this.sources.values()].flatMap((s) => s.list())
    return opts.includeDisabled ? all : all.filter((t) => this.isEnabled(t.name))
  }
  isEnabled (name: string): boolean {
    const category = [...this.sources.values()].flatMap((s) => s.list()).find((t) => t.name === name)?.category
    return !this.disabledTools().includes(name) && !(category !== undefined && this.disabledCategories().includes(category))
  }
  async call (name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    this.calls.push({ name, args, ctx })
    const t = this.get(name)
    if (!t) throw new Error(`no tool ${name}`)
    return t.execute(args, ctx)
  }
}

const noop = (): void => {}
/** A plugin logger that writes nothing to the console (the entries still go to the bus). */
export function quietLogger (bus: EventBus): PluginLogger {
  return new PluginLogger({ host: () => ({ trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, mark: noop }), bus })
}
