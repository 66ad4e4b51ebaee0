// The domains of the plugin and their start order. Each domain declares in its own start-up file what
// it provides, needs and uses when present (a `Domain`, lib/runtime.ts); the order is computed from
// those declarations, so the list below is in no particular order. One line per domain.
import type { Domain, ServiceName } from './runtime.js'
import { channelsDomain } from './channels/index.js'
import { chatDomain } from './chat/index.js'
import { skillsDomain } from './skills/index.js'
import { toolsDomain } from './tools/index.js'
import { mcpDomain } from './mcp/index.js'
import { presetsDomain } from './presets/index.js'
import { drawingDomain } from './drawing/index.js'
import { gameDomain } from './game/index.js'
import { memoryDomain } from './memory/index.js'
import { knowledgeDomain } from './knowledge/index.js'
import { proactiveDomain } from './proactive/index.js'
import { initiativeDomain } from './initiative/index.js'
import { groupLogDomain } from './grouplog/index.js'
import { remindersDomain } from './reminders/index.js'
import { tasksDomain } from './tasks/index.js'
import { ttsDomain } from './tts/index.js'
import { governanceDomain } from './governance/index.js'
import { guardDomain } from './guard/index.js'
import { whyDomain } from './why/index.js'
import { updateDomain } from './update/index.js'
import { inputDomain } from './input/index.js'
import { deliveryDomain } from './delivery/index.js'
import { backupDomain } from './backup/index.js'

export const DOMAINS: readonly Domain[] = [
  backupDomain, // first: a staged restore is applied before any store opens (lib/backup/README.md)
  channelsDomain,
  chatDomain,
  toolsDomain,
  skillsDomain,
  presetsDomain,
  drawingDomain,
  gameDomain,
  memoryDomain,
  knowledgeDomain,
  proactiveDomain,
  initiativeDomain,
  groupLogDomain,
  remindersDomain,
  tasksDomain,
  ttsDomain,
  governanceDomain,
  guardDomain,
  whyDomain,
  mcpDomain,
  updateDomain,
  inputDomain,
  deliveryDomain
]

/** A start order of the domains that is impossible: a need nobody provides, or needs in a circle. */
export class StartOrderError extends Error {
  override name = 'StartOrderError'
}

/**
 * Orders the domains so that each starts after the providers of what it needs (and of the optional
 * services that are present). Among domains free to start, the listed order is kept. Throws a
 * StartOrderError naming a missing service or the circle.
 */
export function startOrder (domains: readonly Domain[]): Domain[] {
  const provider = new Map<ServiceName, Domain>()
  for (const d of domains) {
    for (const s of d.provides) {
      const other = provider.get(s)
      if (other) throw new StartOrderError(`The ${s} service is provided by both ${other.name} and ${d.name}`)
      provider.set(s, d)
    }
  }
  const before = new Map<Domain, Domain[]>()
  for (const d of domains) {
    const deps: Domain[] = []
    for (const s of d.needs) {
      const p = provider.get(s)
      if (!p) throw new StartOrderError(`${d.name} needs the ${s} service, which no domain provides`)
      deps.push(p)
    }
    for (const s of d.optional ?? []) {
      const p = provider.get(s)
      if (p) deps.push(p)
    }
    before.set(d, deps.filter((p) => p !== d))
  }
  const order: Domain[] = []
  const state = new Map<Domain, 'visiting' | 'done'>()
  const visit = (d: Domain, path: Domain[]): void => {
    if (state.get(d) === 'done') return
    if (state.get(d) === 'visiting') {
      const circle = [...path.slice(path.indexOf(d)), d].map((x) => x.name).join(' -> ')
      throw new StartOrderError(`The domains need each other in a circle: ${circle}`)
    }
    state.set(d, 'visiting')
    for (const p of before.get(d) ?? []) visit(p, [...path, d])
    state.set(d, 'done')
    order.push(d)
  }
  for (const d of domains) visit(d, [])
  return order
}
