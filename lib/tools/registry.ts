// The live tool registry (issue 5): sources (built-in, custom, script, one per MCP server) plug in;
// switches, dangerous tools and the approval configuration come from config `tools` (spec 2.11).
// Listing is cached and rebuilt only when a source changes, so 500 tools list in well under 5 ms.
import { randomUUID } from 'node:crypto'
import type { ToolResult } from '../chat/contracts.js'
import { AppError, errorText } from '../core/errors.js'
import { redactDeep } from '../core/redact.js'
import type { Runtime } from '../runtime.js'
import { ApprovalGate, riskAtMost } from './approval.js'
import { ToolLog, type ToolLogEntry } from './log.js'
import type { RegisteredTool, ToolCallContext, ToolRegistryApi, ToolRisk, ToolSource } from './types.js'

type ToolsConfig = Runtime['config'] extends { get(): infer C } ? C extends { tools: infer T } ? T : never : never

/** Sets derived from one config object (rebuilt when the config object changes). */
interface Switches { cfg: ToolsConfig; disabled: Set<string>; allowed: Set<string>; enabledCats: Set<string>; disabledCats: Set<string>; dangerous: Set<string> }

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true })
/** The result with its text parts redacted (images are left alone: scanning base64 is costly and useless). */
const redactText = (r: ToolResult): ToolResult => {
  const content = r.content.map((c) => ((c as { type?: unknown } | null)?.type === 'text' ? redactDeep(c) : c))
  return content.some((c, i) => c !== r.content[i]) ? { ...r, content } : r
}

export class ToolRegistry implements ToolRegistryApi {
  readonly sources = new Map<string, ToolSource>()
  readonly log = new ToolLog(1000)
  readonly approvals: ApprovalGate
  private cache: RegisteredTool[] | undefined
  private byName = new Map<string, RegisteredTool>()
  private switches: Switches | undefined
  private listeners = new Set<() => void>()

  constructor (private readonly rt: Runtime) {
    this.approvals = new ApprovalGate(rt.clock)
  }

  // ---- sources -------------------------------------------------------------------------------------
  addSource (source: ToolSource): void {
    this.sources.set(source.id, source)
    source.onChange?.(() => { if (this.sources.get(source.id) === source) this.invalidate() })
    this.invalidate()
  }

  removeSource (id: string): void {
    if (this.sources.delete(id)) this.invalidate()
  }

  /** Called when a source's list changed; listeners (aliases, MCP endpoint) are told. */
  invalidate (): void {
    this.cache = undefined
    for (const fn of this.listeners) { try { fn() } catch { /* a listener never breaks the registry */ } }
  }

  onChange (fn: () => void): () => void { this.listeners.add(fn); return () => this.listeners.delete(fn) }

  private all (): RegisteredTool[] {
    if (this.cache) {
      if (this.current()) return this.cache
      this.invalidate() // a source went stale by itself: tell the listeners (aliases) too
    }
    const out: RegisteredTool[] = []
    const seen = new Map<string, RegisteredTool>()
    for (const s of this.sources.values()) {
      let tools: RegisteredTool[]
      try { tools = s.list() } catch (err) { this.rt.log.warn('A tool source failed to list its tools', { source: s.id, error: errorText(err) }); continue }
      for (const t of tools) {
        // First source wins a name: a later duplicate never overwrites (MCP names carry the server).
        if (seen.has(t.name)) continue
        seen.set(t.name, t)
        out.push(t)
      }
    }
    this.byName = seen
    this.cache = out
    return out
  }

  private current (): boolean {
    for (const s of this.sources.values()) if (s.isCurrent && !s.isCurrent()) return false
    return true
  }

  // ---- switches ------------------------------------------------------------------------------------
  private sw (): Switches {
    const cfg = this.rt.config.get().tools as ToolsConfig
    if (this.switches?.cfg === cfg) return this.switches
    this.switches = {
      cfg,
      disabled: new Set(cfg.disabledTools),
      allowed: new Set(cfg.allowedTools),
      enabledCats: new Set(cfg.enabledCategories),
      disabledCats: new Set(cfg.disabledCategories),
      dangerous: new Set(cfg.dangerousTools)
    }
    return this.switches
  }

  get config (): ToolsConfig { return this.sw().cfg }

