// GET /api/system/instances (docs/api.md, Groups of routes: system; style A): the copies of the plugin
// that share this one's Redis and were seen in the last 60 s, and the storage in use, without secrets
// (addresses without user or password). Without Redis: this instance alone.
import { hostname } from 'node:os'
import Router from '@koa/router'
import { z } from 'zod'
import type { Runtime } from '../lib/runtime.js'
import { databaseUrl } from '../lib/storage/settings.js'
import { A, styledRouter } from './_http/envelope.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const instance = z.object({ id: z.string(), name: z.string(), version: z.string(), startedAt: z.number(), lastSeen: z.number(), self: z.boolean() })
const instancesData = z.object({
  instances: z.array(instance),
  storage: z.object({
    /** durable data: PostgreSQL for the stores on the port when an address is set, else the data folder's files (lib/storage/README.md) */
    database: z.enum(['files', 'postgresql']),
    redis: z.object({ address: z.string(), from: z.enum(['LINGXI_REDIS_URL', 'storage.redis.url']) }).nullable()
  })
})

export function systemInstanceRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/system' })

  r.get('/instances', A(async (): Promise<Data<typeof instancesData>> => {
    const shared = rt.shared
    // the database address as lib/storage/open.ts reads it (the process environment over the config)
    const database = databaseUrl(process.env, rt.config.get().storage) ? 'postgresql' as const : 'files' as const
    const storage = { database, redis: shared ? { address: shared.address, from: shared.from } : null }
    if (!shared) {
      return { instances: [{ id: rt.instanceId, name: rt.config.get().storage.instanceName || `${hostname()}:${rt.optional('web')?.server?.port ?? rt.config.get().web.port}`, version: rt.version, startedAt: rt.startedAt, lastSeen: rt.clock.now(), self: true }], storage }
    }
    await shared.beat()
    const list = await shared.instances()
    return { instances: list.map((i) => ({ ...i, self: i.id === rt.instanceId })), storage }
  }))
  routeDoc(r, 'GET', '/instances', { summary: 'The instances sharing this Redis seen in the last 60 s, and the storage in use', data: instancesData })

  return r
}
