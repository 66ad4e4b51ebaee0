// Tools by risk tier (access.features.toolsMedium / toolsHigh, per group too): the chat's tool provider
// (rt.chat.tools) is wrapped so a user who may not use a tier is neither offered its tools nor able to
// run them. The wrapper sits on top of whatever provider is there (the skills domain wraps it too),
// and a provider assigned later is wrapped as it comes. A turn's scope carries no group role, so
// `admin` in these two lists matches nobody (QQ ids do). Masters get every tier.
import type { ChatScope, ToolProvider } from '../chat/contracts.js'
import type { Runtime } from '../runtime.js'
import { decideAccess } from './access.js'

type Risk = 'low' | 'medium' | 'high'

function tierAllowed (rt: Runtime, scope: ChatScope, risk: Risk): boolean {
  if (risk === 'low' || scope.isMaster) return true
  const who = { userId: scope.userId, ...(scope.groupId !== undefined ? { groupId: scope.groupId } : {}), isMaster: scope.isMaster, isGroupAdmin: false }
  return decideAccess(rt.config.get(), who, risk === 'high' ? 'toolsHigh' : 'toolsMedium') === 'ok'
}

function riskOf (rt: Runtime, alias: string): Risk {
  const kit = rt.optional('tools')
  if (!kit) return 'low'
  const t = kit.registry.get(kit.provider.nameOf(alias) ?? alias)
  return t ? kit.registry.riskOf(t) : 'low'
}

/** inner provider -> its tier-checking wrapper (one per provider: the getter is read several times a turn) */
const wrappers = new WeakMap<ToolProvider, ToolProvider>()

function byTier (rt: Runtime, inner: ToolProvider): ToolProvider {
  const known = wrappers.get(inner)
  if (known) return known
  const outer: ToolProvider = {
    definitionsFor: async (turn) => (await inner.definitionsFor(turn)).filter((d) => tierAllowed(rt, turn.scope, riskOf(rt, d.name))),
    execute: async (name, args, turn) => {
      if (!tierAllowed(rt, turn.scope, riskOf(rt, name))) {
        return { content: [{ type: 'text', text: `Tool ${name} is not available to this user` }], isError: true }
      }
      return await inner.execute(name, args, turn)
    }
  }
  wrappers.set(inner, outer)
  return outer
}

/** Makes rt.chat.tools always hold a tier-checking provider (over the one there, or assigned later). */
export function guardToolTiers (rt: Runtime): void {
  const hooks = rt.chat
  const prev = Object.getOwnPropertyDescriptor(hooks, 'tools')
  let plain = prev && !prev.get ? prev.value as ToolProvider | undefined : undefined
  const read = (): ToolProvider | undefined => (prev?.get ? prev.get.call(hooks) as ToolProvider | undefined : plain)
  const write = (p: ToolProvider | undefined): void => { if (prev?.set) prev.set.call(hooks, p); else plain = p }
  Object.defineProperty(hooks, 'tools', {
    configurable: true,
    enumerable: true,
    get: () => { const p = read(); return p ? byTier(rt, p) : undefined },
    set: (p: ToolProvider | undefined) => { write(p) }
  })
}