  get (name: string): RegisteredTool | undefined {
    this.all()
    return this.byName.get(name)
  }

  isCategoryEnabled (category: string): boolean {
    const s = this.sw()
    if (s.disabledCats.has(category)) return false
    return s.enabledCats.size === 0 || s.enabledCats.has(category)
  }

  /** The switch a source keeps itself: script tools are off until the master enables them (scripts.ts). */
  private scriptSwitch (): Partial<{ isOn(name: string): boolean; setOn(name: string, on: boolean): Promise<void> }> | undefined {
    return this.sources.get('script') as Partial<{ isOn(name: string): boolean; setOn(name: string, on: boolean): Promise<void> }> | undefined
  }

  private enabledTool (t: RegisteredTool, s: Switches): boolean {
    if (!s.cfg.enabled || s.disabled.has(t.name)) return false
    if (t.source === 'script' && this.scriptSwitch()?.isOn?.(t.name) === false) return false
    if (s.allowed.size > 0 && !s.allowed.has(t.name)) return false
    if (s.disabledCats.has(t.category)) return false
    return s.enabledCats.size === 0 || s.enabledCats.has(t.category)
  }

  isEnabled (name: string): boolean {
    const t = this.get(name)
    return t !== undefined && this.enabledTool(t, this.sw())
  }

  list (opts: { includeDisabled?: boolean } = {}): RegisteredTool[] {
    const all = this.all()
    if (opts.includeDisabled) return all.slice()
    const s = this.sw()
    return all.filter((t) => this.enabledTool(t, s))
  }

  isDangerous (t: RegisteredTool): boolean { return t.dangerous || this.sw().dangerous.has(t.name) }

  /** Offered in chat: not dangerous, or dangerous only for its untrusted server (asks the master), or allowed. */
  offerable (t: RegisteredTool, allowDangerous: boolean): boolean {
    return allowDangerous || !this.isDangerous(t) || (t.untrusted === true && !this.sw().dangerous.has(t.name))
  }

  /** Effective risk: the configured risk lists override the tool's own; dangerous tools are at least medium. */
  riskOf (t: RegisteredTool): ToolRisk {
    const c = this.sw().cfg
    if (c.approvalHighRiskTools.includes(t.name)) return 'high'
    if (c.approvalMediumRiskTools.includes(t.name)) return 'medium'
    if (c.approvalLowRiskTools.includes(t.name)) return 'low'
    return this.isDangerous(t) && t.risk === 'low' ? 'medium' : t.risk
  }

