// Approval of dangerous tools in chat (README, "Security model"): the gate posts a request to the chat the tool was
// called from; the master answers `#lx同意 <id>` / `#lx拒绝 <id>` (apps/approval.ts). Unanswered
// requests are refused after `approvalTimeoutMs` (timer from the injectable clock).
import type { Clock } from '../core/clock.js'
import type { ChatScope } from '../chat/contracts.js'
import { PendingAnswers } from './pending.js'
import type { ToolRisk } from './types.js'

export type ApprovalOutcome = 'approved' | 'refused' | 'timeout'

export interface ApprovalRequest {
  id: string
  toolName: string
  args: Record<string, unknown>
  risk: ToolRisk
  scope: ChatScope
  createdAt: number
  expiresAt: number
}

export type ApprovalNotifier = (req: ApprovalRequest) => Promise<void> | void

/** The one order of the risks (the session bypass here, the QQ actions' approval level in policy.ts). */
const RISK_ORDER: Record<ToolRisk, number> = { low: 0, medium: 1, high: 2 }
export const riskAtMost = (r: ToolRisk, max: ToolRisk): boolean => RISK_ORDER[r] <= RISK_ORDER[max]

export class ApprovalGate {
  private readonly pending: PendingAnswers<ApprovalRequest, ApprovalOutcome>
  /** conversationId -> tool names approved for the rest of the session. */
  private bypass = new Map<string, Set<string>>()
  private seq = 0

  constructor (private readonly clock: Clock, public notify: ApprovalNotifier = () => {}) {
    this.pending = new PendingAnswers<ApprovalRequest, ApprovalOutcome>(clock, 'timeout', 'refused')
  }

  /** Asks for approval; resolves with the outcome (never rejects). */
  async request (toolName: string, args: Record<string, unknown>, risk: ToolRisk, scope: ChatScope, timeoutMs: number): Promise<ApprovalOutcome> {
    const id = String(++this.seq).padStart(4, '0')
    const now = this.clock.now()
    const req: ApprovalRequest = { id, toolName, args, risk, scope, createdAt: now, expiresAt: now + timeoutMs }
    return await this.pending.ask(req, timeoutMs, (r) => this.notify(r))
  }

  /** The master's answer; `session` also approves this tool for the rest of the conversation. */
  decide (id: string, approved: boolean, opts: { session?: boolean } = {}): ApprovalRequest | undefined {
    const req = this.pending.get(id.trim())
    if (!req) return undefined
    if (approved && opts.session) this.allowForSession(req.scope.conversationId, req.toolName)
    return this.pending.settle(req.id, approved ? 'approved' : 'refused')
  }

  hasSessionBypass (conversationId: string, toolName: string): boolean {
    return this.bypass.get(conversationId)?.has(toolName) === true
  }

  allowForSession (conversationId: string, toolName: string): void {
    let s = this.bypass.get(conversationId)
    if (!s) { s = new Set(); this.bypass.set(conversationId, s) }
    s.add(toolName)
  }

  list (): ApprovalRequest[] { return this.pending.list() }

  /** Refuses everything still waiting (plugin stop). */
  close (): void { this.pending.close('refused') }
}
