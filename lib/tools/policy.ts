// The one approval policy: whether a tool call runs now, and who must say yes first. Every rule of it
// lives here; the registry asks it before a tool runs (`authorize`), the QQ actions after their own
// rules (`authorizeGroupAction`, qq-rules.ts: asker and target roles first, so nobody is asked about an
// action that would be refused).
//
// 1. Taint (README "Security model"): a call made while the turn held text the asker did not write
//    (ChatScope of the turn: quoted or forwarded messages, the group log, a shared history, knowledge
//    passages, an earlier tool result) may carry someone else's intent. Group actions (category `qq`)
//    and every tool above low risk that does more than read (`readOnly`: fetch_url) then wait for the
//    asker's own "确认 <code>" in the chat (confirm.ts),
//    masters included: the authority is theirs, the words may not be. Outside a QQ chat nobody can
//    confirm, so such a call is refused with the reason.
// 2. The master's approval (approval.ts) by `tools.approvalMode`: dangerous tools, every medium/high
//    tool in manual mode, and QQ actions at or above `qqActions.approvalRisk` asked by others.
import type { ApprovalState, ChatScope } from '../chat/contracts.js'
import type { Clock } from '../core/clock.js'
import { t, type Language } from '../i18n.js'
import { ApprovalGate, riskAtMost } from './approval.js'
import { ConfirmGate } from './confirm.js'
import type { ToolsConfig } from './switches.js'
import type { RegisteredTool, ToolCallContext, ToolRisk } from './types.js'

/** Why a call does not run, and the approval state the chat's events show; undefined: it runs. */
export type Refusal = { reason: string; state: ApprovalState } | undefined

interface PolicyDeps {
  clock: Clock
  config: () => ToolsConfig
  language: () => Language
  riskOf: (t: RegisteredTool) => ToolRisk
  isDangerous: (t: RegisteredTool) => boolean
}

/** A risk at or above `level` ('off': no risk reaches it). */
const reaches = (risk: ToolRisk, level: ToolRisk | 'off'): boolean => level !== 'off' && riskAtMost(level, risk)

/** Group actions: they act on other members in the asker's name, whatever their risk. */
const isGroupAction = (t: Pick<RegisteredTool, 'category'>): boolean => t.category === 'qq'

export class ApprovalPolicy {
  /** The master's approvals (`#lx同意 <id>`). */
  readonly approvals: ApprovalGate
  /** The asker's confirmations (`确认 <code>`). */
  readonly confirms: ConfirmGate

  constructor (private readonly deps: PolicyDeps) {
    this.approvals = new ApprovalGate(deps.clock)
    this.confirms = new ConfirmGate(deps.clock)
  }

  /** Before a tool runs (the registry). QQ actions decide after their own rules: see authorizeGroupAction. */
  async authorize (tool: RegisteredTool, args: Record<string, unknown>, ctx: ToolCallContext): Promise<Refusal> {
    if (ctx.isAdminTest && ctx.isMaster) return undefined // the dashboard's test panel acts as the master
    if (!isGroupAction(tool)) {
      const unconfirmed = await this.confirmIfTainted(tool, args, ctx)
      if (unconfirmed) return unconfirmed
    }
    return await this.masterApproval(tool, args, ctx)
  }

  /**
   * A QQ action whose own rules passed: the asker's confirmation when the turn was tainted, then the
   * master's approval when the action's risk is at or above `approvalRisk` and a non-master asked
   * (manual mode: the registry already asked, every medium/high tool).
   */
  async authorizeGroupAction (tool: RegisteredTool, args: Record<string, unknown>, ctx: ToolCallContext, approvalRisk: ToolRisk | 'off'): Promise<Refusal> {
    const unconfirmed = await this.confirmIfTainted(tool, args, ctx)
    if (unconfirmed) return unconfirmed
    const risk = this.deps.riskOf(tool)
    if (ctx.isMaster || !reaches(risk, approvalRisk)) return undefined
    const c = this.deps.config()
    if (c.approvalMode === 'allow' || c.approvalMode === 'manual' || c.approvalBypassTools.includes(tool.name)) return undefined
    if (c.approvalMode === 'deny') return { reason: this.text('qq.approvalOff'), state: 'denied' }
    return await this.askMaster(tool, args, risk, ctx, { timeout: this.text('qq.approvalTimeout'), refused: this.text('qq.refused') })
  }

