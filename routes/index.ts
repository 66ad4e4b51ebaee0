// Starts the plugin's services and web server, with every group's router in order. Earlier routers
// win where paths overlap (DECISIONS part 2: the variant named first wins).
import type Router from '@koa/router'
import { initDomains } from '../lib/domains.js'
import { createRuntime, stopRuntime, type Runtime, type RuntimeOptions } from '../lib/runtime.js'
import { startWebServer, type WebServer } from './_http/server.js'
import { authRoutes } from './auth.js'
import { configRoutes } from './config.js'
import { logsRoutes } from './logs.js'
import { statsRoutes } from './stats.js'
import { systemRoutes } from './system.js'

export interface Lingxi {
  rt: Runtime
  web: WebServer
  stop(): Promise<void>
}

export function buildRouters (rt: Runtime): Router[] {
  // Order matters where paths overlap: the variant named first in DECISIONS part 2 comes first.
  return [
    authRoutes(rt),
    systemRoutes(rt),
    statsRoutes(rt),
    logsRoutes(rt),
    configRoutes(rt)
  ]
}

export async function startLingxi (opts: RuntimeOptions = {}): Promise<Lingxi> {
  const rt = await createRuntime(opts)
  try {
    await initDomains(rt)
    const web = await startWebServer(rt, buildRouters(rt))
    let stopped: Promise<void> | undefined
    return {
      rt,
      web,
      stop: () => (stopped ??= (async () => {
        rt.bus.emit('stopping')
        await web.close()
        await stopRuntime(rt)
      })())
    }
  } catch (err) {
    await stopRuntime(rt)
    throw err
  }
}
