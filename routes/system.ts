// System (docs/api.md, Groups of routes: system; style A): status, info, health (public), the live event
// stream, and the plugin's version: its checkout, the packages the loader found missing, and on demand
// what the remote has that this checkout does not (lib/update).
import Router from '@koa/router'
import { z } from 'zod'
import type { LogEntry } from '../lib/core/event-bus.js'
import type { Runtime } from '../lib/runtime.js'
import { UpdateRefused } from '../lib/update/version.js'
import { systemHealth, systemInfo, systemStatus, systemStatusJson } from '../lib/system/status.js'
import { A, JsonText, styledRouter } from './_http/envelope.js'
import { DetailedError } from './_http/errors.js'
import { routeDoc, type Data } from './_http/route-docs.js'
import { openSse } from './_http/sse.js'

const commit = z.object({ hash: z.string(), date: z.string(), subject: z.string() })
const remoteCheck = z.object({ checkedAt: z.string(), upstream: z.string(), behind: z.number(), ahead: z.number(), commits: z.array(commit) })
const versionData = z.object({
  version: z.string(),
  git: z.boolean(),
  commit: z.string().optional(),
  shortCommit: z.string().optional(),
  date: z.string().optional(),
  branch: z.string().optional(),
  upstream: z.string().optional(),
  dirty: z.boolean().optional(),
  dependencies: z.object({
    missing: z.array(z.object({ name: z.string(), range: z.string(), installed: z.string().optional() })),
    command: z.string(),
    install: z.object({ attempted: z.boolean(), ok: z.boolean(), error: z.string().optional(), seconds: z.number() }).optional(),
    featuresOff: z.array(z.object({ feature: z.string(), packages: z.array(z.string()), text: z.string() }))
  }),
  lastCheck: remoteCheck.optional()
})

// The answers of status, info and health (lib/system/status.ts builds them)
const statusData = z.object({
  status: z.literal('running'), version: z.string(), uptime: z.number(), startTime: z.string(), runtime: z.string(),
  memory: z.object({ used: z.number(), total: z.number(), percentage: z.number() }),
  bot: z.object({ connected: z.boolean(), platform: z.string(), uin: z.string() })
})
const infoData = z.object({
  version: z.string(), platform: z.string(), arch: z.string(), runtime: z.string(),
  features: z.object({ mcp: z.boolean(), memory: z.boolean(), galgame: z.boolean(), knowledge: z.boolean() }),
  adapters: z.array(z.string()), mcpServers: z.number(), totalTools: z.number()
})
const healthData = z.object({
  healthy: z.boolean(),
  checks: z.object({
    database: z.object({ status: z.enum(['ok', 'error']), latency: z.number() }),
    config: z.object({ status: z.enum(['ok', 'error']), message: z.string().optional() }),
    bot: z.object({ status: z.enum(['connected', 'disconnected']) }),
    channels: z.object({ status: z.enum(['ok', 'degraded', 'unconfigured']), available: z.number() })
  })
})

export const METRIC_INTERVAL_MS = 5000
export const HEARTBEAT_MS = 15000

export function systemRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/system' })

  r.get('/status', A(() => new JsonText(systemStatusJson(rt))))
  routeDoc(r, 'GET', '/status', { summary: 'Running state, version, uptime, memory and the bot connection', data: statusData })
  r.get('/info', A(() => systemInfo(rt)))
  routeDoc(r, 'GET', '/info', { summary: 'Platform, features and counts', data: infoData })
  r.get('/health', A(() => systemHealth(rt)))
  routeDoc(r, 'GET', '/health', { summary: 'Health checks (public)', data: healthData })

  r.get('/version', A(async () => {
    const svc = rt.need('update')
    const { install, ...deps } = svc.dependencies()
    // the install's output stays in the log: it names local paths the dashboard has no use for
    const installView = install ? { attempted: install.attempted, ok: install.ok, seconds: install.seconds, ...(install.error ? { error: install.error } : {}) } : undefined
    return { ...(await svc.version()), dependencies: { ...deps, ...(installView ? { install: installView } : {}) }, ...(svc.lastCheck ? { lastCheck: svc.lastCheck } : {}) }
  }))
  routeDoc(r, 'GET', '/version', { summary: "The plugin's version, commit, date and branch, the packages missing at start with the features they turn off, and the last remote check", data: versionData })

  r.post('/version/check', A(async (): Promise<Data<typeof remoteCheck>> => {
    try {
      return await rt.need('update').check()
    } catch (err) {
      // why the check cannot run, as a name the dashboard decides on (docs/api.md, Version and updates)
      if (err instanceof UpdateRefused) throw new DetailedError(err, { reason: err.reason, ...(err.detail.length ? { files: err.detail } : {}) })
      throw err
    }
  }))
  routeDoc(r, 'POST', '/version/check', { summary: 'Fetches the remote branch the checkout follows and answers how many commits it has that this checkout has not (no update is made; a refusal says why in details.reason)', data: remoteCheck, errors: [409, 502] })

  r.get('/events', (ctx) => {
    const sse = openSse(ctx, rt.bus)
    const metric = (): void => {
      const mem = process.memoryUsage()
      sse.send('metric', { timestamp: rt.clock.now(), memory: { rss: mem.rss, heapUsed: mem.heapUsed }, uptime: Math.floor((rt.clock.now() - rt.startedAt) / 1000), ...rt.stats.totals() })
    }
    sse.send('status', systemStatus(rt))
    metric()
    const timers = [rt.clock.setInterval(metric, METRIC_INTERVAL_MS), rt.clock.setInterval(() => { sse.comment('heartbeat') }, HEARTBEAT_MS)]
    const offSystem = rt.bus.on('system', (name, data) => { sse.send(name, data) })
    const offLog = rt.bus.on('log', (e: LogEntry) => { if (e.level === 'error') sse.send('error', { timestamp: e.timestamp, message: e.message, meta: e.meta }) })
    sse.onClose(() => { timers.forEach((t) => rt.clock.clearInterval(t)); offSystem(); offLog() })
  })
  routeDoc(r, 'GET', '/events', { summary: 'Live system events (SSE)', contentType: 'text/event-stream', events: ['status (once)', 'metric (every 5 s)', 'channel', 'error', ': heartbeat comment (every 15 s)'] })

  return r
}
