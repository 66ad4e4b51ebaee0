// The tool side of the skills API (routes/skills*.ts): listing, views, execution, preset limits and
// switches of the registry's tools. Switches go through the tools domain's ToolSwitches (the only
// writer of config `tools`, lib/tools/switches.ts); each change is announced on the `skills` stream.
import type { ResolvedPreset, ToolResult } from '../chat/contracts.js'
import { own } from '../core/dict.js'
import { AppError, errorText, notFound } from '../core/errors.js'
import type { Runtime } from '../runtime.js'
import { presetOffers } from '../tools/preset-filter.js'
import { toolsSection, ToolSwitches } from '../tools/switches.js'
import type { RegisteredTool, ToolRegistryApi } from '../tools/types.js'
import { adminTestContext, type DashboardUser } from '../tools/views.js'
import { toolRegistryOf } from './index.js'

export interface CategoryInfo { key: string; name: string; label: string; toolCount: number; enabled: boolean }

/** A tool in the skills API's answers. */
export interface SkillToolView {
  name: string
  description: string
  category: string
  source: string
  server?: string
  enabled: boolean
  dangerous: boolean
  risk: string
  inputSchema: RegisteredTool['inputSchema']
}

export interface ToolStats { totalTools: number; enabledTools: number; categories: number; mcpServers: number }

const LABELS: Record<string, string> = {
  skills: '技能', basic: '基础', time: '时间', user: '用户', group: '群组', message: '消息', memory: '记忆',
  knowledge: '知识库', web: '网络', file: '文件', image: '图像', system: '系统', custom: '自定义', script: '脚本', mcp: 'MCP'
}

export class ToolAdmin {
  /** The registry's own switches (given); a stand-in registry (tests) gets switches over its tool list. */
  readonly switches: ToolSwitches

  constructor (private readonly rt: Runtime, readonly registry: ToolRegistryApi, own?: ToolSwitches) {
    this.switches = own ?? new ToolSwitches({
        config: toolsSection(rt.config),
        tools: () => registry.list({ includeDisabled: true }),
        log: rt.log
      })
  }

  all (): RegisteredTool[] { return this.registry.list({ includeDisabled: true }) }
  enabled (name: string): boolean { return this.registry.isEnabled(name) }
  find (name: string): RegisteredTool | undefined { return this.registry.get(name) }

  view (t: RegisteredTool): SkillToolView {
    return {
      name: t.name,
      description: t.description,
      category: t.category,
      source: t.source,
      ...(t.server ? { server: t.server } : {}),
      enabled: this.enabled(t.name),
      dangerous: this.switches.isDangerous(t),
      risk: this.switches.riskOf(t),
      inputSchema: t.inputSchema
    }
  }

