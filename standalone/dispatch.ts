// Event dispatch, `deal(e)`: black/white lists, cooldowns,
// enable/disable and event filters, the context hook, the @/alias gate, accept(), then rules in
// priority order with permission checks. The profile decides how instances are made: Miao builds
// every class anew per event, TRSS filters with the load-time instance and builds one per call.
import type { HostConfig } from './config.js'
import { contextKey, type ContextStore } from './context.js'
import { deriveFields, passesGate, rewriteGamePrefix, stripAlias } from './derive.js'
import { sameId } from './ids.js'
import type { Limits } from './limits.js'
import type { Loader, PluginEntry } from './loader.js'
import type { StandaloneLogger } from './logger.js'
import { LIMITS, MIAO_MEMBER_LOADING, REFUSAL_ADMIN, REFUSAL_MASTER, REFUSAL_OWNER } from './profile.js'
import { installReply, type ReplyDeps } from './reply.js'
import type { DealResult, GroupConfig, Id, PluginInstance, Profile, Refusal, RuleSpec, StandaloneEvent } from './types.js'

export interface DispatchDeps extends ReplyDeps {
  profile: Profile
  loader: Loader
  config: HostConfig
  limits: Limits
  contexts: ContextStore
  logger: StandaloneLogger
  refusals: Refusal[]
}

interface Candidate {
  name: string
  rules: Array<{ spec: RuleSpec; regExp: () => RegExp }>
  instance: () => PluginInstance
}

/** `event` is compared part by part with post_type, message/notice/request type and sub_type; `*` matches anything. */
function filtEvent(e: StandaloneEvent, event: string): boolean {
  const have = [e.post_type, e.message_type ?? e.notice_type ?? e.request_type, e.sub_type]
  return event.split('.').every((want, i) => want === '*' || want === have[i])
}

function blocked(e: StandaloneEvent, cfg: HostConfig): boolean {
  const has = (list: Id[], id: Id | undefined): boolean => list.some((x) => sameId(x, id))
  const { blackQQ, whiteQQ, blackGroup, whiteGroup } = cfg.other
  if (has(blackQQ, e.user_id) || (whiteQQ.length && !has(whiteQQ, e.user_id))) return true
  if (e.group_id === undefined) return false
  return has(blackGroup, e.group_id) || (whiteGroup.length > 0 && !has(whiteGroup, e.group_id))
}

function disabled(name: string, group: GroupConfig): boolean {
  return (group.enable.length > 0 && !group.enable.includes(name)) || group.disable.includes(name)
}

/** The refusal text, or undefined when the rule's permission allows the sender. */
function permissionRefusal(profile: Profile, permission: RuleSpec['permission'] | undefined, e: StandaloneEvent): string | undefined {
  if (!permission || permission === 'all') return undefined
  if (permission === 'master') return e.isMaster ? undefined : REFUSAL_MASTER
  if (profile === 'trss' && e.isMaster) return undefined // TRSS masters pass every level
  if (!e.isGroup) return undefined
  if (profile === 'miao' && !e.member?._info) return MIAO_MEMBER_LOADING
  if (permission === 'owner') return e.member?.is_owner ? undefined : REFUSAL_OWNER
  if (permission === 'admin') return e.member?.is_admin || e.member?.is_owner ? undefined : REFUSAL_ADMIN
  return undefined
}

function candidate(profile: Profile, entry: PluginEntry, e: StandaloneEvent): Candidate {
  const build = (): PluginInstance => {
    const p = new entry.class(undefined, e)
    p.e = e
    return p
  }
  if (profile === 'miao') {
    const p = build()
    const rules = (Array.isArray(p.rule) ? p.rule : []).map((spec) => ({ spec, regExp: () => new RegExp(spec.reg ?? '') }))
    return { name: p.name, rules, instance: () => p }
  }
  const rules = (entry.rules ?? []).map((r) => ({ spec: r as RuleSpec, regExp: () => r.regExp }))
  return { name: entry.plugin.name, rules, instance: build }
}

function eventFilter(profile: Profile, entry: PluginEntry, c: Candidate): string {
  return profile === 'miao' ? String(c.instance().event ?? 'message') : entry.plugin.event
}

