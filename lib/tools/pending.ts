// Questions waiting for a person's answer in chat, each with its time limit on the injectable clock: the
// master's approvals (approval.ts) and the asker's confirmations (confirm.ts) keep theirs here.
import type { Clock } from '../core/clock.js'

interface Waiting<R, O> { req: R; resolve: (o: O) => void; timer: NodeJS.Timeout }

export class PendingAnswers<R extends { id: string }, O> {
  private readonly waiting = new Map<string, Waiting<R, O>>()

  /** `lapsed`: the outcome at the time limit; `unasked`: when the question could not be posted. */
  constructor (private readonly clock: Clock, private readonly lapsed: O, private readonly unasked: O) {}

  /** Posts the question (`notify`) and resolves with the answer, `lapsed` or `unasked`; never rejects. */
  async ask (req: R, timeoutMs: number, notify: (req: R) => Promise<void> | void): Promise<O> {
    const outcome = new Promise<O>((resolve) => {
      const timer = this.clock.setTimeout(() => { this.settle(req.id, this.lapsed) }, timeoutMs)
      this.waiting.set(req.id, { req, resolve, timer })
    })
    try {
      await notify(req)
    } catch {
      this.settle(req.id, this.unasked) // nobody can be asked: no answer rather than a wait
    }
    return await outcome
  }

  /** Ends the question `id` with `outcome`; its request, or undefined when none waits. */
  settle (id: string, outcome: O): R | undefined {
    const w = this.waiting.get(id)
    if (!w) return undefined
    this.waiting.delete(id)
    this.clock.clearTimeout(w.timer)
    w.resolve(outcome)
    return w.req
  }

  get (id: string): R | undefined { return this.waiting.get(id)?.req }

  find (match: (req: R) => boolean): R | undefined {
    for (const w of this.waiting.values()) if (match(w.req)) return w.req
    return undefined
  }

  list (): R[] { return [...this.waiting.values()].map((w) => w.req) }

  /** Ends every waiting question with `outcome` (plugin stop). */
  close (outcome: O): void { for (const id of [...this.waiting.keys()]) this.settle(id, outcome) }
}