  /** Whether this call needs the asker's confirmation: a tainted turn, and a group action or a tool above low risk that does more than read. */
  needsConfirmation (tool: RegisteredTool, ctx: ToolCallContext): boolean {
    if (!ctx.taint?.size || !this.deps.config().confirmTainted) return false
    return isGroupAction(tool) || (this.deps.riskOf(tool) !== 'low' && !tool.readOnly)
  }

  private async confirmIfTainted (tool: RegisteredTool, args: Record<string, unknown>, ctx: ToolCallContext): Promise<Refusal> {
    if (!this.needsConfirmation(tool, ctx)) return undefined
    const sources = [...(ctx.taint ?? [])]
    const from = sources.map((s) => this.text(`taint.${s}`)).join(this.deps.language() === 'en' ? ', ' : '、')
    if (ctx.scope.via !== 'bot') return { reason: this.text('confirm.elsewhere', { tool: tool.name, from }), state: 'denied' }
    ctx.onApproval?.('waiting')
    const outcome = await this.confirms.request({ toolName: tool.name, summary: this.summary(tool, args), sources, scope: ctx.scope }, this.deps.config().confirmTimeoutMs)
    if (outcome === 'confirmed') { ctx.onApproval?.('approved'); return undefined }
    return outcome === 'timeout'
      ? { reason: this.text('confirm.timedOut', { tool: tool.name }), state: 'timeout' }
      : { reason: this.text('confirm.cancelled', { tool: tool.name }), state: 'refused' }
  }

  /** The master's approval of dangerous tools (and of every medium/high one in manual mode). */
  private async masterApproval (tool: RegisteredTool, args: Record<string, unknown>, ctx: ToolCallContext): Promise<Refusal> {
    const c = this.deps.config()
    const dangerous = this.deps.isDangerous(tool)
    if (!dangerous && c.approvalMode !== 'manual') return undefined
    const risk = this.deps.riskOf(tool)
    if (c.approvalBypassTools.includes(tool.name)) return undefined
    if (c.approvalMode === 'allow') return undefined
    if (c.approvalMode === 'deny') return dangerous ? { reason: `Tool ${tool.name} is dangerous and approvals are off (approvalMode deny)`, state: 'denied' } : undefined
    // manual: everything not low risk asks; auto: dangerous tools ask unless the master called them.
    const asks = c.approvalMode === 'manual' ? risk !== 'low' || dangerous : !ctx.isMaster
    if (!asks) return undefined
    if (this.sessionBypass(tool.name, risk, ctx.scope)) return undefined
    if (ctx.scope.via !== 'bot') {
      // Nobody can be asked in chat: an API call by the master is his own approval.
      return ctx.isMaster && ctx.scope.via === 'api' ? undefined : { reason: `Tool ${tool.name} needs the master's approval in chat`, state: 'denied' }
    }
    return await this.askMaster(tool, args, risk, ctx, { timeout: `Approval for ${tool.name} timed out`, refused: `The master refused ${tool.name}` })
  }

  private sessionBypass (name: string, risk: ToolRisk, scope: ChatScope): boolean {
    const c = this.deps.config()
    return c.approvalAllowSessionBypass && riskAtMost(risk, c.approvalSessionBypassMaxRisk) && this.approvals.hasSessionBypass(scope.conversationId, name)
  }

  private async askMaster (tool: RegisteredTool, args: Record<string, unknown>, risk: ToolRisk, ctx: ToolCallContext, texts: { timeout: string; refused: string }): Promise<Refusal> {
    if (this.sessionBypass(tool.name, risk, ctx.scope)) return undefined
    ctx.onApproval?.('waiting')
    const outcome = await this.approvals.request(tool.name, args, risk, ctx.scope, this.deps.config().approvalTimeoutMs)
    if (outcome === 'approved') { ctx.onApproval?.('approved'); return undefined }
    return outcome === 'timeout' ? { reason: texts.timeout, state: 'timeout' } : { reason: texts.refused, state: 'refused' }
  }

  /** The action and its target in words, for the confirmation question. */
  private summary (tool: RegisteredTool, args: Record<string, unknown>): string {
    const lang = this.deps.language()
    try {
      const own = tool.describe?.(args, lang)
      if (own) return own
    } catch { /* a describer's bug falls back to the generic words */ }
    return t(lang, 'confirm.generic', { tool: tool.name, args: JSON.stringify(args).slice(0, 200) })
  }

  private text (key: Parameters<typeof t>[1], vars: Record<string, string | number> = {}): string {
    return t(this.deps.language(), key, vars)
  }

  close (): void {
    this.approvals.close()
    this.confirms.close()
  }
}
