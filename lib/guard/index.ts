// Start-up of the account-risk guard: the `guard` service, one AccountGuard per runtime, watching every
// send through the host (lib/host/port.ts watchSends), pacing every send in a guarded chat (the port's
// send pacer) and moving cool-downs on every 30 s.
import { setSendPacer, watchSends } from '../host/port.js'
import type { Domain, Runtime } from '../runtime.js'
import { AccountGuard } from './service.js'

declare module '../runtime.js' {
  interface Services { guard: AccountGuard }
}

const SWEEP_MS = 30_000

function initGuard (rt: Runtime): void {
  const guard = new AccountGuard(rt)
  rt.provide('guard', guard)
  const unwatch = watchSends((send) => guard.record(send))
  // every send of the account, whatever path it took, waits for the chat's pace (one place)
  const unpace = setSendPacer((chat) => guard.pace(chat.groupId))
  const timer = rt.clock.setInterval(() => guard.sweep(), SWEEP_MS)
  timer.unref?.()
  rt.onStop.push(() => { unwatch(); unpace(); rt.clock.clearInterval(timer) })
}

export const guardDomain: Domain = { name: 'guard', provides: ['guard'], needs: [], start: initGuard }
