// A turn's deadline (chat.timeoutSeconds) on the runtime's clock, paused while a tool call waits for a
// person (the master's approval, the asker's confirmation: lib/tools/policy.ts): the limit is for the
// model and the tools, and a person answering at the last second must still leave the model its time.
import type { Clock } from '../core/clock.js'
import type { TurnEvent } from './contracts.js'

export class TurnDeadline {
  private readonly ctrl = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private left: number
  private startedAt: number
  /** calls waiting for a person */
  private readonly waiting = new Set<string>()

  constructor (private readonly clock: Clock, ms: number) {
    this.left = ms
    this.startedAt = clock.now()
    this.arm()
  }

  get signal (): AbortSignal { return this.ctrl.signal }

  /** Follows the turn's approval events: paused while any call waits, resumed when none does. */
  follow (ev: TurnEvent): void {
    if (ev.type !== 'tool_approval' || this.ctrl.signal.aborted) return
    if (ev.state === 'waiting') {
      if (this.waiting.size === 0) this.pause()
      this.waiting.add(ev.id)
    } else if (this.waiting.delete(ev.id) && this.waiting.size === 0) {
      this.arm()
    }
  }

  clear (): void {
    if (this.timer) this.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  private pause (): void {
    if (!this.timer) return
    this.clear()
    this.left = Math.max(0, this.left - (this.clock.now() - this.startedAt))
  }

  private arm (): void {
    this.startedAt = this.clock.now()
    this.timer = this.clock.setTimeout(() => { this.ctrl.abort() }, this.left)
  }
}