  categories (): Array<{ key: string; name: string; toolCount: number; enabled: boolean }> {
    const counts = new Map<string, number>()
    for (const t of this.all()) counts.set(t.category, (counts.get(t.category) ?? 0) + 1)
    return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([key, toolCount]) => ({ key, name: key, toolCount, enabled: this.isCategoryEnabled(key) }))
  }

  async setEnabled (name: string, enabled: boolean): Promise<void> {
    const tool = this.get(name)
    if (!tool) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    if (tool.source === 'script') await this.scriptSwitch()?.setOn?.(name, enabled)
    const c = this.sw().cfg
    const disabled = new Set(c.disabledTools)
    if (enabled) disabled.delete(name); else disabled.add(name)
    const patch: Record<string, unknown> = { disabledTools: [...disabled] }
    if (enabled && c.allowedTools.length > 0 && !c.allowedTools.includes(name)) patch.allowedTools = [...c.allowedTools, name]
    await this.rt.config.update({ tools: patch })
  }

  async setCategoryEnabled (category: string, enabled: boolean): Promise<void> {
    const c = this.sw().cfg
    const off = new Set(c.disabledCategories)
    const on = new Set(c.enabledCategories)
    if (enabled) { off.delete(category); if (on.size > 0) on.add(category) } else { off.add(category); on.delete(category) }
    // Switching a category on also lifts the per-tool switches of its tools.
    const names = new Set(this.all().filter((t) => t.category === category).map((t) => t.name))
    const disabled = enabled ? c.disabledTools.filter((n) => !names.has(n)) : c.disabledTools
    await this.rt.config.update({ tools: { disabledCategories: [...off], enabledCategories: [...on], disabledTools: disabled } })
  }

  async setAll (enabled: boolean): Promise<number> {
    const names = this.all().map((t) => t.name)
    await this.rt.config.update({ tools: enabled
      ? { enabled: true, disabledTools: [], disabledCategories: [], enabledCategories: [], allowedTools: [] }
      : { disabledTools: names } })
    return names.length
  }

  async setDangerous (name: string, dangerous: boolean): Promise<void> {
    const set = new Set(this.sw().cfg.dangerousTools)
    if (dangerous) set.add(name); else set.delete(name)
    await this.rt.config.update({ tools: { dangerousTools: [...set] } })
  }

  /** Re-lists every source (a source caches nothing the registry needs to drop). */
  refresh (): void { this.invalidate() }

  // ---- calls ---------------------------------------------------------------------------------------
  /** Why this call must not run, or whether it must ask first; undefined = run. */
  private async gate (t: RegisteredTool, args: Record<string, unknown>, ctx: ToolCallContext): Promise<string | undefined> {
    const c = this.sw().cfg
    if (ctx.isAdminTest && ctx.isMaster) return undefined // the dashboard's test panel acts as the master
    if (!this.isDangerous(t) && c.approvalMode !== 'manual') return undefined
    const risk = this.riskOf(t)
    if (c.approvalBypassTools.includes(t.name)) return undefined
    if (c.approvalMode === 'allow') return undefined
    if (c.approvalMode === 'deny') return this.isDangerous(t) ? `Tool ${t.name} is dangerous and approvals are off (approvalMode deny)` : undefined
    // manual: everything not low risk asks; auto: dangerous tools ask unless the master called them.
    const asks = c.approvalMode === 'manual' ? risk !== 'low' || this.isDangerous(t) : !ctx.isMaster
    if (!asks) return undefined
    if (c.approvalAllowSessionBypass && riskAtMost(risk, c.approvalSessionBypassMaxRisk) &&
      this.approvals.hasSessionBypass(ctx.scope.conversationId, t.name)) return undefined
    if (ctx.scope.via !== 'bot') {
      // Nobody can be asked in chat: an API call by the master is his own approval.
      return ctx.isMaster && ctx.scope.via === 'api' ? undefined : `Tool ${t.name} needs the master's approval in chat`
    }
    const outcome = await this.approvals.request(t.name, args, risk, ctx.scope, c.approvalTimeoutMs)
    if (outcome === 'approved') return undefined
    return outcome === 'timeout' ? `Approval for ${t.name} timed out` : `The master refused ${t.name}`
  }

  async call (name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const t = this.get(name)
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    if (!ctx.isAdminTest && !this.isEnabled(name)) throw new AppError('TOOL_DISABLED', `Tool ${name} is disabled`)
    const started = performance.now()
    let result: ToolResult
    const refusal = await this.gate(t, args, ctx)
    if (refusal) {
      result = errorResult(refusal)
    } else {
      try {
        result = await t.execute(args, ctx)
        if (!result || !Array.isArray(result.content)) result = { content: [{ type: 'text', text: JSON.stringify(result ?? null) }], isError: false }
      } catch (err) {
        result = errorResult(`Tool ${name} failed: ${errorText(err).slice(0, 500)}`)
      }
    }
    // A tool (an MCP server, a custom HTTP tool) may echo a stored secret: masked before it is logged or returned.
    result = redactText(result)
    this.record(t.name, redactDeep(args), result, Math.round((performance.now() - started) * 100) / 100, ctx)
    return result
  }

  private record (name: string, args: Record<string, unknown>, result: ToolResult, duration: number, ctx: ToolCallContext): void {
    const entry: ToolLogEntry = {
      id: randomUUID(),
      toolName: name,
      tool: name,
      args,
      result,
      status: result.isError ? 'error' : 'success',
      duration,
      userId: ctx.scope.userId,
      ...(ctx.scope.groupId ? { groupId: ctx.scope.groupId } : {}),
      timestamp: new Date(this.rt.clock.now()).toISOString()
    }
    this.log.push(entry)
    try {
      this.rt.stats.recordToolCall({ name, durationMs: duration, success: !result.isError, userId: ctx.scope.userId, ...(ctx.scope.groupId ? { groupId: ctx.scope.groupId } : {}) })
    } catch (err) { this.rt.log.warn('Could not record tool stats', { error: errorText(err) }) }
  }
}