  categories (): CategoryInfo[] {
    const counts = new Map<string, number>()
    for (const t of this.all()) counts.set(t.category, (counts.get(t.category) ?? 0) + 1)
    return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, toolCount]) => ({
      key,
      name: own(LABELS, key) ?? key,
      label: own(LABELS, key) ?? key,
      toolCount,
      enabled: this.switches.isCategoryOn(key)
    }))
  }

  stats (): ToolStats {
    const all = this.all()
    const servers = new Set(all.filter((t) => t.source === 'mcp').map((t) => t.server ?? ''))
    return {
      totalTools: all.length,
      enabledTools: all.filter((t) => this.enabled(t.name)).length,
      categories: new Set(all.map((t) => t.category)).size,
      mcpServers: this.rt.optional('mcp')?.count() ?? servers.size
    }
  }

  // ---- switches (announced on the skills stream) -------------------------------------------------------
  async setTool (name: string, enabled: boolean): Promise<void> {
    if (!this.find(name)) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
    await this.switches.setTool(name, enabled)
    this.emit('tool-toggled', { tool: name, enabled })
  }

  async setCategory (key: string, enabled: boolean): Promise<void> {
    await this.switches.setCategory(key, enabled)
    this.emit('category-toggled', { category: key, enabled })
  }

  /** "Enable all" / "disable all" of ToolSwitches.setAll; answers how many tools there are. */
  async setAll (enabled: boolean): Promise<{ count: number; enabled: boolean }> {
    const result = { count: await this.switches.setAll(enabled), enabled }
    this.emit(enabled ? 'tools-enabled-all' : 'tools-disabled-all', result)
    return result
  }

  async reload (): Promise<void> {
    this.registry.refresh?.()
  }

  // ---- execution ---------------------------------------------------------------------------------------
  /** Runs a tool as the dashboard's administrator; a failure of the tool is an error result, not a throw. */
  async run (user: DashboardUser, name: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (!this.find(name)) throw notFound(`Tool ${name} does not exist`, 'TOOL_NOT_FOUND')
    try {
      return await this.registry.call(name, args, adminTestContext(user))
    } catch (err) {
      if (err instanceof AppError && err.status < 500) throw err
      this.rt.log.warn('Tool execution failed', { tool: name, error: errorText(err) })
      return { content: [{ type: 'text', text: `Tool ${name} failed: ${errorText(err).slice(0, 500)}` }], isError: true }
    }
  }

  /** POST /execute: limited to the tools an explicitly named preset offers; announces the outcome. */
  async execute (user: DashboardUser, name: string, args: Record<string, unknown>, presetId?: string): Promise<ToolResult> {
    let success = false
    try {
      const preset = presetId ? await presetToolsOf(this.rt, user, presetId) : undefined
      const tool = this.find(name)
      if (preset && tool && !presetOffers(this.switches, preset)(tool)) {
        throw new AppError('TOOL_DISABLED', `Tool ${name} is not enabled for preset ${presetId}`)
      }
      const result = await this.run(user, name, args)
      success = !result.isError
      return result
    } finally {
      this.emit('tool-executed', { toolName: name, success })
    }
  }

  /** POST /execute/batch: each call answers on its own; announces the count. */
  async executeBatch (user: DashboardUser, calls: Array<{ toolName: string; args: Record<string, unknown> }>): Promise<{ count: number; results: Array<Record<string, unknown>> }> {
    const results = await Promise.all(calls.map(async (c) => {
      try {
        const result = await this.run(user, c.toolName, c.args)
        return { toolName: c.toolName, success: !result.isError, result }
      } catch (err) {
        return { toolName: c.toolName, success: false, error: err instanceof AppError ? err.message : 'Tool execution failed' }
      }
    }))
    this.emit('batch-executed', { count: results.length })
    return { count: results.length, results }
  }

  /** The enabled tools, optionally by source, limited to what a preset offers (the chat's rule). */
  async listEnabled (user: DashboardUser, opts: { includeBuiltin: boolean; includeMcp: boolean; presetId: string }): Promise<SkillToolView[]> {
    const preset = await presetToolsOf(this.rt, user, opts.presetId)
    const offers = preset ? presetOffers(this.switches, preset) : () => true
    return this.registry.list()
      .filter((t) => (t.source !== 'builtin' || opts.includeBuiltin) && (t.source !== 'mcp' || opts.includeMcp) && offers(t))
      .map((t) => this.view(t))
  }

  private emit (name: string, data: Record<string, unknown>): void {
    this.rt.bus.emit('skills', name, { ...data, timestamp: this.rt.clock.now() })
  }
}

/**
 * The tool settings of a preset as the master would get them in chat. An unknown preset named by the
 * client is PRESET_NOT_FOUND; the implicit `default` never blocks (undefined = no preset limit).
 */
async function presetToolsOf (rt: Runtime, user: DashboardUser, presetId: string): Promise<ResolvedPreset['tools'] | undefined> {
  const resolver = rt.chat.presets
  if (!resolver) return undefined
  const scope = { userId: user.sub, isMaster: true, via: 'api' as const, conversationId: `admin:${user.sub}` }
  const preset = presetId === 'default'
    ? await resolver.resolve(scope, presetId).catch(() => undefined)
    : await resolver.resolve(scope, presetId)
  return preset?.tools
}

export function toolAdminOf (rt: Runtime): ToolAdmin | undefined {
  const registry = toolRegistryOf(rt)
  // the tools domain's registry carries its switches (through the runtime: no import of the registry)
  return registry ? new ToolAdmin(rt, registry, 'switches' in registry && registry.switches instanceof ToolSwitches ? registry.switches : undefined) : undefined
}

/** The tool admin, or SERVICE_UNAVAILABLE when no tool registry runs. */
export function requireToolAdmin (rt: Runtime): ToolAdmin {
  const admin = toolAdminOf(rt)
  if (!admin) throw new AppError('SERVICE_UNAVAILABLE', 'The tool registry is not available')
  return admin
}
