// Start-up of the governance domain: the `governance` service (access lists, quota counters in
// <data>/governance, the moderation rules and their hit log).
import type { Domain, Runtime } from '../runtime.js'
import { GovernanceService } from './service.js'

declare module '../runtime.js' {
  interface Services { governance: GovernanceService }
}

async function initGovernance (rt: Runtime): Promise<void> {
  rt.provide('governance', await GovernanceService.open(rt))
}

export const governanceDomain: Domain = { name: 'governance', provides: ['governance'], needs: [], start: initGovernance }
