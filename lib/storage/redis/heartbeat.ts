// Instance heartbeats: every 10 s each instance writes itself into one hash (`lingxi:instances`, a field
// per instance id); the instances route lists those seen in the last 60 s and drops older ones.
import type { Clock } from '../../core/clock.js'
import { key, type RedisLink } from './client.js'

const INSTANCES = key('instances')
const HEARTBEAT_MS = 10_000
const SEEN_WITHIN_MS = 60_000

export interface InstanceInfo { id: string; name: string; version: string; startedAt: number; lastSeen: number }

export function startHeartbeat (link: RedisLink, me: () => Omit<InstanceInfo, 'lastSeen'>, clock: Clock, onError: (err: unknown) => void): { beat(): Promise<void>; stop(): Promise<void> } {
  const beat = async (): Promise<void> => {
    const info: InstanceInfo = { ...me(), lastSeen: clock.now() }
    await link.cmd.hset(INSTANCES, info.id, JSON.stringify(info))
  }
  const timer = setInterval(() => { beat().catch(onError) }, HEARTBEAT_MS)
  timer.unref()
  return {
    beat,
    async stop () {
      clearInterval(timer)
      // A clean stop leaves the list at once; a killed instance ages out after SEEN_WITHIN_MS.
      await link.cmd.hdel(INSTANCES, me().id).catch(onError)
    }
  }
}

/** The instances seen within SEEN_WITHIN_MS, oldest start first; older entries are removed. */
export async function listInstances (link: RedisLink, now: number): Promise<InstanceInfo[]> {
  const all = await link.cmd.hgetall(INSTANCES)
  const live: InstanceInfo[] = []
  const stale: string[] = []
  for (const [id, raw] of Object.entries(all)) {
    let info: InstanceInfo | undefined
    try { info = JSON.parse(raw) as InstanceInfo } catch { info = undefined }
    if (info && typeof info.lastSeen === 'number' && info.lastSeen >= now - SEEN_WITHIN_MS) live.push(info)
    else stale.push(id)
  }
  if (stale.length) await link.cmd.hdel(INSTANCES, ...stale)
  return live.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id))
}
