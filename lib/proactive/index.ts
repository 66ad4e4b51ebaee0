// Start-up of the proactive replies: the `proactive` service, one ProactiveReplies per runtime (its
// counters live as long as the runtime). apps/chat.ts reaches it through rt.optional('proactive').
import type { Domain, Runtime } from '../runtime.js'
import { ProactiveReplies } from './service.js'
import { joinInStep } from './step.js'

declare module '../runtime.js' {
  interface Services { proactive: ProactiveReplies }
}

function initProactive (rt: Runtime): void {
  const replies = new ProactiveReplies(rt)
  rt.provide('proactive', replies)
  rt.chat.steps.push(joinInStep(rt, replies))
  // a turn under way finishes before the conversations it writes to are closed (stops run in reverse)
  rt.onStop.push(() => replies.idle())
}

export const proactiveDomain: Domain = { name: 'proactive', provides: ['proactive'], needs: ['conversations'], optional: ['groupLog', 'guard'], start: initProactive }
