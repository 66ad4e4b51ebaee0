// Start-up of the governance domain: the `governance` service (access lists, quota counters in
// <data>/governance, the moderation rules and their hit log), and the tool tiers on the chat's tool
// provider (after the tools and skills domains, whose provider it wraps).
import { loadTextNormalizer } from '../core/text-normalize.js'
import { setOutboundGate } from '../host/port.js'
import type { Domain, Runtime } from '../runtime.js'
import { gateSendable } from './outbound.js'
import { GovernanceService } from './service.js'
import { governanceSteps } from './steps.js'
import { guardToolTiers } from './tools.js'

declare module '../runtime.js' {
  interface Services { governance: GovernanceService }
}

async function initGovernance (rt: Runtime): Promise<void> {
  // the Chinese tables of the text normaliser (opencc-js), before the word lists are normalised;
  // without the package matching goes on without folding traditional characters (logged)
  await loadTextNormalizer(rt.log)
  const gov = await GovernanceService.open(rt)
  rt.provide('governance', gov)
  // every text the bot account sends passes the output moderation in one place (outbound.ts)
  rt.onStop.push(setOutboundGate(async (chat, msg) => gateSendable(gov, chat, msg)))
  guardToolTiers(rt)
  rt.chat.steps.push(...governanceSteps(rt))
}

export const governanceDomain: Domain = { name: 'governance', provides: ['governance'], needs: [], optional: ['tools', 'skills'], start: initGovernance }
