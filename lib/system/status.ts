// System status, info and health figures (GET /api/system/status, /info, /health).
import { performance } from 'node:perf_hooks'
import { access, constants } from 'node:fs/promises'
import { arch, platform, totalmem } from 'node:os'
import { botIds, hostKind } from '../host/port.js'
import type { Runtime } from '../runtime.js'

const TOTAL_MEM = totalmem()
/** How long one reading of the resident memory serves `/status`. */
export const RSS_SAMPLE_MS = 1000
let rssSample = { at: Number.NEGATIVE_INFINITY, value: 0 }

/**
 * The process's resident memory, read at most once per RSS_SAMPLE_MS: each reading costs three
 * system calls, which made up about a quarter of a status request under load.
 */
function sampledRss (now: number): number {
  if (now - rssSample.at >= RSS_SAMPLE_MS || now < rssSample.at) rssSample = { at: now, value: process.memoryUsage.rss() }
  return rssSample.value
}

const RUNTIME = `Node.js ${process.version}`
let startTime = { at: Number.NaN, iso: '' }

export function systemStatus (rt: Runtime): Record<string, unknown> {
  const now = rt.clock.now()
  if (startTime.at !== rt.startedAt) startTime = { at: rt.startedAt, iso: new Date(rt.startedAt).toISOString() }
  const rss = sampledRss(now)
  const total = TOTAL_MEM
  const bots = botIds()
  return {
    status: 'running',
    version: rt.version,
    uptime: Math.floor((now - rt.startedAt) / 1000),
    startTime: startTime.iso,
    runtime: RUNTIME,
    memory: { used: rss, total, percentage: Math.round((rss / total) * 10000) / 100 },
    bot: { connected: bots.length > 0, platform: hostKind(), uin: bots[0] ?? '' }
  }
}

let statusText = { second: Number.NaN, startedAt: Number.NaN, rss: Number.NaN, text: '' }

/**
 * systemStatus as JSON, serialized again only when a figure in it can have changed: the uptime's
 * second or the memory sample (a bot connecting shows within a second). GET /api/system/status
 * under load answers the same text in between.
 */
export function systemStatusJson (rt: Runtime): string {
  const now = rt.clock.now()
  const second = Math.floor((now - rt.startedAt) / 1000)
  const rss = sampledRss(now)
  if (statusText.second !== second || statusText.rss !== rss || statusText.startedAt !== rt.startedAt) {
    statusText = { second, startedAt: rt.startedAt, rss, text: JSON.stringify(systemStatus(rt)) }
  }
  return statusText.text
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
