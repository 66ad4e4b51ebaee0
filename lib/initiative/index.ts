// Start-up of the openers after silence: the `initiative` service (its store, its check timer on the
// runtime clock) and its two chat steps. apps/initiative.ts reaches it through rt.optional('initiative').
import type { Domain, Runtime } from '../runtime.js'
import { InitiativeService } from './service.js'
import { initiativeSteps } from './step.js'

declare module '../runtime.js' {
  interface Services { initiative: InitiativeService }
}

async function initInitiative (rt: Runtime): Promise<void> {
  const service = await InitiativeService.open(rt)
  rt.provide('initiative', service)
  rt.chat.steps.push(...initiativeSteps(service))
  // a turn under way finishes before the conversations it writes to are closed (stops run in reverse)
  rt.onStop.push(() => service.close())
  service.start()
}

export const initiativeDomain: Domain = { name: 'initiative', provides: ['initiative'], needs: ['conversations'], optional: ['groupLog', 'guard', 'knowledge', 'governance'], start: initInitiative }
