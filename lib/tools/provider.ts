// The chat pipeline's view of the registry (ToolProvider of lib/chat/contracts.ts): the enabled tools
// of the preset in effect under model-safe names, and their execution through the registry's gate.
import type { ToolDefinition, ToolProvider, ToolResult, TurnContext } from '../chat/contracts.js'
import { AliasMap } from './alias.js'
import { presetOffers } from './preset-filter.js'
import type { ToolRegistry } from './registry.js'
import { DEFAULT_MAX_TOOLS_PER_REQUEST, ToolSelector, type SelectOptions } from './select.js'
import type { ToolCallContext } from './types.js'
import { errorText } from '../core/errors.js'

export class RegistryToolProvider implements ToolProvider {
  private aliases = new AliasMap()
  private stale = true
  private readonly selector: ToolSelector

  /** `log`: where what the tool cap left out is said, once per turn (select.ts). */
  constructor (private readonly registry: ToolRegistry, log?: SelectOptions['log']) {
    this.selector = new ToolSelector({ log })
    registry.onChange(() => { this.stale = true; this.selector.invalidate() })
  }

  private refreshAliases (): void {
    if (!this.stale) return
    this.aliases.rebuild(this.registry.list({ includeDisabled: true }).map((t) => t.name))
    this.stale = false
  }

  /** The model-facing name of a registry tool. */
  aliasOf (name: string): string { this.refreshAliases(); return this.aliases.alias(name) }
  /** The registry name behind a model-facing name. */
  nameOf (alias: string): string | undefined { this.refreshAliases(); return this.aliases.name(alias) }

  /**
   * The tools sent to the model this turn: those the preset offers that can work in this chat
   * (`offeredIn`), at most `tools.maxToolsPerRequest`
   * of them, chosen by relevance to the turn (select.ts). Deterministic for a turn, so `execute` can
   * check a call against the same list.
   */
  async definitionsFor (turn: TurnContext): Promise<ToolDefinition[]> {
    const offers = presetOffers(this.registry.switches, turn.preset.tools)
    this.refreshAliases()
    const cfg = this.registry.config
    const only = turn.onlyTools
    const offered = this.registry.list().filter((t) => offers(t) && (!only || only.has(t.name)) && (t.offeredIn?.(turn.scope) ?? true))
    const chosen = this.selector.select(offered, () => this.registry.list({ includeDisabled: true }), {
      input: turn.input,
      recent: turn.recent,
      // what the cap left out is logged for the turn, not again for each call checked against it
      turn: turn.toolCall ? undefined : turn,
      pinned: [...(cfg.alwaysOnTools ?? []), ...turn.preset.tools.allowedTools],
      // ?? for hand-built configurations without the field (benchmarks)
      max: cfg.maxToolsPerRequest ?? DEFAULT_MAX_TOOLS_PER_REQUEST
    })
    // in the registry's order, whatever the selection ranked first: the tool list opens every request a
    // provider caches, so it stays the same from turn to turn while the same tools are chosen
    const rank = new Map(offered.map((t, i) => [t.name, i]))
    return [...chosen].sort((a, b) => (rank.get(a.name) ?? Infinity) - (rank.get(b.name) ?? Infinity))
      .map((t) => ({ name: this.aliases.alias(t.name), description: t.description, parameters: t.inputSchema }))
  }

  async execute (name: string, args: Record<string, unknown>, turn: TurnContext): Promise<ToolResult> {
    // Only what this turn offered runs: a model (or an injected prompt) naming a tool that is off,
    // dangerous without allowDangerous (untrusted servers' tools: see offerable), or outside the
    // preset gets an error, never the tool.
    if (!(await this.definitionsFor(turn)).some((d) => d.name === name)) {
      return { content: [{ type: 'text', text: `Tool ${name} does not exist or is not available in this chat` }], isError: true }
    }
    const real = this.nameOf(name) ?? name
    const ctx: ToolCallContext = {
      scope: turn.scope,
      userPermission: turn.scope.isMaster ? 'master' : 'member',
      isMaster: turn.scope.isMaster,
      ...(turn.toolCall?.onApproval ? { onApproval: turn.toolCall.onApproval } : {}),
      // what the turn held when the model made this call (a sibling call's result comes later)
      ...(turn.taint?.size ? { taint: new Set(turn.taint) } : {})
    }
    try {
      return await this.registry.call(real, args, ctx)
    } catch (err) {
      return { content: [{ type: 'text', text: errorText(err) }], isError: true }
    } finally {
      // the model reads this result before its next calls: text of others, unless the tool says it has none
      if (!this.registry.get(real)?.cleanResult) turn.taint?.add('toolResult')
    }
  }
}
