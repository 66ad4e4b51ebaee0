// The "why" domain: provides `why` (WhyService): the chat pipeline begins a collector for each turn and
// keeps the record once the turn is answered; routes (routes/chat.ts) and `#lx为什么` (apps/why.ts) read it.
import { randomUUID } from 'node:crypto'
import type { ChatScope, ResolvedPreset, Usage } from '../chat/contracts.js'
import { errorText } from '../core/errors.js'
import type { Domain, Runtime } from '../runtime.js'
import { WhyCollector } from './collector.js'
import { WhyStore } from './store.js'
import type { WhyRecord } from './types.js'

declare module '../runtime.js' {
  interface Services { why: WhyService }
}

class WhyService {
  constructor (private readonly rt: Runtime, readonly store: WhyStore) {}

  /** A collector for a turn that starts now. */
  begin (scope: ChatScope, preset: Pick<ResolvedPreset, 'id' | 'name'>, input: string): WhyCollector {
    return new WhyCollector({
      // 8 random hex digits; randomUUID draws from a cached pool, randomBytes asks the system each turn
      id: `w${this.rt.clock.now().toString(36)}${randomUUID().slice(0, 8)}`,
      conversationId: scope.conversationId,
      userId: scope.userId,
      ...(scope.groupId ? { groupId: scope.groupId } : {}),
      via: scope.via,
      input,
      preset,
      startedAt: this.rt.clock.now()
    })
  }

  /** Keeps the record of an answered turn; a failure to store it costs the user nothing but the record. */
  async keep (c: WhyCollector, usage: Usage, at: number): Promise<void> {
    try {
      await this.store.add(c.finish(usage, at))
    } catch (err) {
      this.rt.log.warn('Could not keep the why record', { error: errorText(err) })
    }
  }

  /** A record as it may be shown now: a memory erased since (`#lx忘记我`, the dashboard) keeps only its id. */
  view (r: WhyRecord): WhyRecord {
    const memory = this.rt.optional('memory')
    return {
      ...r,
      memories: r.memories.map((m) => memory?.get(m.id)
        ? m
        : { id: m.id, userId: m.userId, category: m.category, content: '', removed: true as const })
    }
  }
}

async function initWhy (rt: Runtime): Promise<void> {
  const store = await WhyStore.openShared(rt)
  rt.provide('why', new WhyService(rt, store))
  rt.onStop.push(() => store.close())
}

export const whyDomain: Domain = { name: 'why', provides: ['why'], needs: [], start: initWhy }
