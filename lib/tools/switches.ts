// Tool switches: the only writer of the `tools` configuration section (see README.md "Switches").
// Reads: whether a tool or a category is on, which tools are dangerous and whether a tool may be
// offered in chat. Writes: one tool, a category, a set of tools, all tools, the dangerous list and
// any other `tools` field (with a rollback when applying the change fails).
//
// "Enable all" means one thing: every built-in, custom and MCP tool is on, i.e. the master switch
// `tools.enabled` is on and the disabled lists (`disabledTools`, `disabledCategories`) and the allow
// lists (`allowedTools`, `enabledCategories`) are cleared. Script tools keep their own switch
// (scripts.ts): "enable all" and category switches never turn a script on; only the tool's own
// switch does. "Disable all" puts every tool in `disabledTools`.
import type { EventKind } from '../config/group-settings.js'
import type { Config } from '../config/schema.js'
import { AppError, errorText, notFound } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import type { RegisteredTool, SourceSwitch, ToolRisk } from './types.js'

export type ToolsConfig = Config['tools']
export type ToolsPatch = Partial<ToolsConfig>

/** The `tools` section's reader and writer (`rt.config.writer('tools')`, lib/config/service.ts). */
export interface ToolsConfigStore {
  get(): ToolsConfig
  update(patch: ToolsPatch): Promise<unknown>
}

/** What `toolsSection` needs of ConfigService (the bench and unit tests give a reader-only stand-in). */
export interface ConfigWithWriter {
  get(): { tools: ToolsConfig }
  writer(name: 'tools'): { update(patch: ToolsPatch): Promise<unknown> }
}

/** The `tools` section of the configuration: read fresh on each use, written through its section writer. */
export function toolsSection (config: ConfigWithWriter): ToolsConfigStore {
  return { get: () => config.get().tools, update: (patch) => config.writer('tools').update(patch) }
}

export interface SwitchDeps {
  config: ToolsConfigStore
  /** Every tool, switched off or not (category and "all" switches act on these). */
  tools: () => RegisteredTool[]
  /** The own switch of the source a tool comes from, if that source keeps one. */
  ownSwitch?: (t: RegisteredTool) => SourceSwitch | undefined
  log?: Pick<PluginLogger, 'warn'>
}

/** Sets derived from one config object (rebuilt when the config object changes). */
interface Derived { cfg: ToolsConfig; disabled: Set<string>; allowed: Set<string>; enabledCats: Set<string>; disabledCats: Set<string>; dangerous: Set<string> }

export class ToolSwitches {
  private derived: Derived | undefined

  constructor (private readonly deps: SwitchDeps) {}

  // ---- reading ---------------------------------------------------------------------------------------
  private d (): Derived {
    const cfg = this.deps.config.get()
    if (this.derived?.cfg === cfg) return this.derived
    this.derived = {
      cfg,
      disabled: new Set(cfg.disabledTools),
      allowed: new Set(cfg.allowedTools),
      enabledCats: new Set(cfg.enabledCategories),
      disabledCats: new Set(cfg.disabledCategories),
      dangerous: new Set(cfg.dangerousTools)
    }
    return this.derived
  }

  get config (): ToolsConfig { return this.d().cfg }

  isCategoryOn (category: string): boolean {
    const d = this.d()
    if (d.disabledCats.has(category)) return false
    return d.enabledCats.size === 0 || d.enabledCats.has(category)
  }

  /** On: master switch, the tool's own source switch, the allow list, the tool and its category. */
  isOn (t: RegisteredTool): boolean {
    const d = this.d()
    if (!d.cfg.enabled || d.disabled.has(t.name)) return false
    if (this.deps.ownSwitch?.(t)?.isOn(t.name) === false) return false
    if (d.allowed.size > 0 && !d.allowed.has(t.name)) return false
    return this.isCategoryOn(t.category)
  }

  /** Dangerous by itself or listed by the master in `tools.dangerousTools`. */
  isDangerous (t: RegisteredTool): boolean { return t.dangerous || this.d().dangerous.has(t.name) }

  /** Effective risk: the configured risk lists override the tool's own; dangerous tools are at least medium. */
  riskOf (t: RegisteredTool): ToolRisk {
    const c = this.d().cfg
    if (c.approvalHighRiskTools.includes(t.name)) return 'high'
    if (c.approvalMediumRiskTools.includes(t.name)) return 'medium'
    if (c.approvalLowRiskTools.includes(t.name)) return 'low'
    return this.isDangerous(t) && t.risk === 'low' ? 'medium' : t.risk
  }

  /** Offered in chat: not dangerous, or dangerous only for its untrusted server (asks the master), or allowed. */
  offerable (t: RegisteredTool, allowDangerous: boolean): boolean {
    return allowDangerous || !this.isDangerous(t) || (t.untrusted === true && !this.d().dangerous.has(t.name))
  }

