// The proactive replies each group has had (decide.ts reads them), in memory: a restart starts every
// group's hourly and daily count from zero again (README.md says why that is acceptable).
import { dict } from '../core/dict.js'
import { countReply, type GroupCounters } from './decide.js'

export class ProactiveCounters {
  /** keyed by group id (input): a null-prototype record */
  private readonly groups = dict<GroupCounters>()

  get (groupId: string): GroupCounters | undefined {
    return Object.hasOwn(this.groups, groupId) ? this.groups[groupId] : undefined
  }

  /** Counts a reply at `now` (before the model is asked, so messages arriving meanwhile see it). */
  count (groupId: string, now: number): void {
    this.groups[groupId] = countReply(this.get(groupId), now)
  }

  clear (): void {
    for (const k of Object.keys(this.groups)) delete this.groups[k]
  }
}
