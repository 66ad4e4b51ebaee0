// The asker's own confirmation of a tool call that may carry someone else's intent (the approval
// policy, policy.ts): the chat is asked "确认禁言 @B 120 秒？回复「确认 1234」", and only the asker, in the
// same chat, answering with that code makes it run (apps/confirm.ts). The code is drawn after the call
// was made, so no text the model read can hold it. Unanswered requests end after the time limit
// (timer from the injectable clock).
import { randomInt } from 'node:crypto'
import type { Clock } from '../core/clock.js'
import type { ChatScope, TaintSource } from '../chat/contracts.js'
import { PendingAnswers } from './pending.js'

export type ConfirmOutcome = 'confirmed' | 'cancelled' | 'timeout'

export interface ConfirmRequest {
  id: string
  /** four digits the asker sends back */
  code: string
  toolName: string
  /** the action and its target, in words (`禁言 @20004 120 秒`) */
  summary: string
  /** why the call is not taken on the asker's word alone */
  sources: TaintSource[]
  scope: ChatScope
  createdAt: number
  expiresAt: number
}

export type ConfirmNotifier = (req: ConfirmRequest) => Promise<void> | void

/** The asker who may answer: the same user in the same chat (a group, or the private chat). */
export interface Answerer { userId: string; groupId?: string | undefined }

export class ConfirmGate {
  private readonly pending: PendingAnswers<ConfirmRequest, ConfirmOutcome>
  private seq = 0

  constructor (private readonly clock: Clock, public notify: ConfirmNotifier = () => {}) {
    this.pending = new PendingAnswers<ConfirmRequest, ConfirmOutcome>(clock, 'timeout', 'cancelled')
  }

  /** Asks the asker; resolves with the outcome (never rejects). A request that cannot be posted is cancelled. */
  async request (what: Pick<ConfirmRequest, 'toolName' | 'summary' | 'sources' | 'scope'>, timeoutMs: number): Promise<ConfirmOutcome> {
    const now = this.clock.now()
    const req: ConfirmRequest = { ...what, id: String(++this.seq), code: this.freshCode(what.scope), createdAt: now, expiresAt: now + timeoutMs }
    return await this.pending.ask(req, timeoutMs, (r) => this.notify(r))
  }

  /**
   * The asker's answer with a code: settles the request of that user in that chat with that code, and
   * gives it back; undefined when none matches (someone else, another chat, a wrong or expired code).
   */
  answer (who: Answerer, code: string, confirmed: boolean): ConfirmRequest | undefined {
    const req = this.find(who, code.trim())
    return req ? this.pending.settle(req.id, confirmed ? 'confirmed' : 'cancelled') : undefined
  }

  /** Whether `who` has a request waiting with this code (the command handler passes other texts on). */
  waiting (who: Answerer, code: string): boolean { return this.find(who, code.trim()) !== undefined }

  list (): ConfirmRequest[] { return this.pending.list() }

  /** Cancels everything still waiting (plugin stop). */
  close (): void { this.pending.close('cancelled') }

  private find (who: Answerer, code: string): ConfirmRequest | undefined {
    return this.pending.find((r) => r.code === code && r.scope.userId === who.userId && (r.scope.groupId ?? '') === (who.groupId ?? ''))
  }

  /** Four digits no other waiting request of this asker in this chat has. */
  private freshCode (scope: ChatScope): string {
    for (;;) {
      const code = String(randomInt(1000, 10000))
      if (!this.find(scope, code)) return code
    }
  }
}
