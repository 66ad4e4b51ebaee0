// Governance (docs/api.md, Groups of routes: governance; style B): the moderation hit log, newest
// first, filtered and paged, and the state of the moderation rules. The settings themselves are the
// config sections access, quotas and moderation (GET/PUT /api/config/:section).
import Router from '@koa/router'
import { z } from 'zod'
import type { Runtime } from '../lib/runtime.js'
import { B, styledRouter } from './_http/envelope.js'
import { paged } from './_http/paging.js'
import { filterId, intParam, parseQuery } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

const time = (name: string) => z.coerce.number({ error: `${name} must be a time in milliseconds` }).int().min(0)
const hitsQuery = z.object({
  userId: filterId('userId').optional(),
  groupId: filterId('groupId').optional(),
  direction: z.enum(['input', 'output'], { error: 'direction must be input or output' }).optional(),
  action: z.enum(['mask', 'refuse'], { error: 'action must be mask or refuse' }).optional(),
  rule: z.string().min(1).max(200).optional(),
  since: time('since').optional(),
  until: time('until').optional(),
  limit: z.string().optional(),
  offset: z.string().optional()
})

const hitData = z.object({
  id: z.number(), at: z.number(), userId: z.string(), groupId: z.string().optional(), direction: z.enum(['input', 'output']), rules: z.array(z.string()), action: z.enum(['mask', 'refuse'])
})
const rulesData = z.object({ rules: z.number(), listFile: z.string() })

export function governanceRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/governance' })
  const svc = () => rt.need('governance')

  // always paged (a busy bot's log is long): limit (default 50, at most 500) and offset
  r.get('/hits', B((ctx) => {
    const { limit, offset, ...filter } = parseQuery(ctx, hitsQuery)
    const list = svc().hits.list(filter)
    const p = { limit: intParam(limit, 50, 1, 500), offset: intParam(offset, 0, 0) }
    return paged(list.slice(p.offset, p.offset + p.limit), list.length, p)
  }))
  routeDoc(r, 'GET', '/hits', { query: hitsQuery, summary: 'Moderation hits, newest first (filters: userId, groupId, direction, action, rule, since, until; paged)', data: z.array(hitData) })

  r.get('/status', B(() => ({ rules: svc().ruleCount, listFile: svc().listFile })))
  routeDoc(r, 'GET', '/status', { summary: 'Moderation rules in force (count) and the list file they come from', data: rulesData })

  // after the owner edited <data>/moderation-words.txt (a config change reloads on its own)
  r.post('/reload', B(() => { svc().reloadRules(); return { rules: svc().ruleCount, listFile: svc().listFile } }))
  routeDoc(r, 'POST', '/reload', { summary: 'Read the moderation list file and the configured lists again', data: rulesData })
  return r
}
