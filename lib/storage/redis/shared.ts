// Everything this instance shares through Redis, opened once by lib/runtime.ts when Redis is configured
// (lib/storage/README.md, "Redis"). Without Redis the runtime keeps the in-process state of one instance.
import type { SharedTokenStore } from '../../auth/login-tokens.js'
import type { SharedSessions } from '../../auth/sessions.js'
import type { Clock } from '../../core/clock.js'
import type { PluginLogger } from '../../core/logger.js'
import type { SharedWindow } from '../../core/rate-limit.js'
import type { SharedQuotas } from '../../governance/quota.js'
import { hostRedisUrl } from '../../host/port.js'
import { ChangeNotices } from './changes.js'
import { connectRedis, type RedisLink } from './client.js'
import { type InstanceInfo, listInstances, startHeartbeat } from './heartbeat.js'
import { redisWindow } from './limits.js'
import { type HeldLock, tryLock } from './lock.js'
import { redisLoginTokens } from './login-tokens.js'
import { redisQuotas } from './quotas.js'
import { redisSessions } from './sessions.js'
import type { RedisSetting, RedisSource } from './settings.js'

export interface SharedState {
  /** where, without user or password, and which setting chose it */
  address: string
  from: RedisSource
  changes: ChangeNotices
  tokens: SharedTokenStore
  sessions: SharedSessions
  window(name: string): SharedWindow
  /** the governance quota counts (lib/governance/quota.ts) */
  quotas: SharedQuotas
  lock(name: string, ttlMs: number): Promise<HeldLock | undefined>
  /** Writes this instance's heartbeat now (the timer does every 10 s). */
  beat(): Promise<void>
  instances(): Promise<InstanceInfo[]>
  close(): Promise<void>
}

export interface SharedStateOptions {
  setting: Exclude<RedisSetting, { kind: 'none' }>
  instance: () => Omit<InstanceInfo, 'lastSeen'>
  clock: Clock
  log: PluginLogger
}

/** The URL a setting names; an Error in the owner's words when 'host' has no host Redis to use. */
function settingUrl (setting: SharedStateOptions['setting']): string {
  if (setting.kind === 'url') return setting.url
  const url = hostRedisUrl()
  if (!url) throw new Error(`${setting.from} is "host", but no Yunzai host Redis was found (the global \`redis\` is missing or does not say its address); give a redis:// address instead`)
  return url
}

export async function openSharedState (o: SharedStateOptions): Promise<SharedState> {
  const link: RedisLink = await connectRedis(settingUrl(o.setting), o.log)
  try {
    const changes = await ChangeNotices.open(link, o.instance().id)
    const sessions = await redisSessions(link, changes, o.clock)
    const heartbeat = startHeartbeat(link, o.instance, o.clock, (err) => o.log.warn(`Redis heartbeat failed: ${(err as Error).message}`))
    await heartbeat.beat()
    return {
      address: link.address,
      from: o.setting.from,
      changes,
      tokens: redisLoginTokens(link),
      sessions,
      window: (name) => redisWindow(link, name),
      quotas: redisQuotas(link),
      lock: async (name, ttlMs) => await tryLock(link, name, ttlMs),
      beat: heartbeat.beat,
      instances: async () => await listInstances(link, o.clock.now()),
      async close () {
        await heartbeat.stop()
        changes.close()
        await link.close()
      }
    }
  } catch (err) {
    await link.close()
    throw err
  }
}
