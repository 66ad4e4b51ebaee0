// System status, info and health figures (spec 2.2-2.4).
import { performance } from 'node:perf_hooks'
import { access, constants } from 'node:fs/promises'
import { arch, platform, totalmem } from 'node:os'
import { botIds, hostKind } from '../host/port.js'
import type { Runtime } from '../runtime.js'

const TOTAL_MEM = totalmem()

export function systemStatus (rt: Runtime): Record<string, unknown> {
  const rss = process.memoryUsage.rss()
  const total = TOTAL_MEM
  const bots = botIds()
  return {
    status: 'running',
    version: rt.version,
    uptime: Math.floor((rt.clock.now() - rt.startedAt) / 1000),
    startTime: new Date(rt.startedAt).toISOString(),
    runtime: `Node.js ${process.version}`,
    memory: { used: rss, total, percentage: Math.round((rss / total) * 10000) / 100 },
    bot: { connected: bots.length > 0, platform: hostKind(), uin: bots[0] ?? '' }
  }
}

export function systemInfo (rt: Runtime): Record<string, unknown> {
  return {
    version: rt.version,
    platform: platform(),
    arch: arch(),
    runtime: `Node.js ${process.version}`,
    features: { mcp: true, memory: rt.config.get().memory.enabled, galgame: true, knowledge: rt.config.get().knowledge.enabled },
    adapters: [hostKind()],
    mcpServers: rt.optional('mcp')?.count() ?? Object.keys(rt.config.get().mcp.servers).length,
    totalTools: rt.optional('tools')?.registry.list().length ?? 0
  }
}

export async function systemHealth (rt: Runtime): Promise<{ healthy: boolean; checks: Record<string, Record<string, unknown>> }> {
  const t0 = performance.now()
  let dbStatus = 'ok'
  try { await access(rt.paths.dataDir, constants.R_OK | constants.W_OK) } catch { dbStatus = 'error' }
  const latency = Math.round((performance.now() - t0) * 100) / 100
  const channels = rt.config.get().channels
  const available = rt.optional('channels')?.service.availableCount() ?? channels.filter((c) => c.enabled).length
  const bots = botIds()
  const configError = rt.config.loadError
  return {
    healthy: dbStatus === 'ok' && configError === undefined,
    checks: {
      database: { status: dbStatus, latency },
      config: configError === undefined ? { status: 'ok' } : { status: 'error', message: configError },
      bot: { status: bots.length > 0 ? 'connected' : 'disconnected' },
      channels: { status: available > 0 ? 'ok' : (channels.length ? 'degraded' : 'unconfigured'), available }
    }
  }
}
