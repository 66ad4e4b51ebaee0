// Monthly budgets of the channels (channels[].monthlyBudget, in pricing.currency; 0: none). A channel
// whose cost this month reached its budget is left out of the channel choice (service.ts candidates), so
// the next channel answers as when a channel fails; from the first moment of the next month (in
// pricing.timezone, on the runtime clock) it is used again. The cost is the channel's usage recorded for
// the month (lib/stats, keyed by ModelRequest.month) priced by the current table (lib/stats/cost.ts):
// tokens of unpriced models count for nothing, so a budget needs prices for the channel's models.
import type { ChannelConfig } from '../config/schema.js'
import type { Runtime } from '../runtime.js'
import { monthKey, priceTable, usageTokens } from '../stats/cost.js'

/** A channel's spending this month, as the channel list shows it. */
export interface Spending {
  /** `YYYY-MM` in pricing.timezone */
  month: string
  /** the cost of this month's usage; null when it used only unpriced models */
  spent: number | null
  /** channels[].monthlyBudget (0: none) */
  budget: number
  currency: string
  /** the budget is spent: the channel is not used until the month ends */
  exhausted: boolean
}

export class ChannelBudgets {
  /** channel id → the month its budget was found spent (so the log line and the event come once) */
  private readonly spentIn = new Map<string, string>()

  constructor (private readonly rt: Runtime, private readonly idOf: (ch: ChannelConfig) => string) {}

  spending (ch: ChannelConfig): Spending {
    const pricing = this.rt.config.get().pricing
    const month = monthKey(this.rt.clock.now(), pricing.timezone)
    const usage = this.rt.stats.channelMonth(this.idOf(ch), month)
    const spent = priceTable(pricing).cost(usage, usageTokens(usage)).cost
    const budget = ch.monthlyBudget
    return { month, spent, budget, currency: pricing.currency, exhausted: budget > 0 && spent !== null && spent >= budget }
  }

  /** Whether the channel's budget is spent; the first time in a month it is logged and announced. */
  exhausted (ch: ChannelConfig): boolean {
    const id = this.idOf(ch)
    if (ch.monthlyBudget <= 0 && !this.spentIn.has(id)) return false
    const s = this.spending(ch)
    if (!s.exhausted) {
      // a new month, or a raised budget
      if (this.spentIn.delete(id)) this.announce(ch, s, 'active', `Channel ${ch.name} is used again (${s.month}: spent ${s.spent ?? 0} of ${s.budget || 'no budget'} ${s.currency})`)
      return false
    }
    if (this.spentIn.get(id) !== s.month) {
      this.spentIn.set(id, s.month)
      this.announce(ch, s, 'budget', `Channel ${ch.name} has spent its monthly budget (${s.month}: ${s.spent ?? 0} of ${s.budget} ${s.currency}): not used until the month ends`)
    }
    return true
  }

  /** A log line and the system stream's `channel` event (docs/api.md, Server-sent events). */
  private announce (ch: ChannelConfig, s: Spending, status: 'budget' | 'active', line: string): void {
    if (status === 'budget') this.rt.log.warn(line, { channel: ch.name }); else this.rt.log.info(line, { channel: ch.name })
    this.rt.bus.emit('system', 'channel', { id: this.idOf(ch), name: ch.name, status, spending: s, timestamp: this.rt.clock.now() })
  }
}
