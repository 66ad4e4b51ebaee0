// System (docs/api.md, Groups of routes: system; style A): status, info, health (public) and the live event stream.
import Router from '@koa/router'
import type { LogEntry } from '../lib/core/event-bus.js'
import type { Runtime } from '../lib/runtime.js'
import { systemHealth, systemInfo, systemStatus, systemStatusJson } from '../lib/system/status.js'
import { A, JsonText, styledRouter } from './_http/envelope.js'
import { openSse } from './_http/sse.js'

export const METRIC_INTERVAL_MS = 5000
export const HEARTBEAT_MS = 15000

export function systemRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/system' })

  r.get('/status', A(() => new JsonText(systemStatusJson(rt))))
  r.get('/info', A(() => systemInfo(rt)))
  r.get('/health', A(() => systemHealth(rt)))

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

  return r
}