export async function deal(deps: DispatchDeps, e: StandaloneEvent): Promise<DealResult> {
  const { profile, config, limits, contexts, logger } = deps
  deriveFields(e, { profile, isMaster: (u, s) => config.isMaster(u, s), slashToHash: config.bot['/→#'] === true })
  installReply(e, deps)

  if (blocked(e, config)) return { stage: 'blacklist' }
  const limited = limits.check(e)
  if (limited) return { stage: limited }

  const group = config.group(e.group_id, e.self_id)
  const alias = e.isGroup && typeof e.msg === 'string' ? group.botAlias.find((a) => a && (e.msg as string).startsWith(a)) : undefined
  const gateOpen = passesGate(e, group, alias !== undefined)
  if (LIMITS[profile].armOn === 'gate' && gateOpen) limits.arm(e)

  const candidates: Candidate[] = []
  for (const entry of deps.loader.entries) {
    let c: Candidate
    try {
      c = candidate(profile, entry, e)
    } catch (error) {
      logger.error(`[${entry.name}] 插件构造错误`, error)
      continue
    }
    if (!disabled(c.name, group) && filtEvent(e, eventFilter(profile, entry, c))) candidates.push(c)
  }

  // Context hook: stored contexts of the user (or group) take the event before anything else.
  for (const c of candidates) {
    let consumed: DealResult | undefined
    for (const isGroup of [false, true]) {
      if (isGroup && e.group_id === undefined) continue
      const stored = contexts.all(contextKey(profile, c.name, e, isGroup))
      for (const [type, storedEvent] of Object.entries(stored ?? {})) {
        const p = c.instance()
        const fn = p[type]
        if (typeof fn !== 'function') continue
        try {
          if ((await fn.call(p, storedEvent)) !== 'continue') consumed = { stage: 'context', plugin: c.name, fnc: type }
        } catch (error) {
          logger.error(`[${c.name}][${type}] 上下文处理错误`, error)
          return { stage: 'error', plugin: c.name, fnc: type, error }
        }
      }
    }
    if (consumed) return consumed
  }

  if (alias !== undefined) stripAlias(e, [alias])
  if (!gateOpen) return { stage: 'gate' }
  rewriteGamePrefix(e)

  for (const c of candidates) {
    const p = c.instance()
    if (typeof p.accept !== 'function') continue
    let ret: unknown
    try {
      ret = await p.accept(e)
    } catch (error) {
      logger.error(`[${c.name}][accept] 错误`, error)
      return { stage: 'error', plugin: c.name, fnc: 'accept', error }
    }
    if (ret === 'return') return { stage: 'accept', plugin: c.name, fnc: 'accept' }
    if (ret) break
  }

  for (const c of candidates) {
    for (const { spec, regExp } of c.rules) {
      if (spec.event && !filtEvent(e, spec.event)) continue
      // e.msg may be undefined; RegExp#test then tests the string "undefined", as in the hosts
      if (!regExp().test(String(e.msg))) continue
      e.logFnc = `[${c.name}][${spec.fnc}]`
      if (spec.log !== false) logger.mark(`${e.logFnc}${e.logText ?? ''} ${String(e.msg)}`)

      const refusal = permissionRefusal(profile, spec.permission, e)
      if (refusal) {
        deps.refusals.push({ plugin: c.name, fnc: spec.fnc, permission: String(spec.permission), user_id: e.user_id, group_id: e.group_id, text: refusal })
        await e.reply(refusal)
        return { stage: 'refused', plugin: c.name, fnc: spec.fnc }
      }

      const p = c.instance()
      const fn = p[spec.fnc]
      const started = Date.now()
      let ret: unknown
      try {
        ret = typeof fn === 'function' ? await fn.call(p, e) : undefined // a missing method still consumes
      } catch (error) {
        logger.error(`${e.logFnc} 执行错误`, error)
        return { stage: 'error', plugin: c.name, fnc: spec.fnc, error }
      }
      if (ret === false) continue
      if (LIMITS[profile].armOn === 'handled') limits.arm(e)
      if (spec.log !== false) logger.mark(`${e.logFnc} 处理完成 ${Date.now() - started}ms`)
      return { stage: 'handled', plugin: c.name, fnc: spec.fnc }
    }
  }
  return { stage: 'unhandled' }
}
