// Start-up of the domain services, in order (a later domain may use an earlier one). Each domain
// augments the Runtime interface in its own files (`declare module '../runtime.js'`) and assigns its
// service here, before the web server starts.
import type { Runtime } from './runtime.js'

export type DomainInit = (rt: Runtime) => Promise<void> | void

const DOMAINS: Array<[name: string, init: DomainInit]> = [
  // [name, init] entries are added by each domain, one line each.
]

export async function initDomains (rt: Runtime): Promise<void> {
  for (const [name, init] of DOMAINS) {
    try {
      await init(rt)
    } catch (err) {
      rt.log.error(`Failed to start ${name}`, {}, err)
      throw err
    }
  }
}
