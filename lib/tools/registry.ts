// The live tool registry (issue 5): sources (built-in, custom, script, one per MCP server) plug in;
// switches and dangerous tools are read through `switches` (switches.ts, the only writer of config
// `tools`); the approval configuration comes from config `tools`.
// Listing is cached and rebuilt only when a source changes, so 500 tools list in well under 5 ms.
import { randomUUID } from 'node:crypto'
import type { ToolResult } from '../chat/contracts.js'
import { AppError, errorText } from '../core/errors.js'
import { Listeners } from '../core/listeners.js'
import { redactDeep } from '../core/redact.js'
import type { Runtime } from '../runtime.js'
import type { ApprovalGate } from './approval.js'
import type { ConfirmGate } from './confirm.js'
import { ApprovalPolicy } from './policy.js'
import { ToolLog, type ToolLogEntry } from './log.js'
import { toolsSection, ToolSwitches, type ToolsConfig } from './switches.js'
import type { RegisteredTool, ToolCallContext, ToolRegistryApi, ToolRisk, ToolSource } from './types.js'

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true })
/** The result with its text parts redacted (images are left alone: scanning base64 is costly and useless). */
const redactText = (r: ToolResult): ToolResult => {
  const content = r.content.map((c) => ((c as { type?: unknown } | null)?.type === 'text' ? redactDeep(c) : c))
  return content.some((c, i) => c !== r.content[i]) ? { ...r, content } : r
}

export class ToolRegistry implements ToolRegistryApi {
  readonly sources = new Map<string, ToolSource>()
  readonly log = new ToolLog(1000)
  /** Every tool decision: the asker's confirmation and the master's approval (policy.ts). */
  readonly policy: ApprovalPolicy
  private cache: RegisteredTool[] | undefined
  private byName = new Map<string, RegisteredTool>()
  /** The source each listed tool came from (its own switch, if any, is honoured). */
  private sourceOf = new Map<string, ToolSource>()
  /** On/off, dangerous and offerable rules; every write of config `tools` goes through it. */
  readonly switches: ToolSwitches
  private readonly listeners = new Listeners()

  constructor (private readonly rt: Runtime) {
    this.policy = new ApprovalPolicy({
      clock: rt.clock,
      config: () => this.config,
      language: () => rt.config.get().language,
      riskOf: (t) => this.riskOf(t),
      isDangerous: (t) => this.isDangerous(t)
    })
    this.switches = new ToolSwitches({
      config: toolsSection(rt.config),
      tools: () => this.all(),
      ownSwitch: (t) => { this.all(); return this.sourceOf.get(t.name)?.ownSwitch },
      log: rt.log
    })
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
    this.listeners.emit()
  }

  onChange (fn: () => void): () => void { return this.listeners.add(fn) }

  private all (): RegisteredTool[] {
    if (this.cache) {
      if (this.current()) return this.cache
      this.invalidate() // a source went stale by itself: tell the listeners (aliases) too
    }
    const out: RegisteredTool[] = []
    const seen = new Map<string, RegisteredTool>()
    const from = new Map<string, ToolSource>()
    for (const s of this.sources.values()) {
      let tools: RegisteredTool[]
      try { tools = s.list() } catch (err) { this.rt.log.warn('A tool source failed to list its tools', { source: s.id, error: errorText(err) }); continue }
      for (const t of tools) {
        // First source wins a name: a later duplicate never overwrites (MCP names carry the server).
        if (seen.has(t.name)) continue
        seen.set(t.name, t)
        from.set(t.name, s)
        out.push(t)
      }
    }
    this.byName = seen
    this.sourceOf = from
    this.cache = out
    return out
  }

  private current (): boolean {
    for (const s of this.sources.values()) if (s.isCurrent && !s.isCurrent()) return false
    return true
  }

  // ---- switches (read through switches.ts) ---------------------------------------------------------
  get config (): ToolsConfig { return this.switches.config }

  get (name: string): RegisteredTool | undefined {
    this.all()
    return this.byName.get(name)
  }

  isCategoryEnabled (category: string): boolean { return this.switches.isCategoryOn(category) }

  isEnabled (name: string): boolean {
    const t = this.get(name)
    return t !== undefined && this.switches.isOn(t)
  }

  list (opts: { includeDisabled?: boolean } = {}): RegisteredTool[] {
    const all = this.all()
    if (opts.includeDisabled) return all.slice()
    return all.filter((t) => this.switches.isOn(t))
  }

  isDangerous (t: RegisteredTool): boolean { return this.switches.isDangerous(t) }

  /** Offered in chat: see ToolSwitches.offerable. */
  offerable (t: RegisteredTool, allowDangerous: boolean): boolean { return this.switches.offerable(t, allowDangerous) }

  /** Effective risk: see ToolSwitches.riskOf. */
  riskOf (t: RegisteredTool): ToolRisk { return this.switches.riskOf(t) }

  /** The categories of every tool (or of the tools `which` picks), by name, with their tool counts. */
  categories (which: (t: RegisteredTool) => boolean = () => true): Array<{ key: string; name: string; toolCount: number; enabled: boolean }> {
    const counts = new Map<string, number>()
    for (const t of this.all()) if (which(t)) counts.set(t.category, (counts.get(t.category) ?? 0) + 1)
    return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))
      .map(([key, toolCount]) => ({ key, name: key, toolCount, enabled: this.isCategoryEnabled(key) }))
  }

  /** Re-lists every source (a source caches nothing the registry needs to drop). */
  refresh (): void { this.invalidate() }

  // ---- calls ---------------------------------------------------------------------------------------
  get approvals (): ApprovalGate { return this.policy.approvals }
  get confirms (): ConfirmGate { return this.policy.confirms }

  async call (name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const t = this.get(name)
    if (!t) throw new AppError('TOOL_NOT_FOUND', `Tool ${name} does not exist`)
    if (!ctx.isAdminTest && !this.isEnabled(name)) throw new AppError('TOOL_DISABLED', `Tool ${name} is disabled`)
    const started = performance.now()
    let result: ToolResult
    const refusal = await this.policy.authorize(t, args, ctx)
    if (refusal) ctx.onApproval?.(refusal.state)
    if (refusal) {
      result = errorResult(refusal.reason)
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