  // ---- writing ---------------------------------------------------------------------------------------
  private find (name: string): RegisteredTool {
    const t = this.deps.tools().find((x) => x.name === name)
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    return t
  }

  /** One tool. Its source's own switch (script tools) follows; enabling adds it to a non-empty allow list. */
  async setTool (name: string, enabled: boolean): Promise<void> {
    const tool = this.find(name)
    await this.deps.ownSwitch?.(tool)?.setOn(name, enabled)
    const c = this.config
    const disabled = new Set(c.disabledTools)
    if (enabled) disabled.delete(name); else disabled.add(name)
    const patch: ToolsPatch = { disabledTools: [...disabled] }
    if (enabled && c.allowedTools.length > 0 && !c.allowedTools.includes(name)) patch.allowedTools = [...c.allowedTools, name]
    await this.write(patch)
  }

  /**
   * A category with at least one tool (else NOT_FOUND); switching it on also lifts the per-tool switches
   * of its tools (not a script's own switch). Answers how many tools it has.
   */
  async setCategory (category: string, enabled: boolean): Promise<number> {
    const names = new Set(this.deps.tools().filter((t) => t.category === category).map((t) => t.name))
    if (names.size === 0) throw notFound(`Category ${category} does not exist`)
    const c = this.config
    const off = new Set(c.disabledCategories)
    const on = new Set(c.enabledCategories)
    if (enabled) { off.delete(category); if (on.size > 0) on.add(category) } else { off.add(category); on.delete(category) }
    const disabledTools = enabled ? c.disabledTools.filter((n) => !names.has(n)) : c.disabledTools
    await this.write({ disabledCategories: [...off], enabledCategories: [...on], disabledTools })
    return names.size
  }

  /** A set of tools at once (e.g. every built-in tool); enabling also lifts their categories' switches. */
  async setTools (tools: RegisteredTool[], enabled: boolean): Promise<number> {
    const c = this.config
    const set = new Set(c.disabledTools)
    for (const t of tools) { if (enabled) set.delete(t.name); else set.add(t.name) }
    const patch: ToolsPatch = { disabledTools: [...set] }
    if (enabled) {
      const cats = new Set(tools.map((t) => t.category))
      patch.disabledCategories = c.disabledCategories.filter((x) => !cats.has(x))
    }
    await this.write(patch)
    return tools.length
  }

  /** Every tool on or off (the meaning is in this file's header comment); answers how many tools there are. */
  async setAll (enabled: boolean): Promise<number> {
    const tools = this.deps.tools()
    await this.write(enabled
      ? { enabled: true, disabledTools: [], disabledCategories: [], enabledCategories: [], allowedTools: [] }
      : { disabledTools: tools.map((t) => t.name) })
    return tools.length
  }

  /** The probability of reacting to each event type: its own (`tools.eventProbabilities`), else the default. */
  eventProbabilities (): Record<EventKind, number> {
    const c = this.config
    const of = (k: EventKind): number => c.eventProbabilities[k] ?? c.eventProbability
    return { poke: of('poke'), join: of('join'), recall: of('recall') }
  }

  /** The default event probability and/or those of single event types (the others keep theirs). */
  async setEventProbabilities (patch: { probability?: number | undefined; events?: Partial<Record<EventKind, number | undefined>> | undefined }): Promise<void> {
    const events = Object.fromEntries(Object.entries(patch.events ?? {}).filter(([, v]) => v !== undefined)) as Partial<Record<EventKind, number>>
    await this.write({
      ...(patch.probability !== undefined ? { eventProbability: patch.probability } : {}),
      ...(Object.keys(events).length ? { eventProbabilities: events } : {})
    })
  }

  /** Adds or removes one name in the master's dangerous list. */
  async setDangerous (name: string, dangerous: boolean): Promise<void> {
    const set = new Set(this.config.dangerousTools)
    if (dangerous) set.add(name); else set.delete(name)
    await this.write({ dangerousTools: [...set] })
  }

  /**
   * Writes any fields of the section, then runs `apply` (e.g. refreshing the built-in tools). When
   * `apply` throws, the previous values of the fields written are restored, `apply` runs again, and
   * the call fails with INTERNAL_ERROR. Answers the section as it is afterwards.
   */
  async update (patch: ToolsPatch, apply: () => void | Promise<void> = () => {}): Promise<ToolsConfig> {
    const before = this.config
    const previous: ToolsPatch = Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof ToolsConfig]]))
    await this.write(patch)
    try {
      await apply()
    } catch (err) {
      this.deps.log?.warn('Applying the tools configuration failed; configuration rolled back', { error: errorText(err) })
      await this.write(previous)
      try { await apply() } catch (again) { this.deps.log?.warn('Applying the restored tools configuration failed too', { error: errorText(again) }) }
      throw new AppError('INTERNAL_ERROR', 'Applying the tools configuration failed; the configuration was rolled back')
    }
    return this.config
  }

  private async write (patch: ToolsPatch): Promise<void> {
    await this.deps.config.update(patch)
  }
}
