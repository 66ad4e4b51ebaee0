// Statistics (docs/api.md, Groups of routes: stats; style A), read from the daily rollups of the stats store.
import Router from '@koa/router'
import { z } from 'zod'
import type { Runtime } from '../lib/runtime.js'
import type { Spending } from '../lib/channels/budget.js'
import { priceTable } from '../lib/stats/cost.js'
import { A, styledRouter } from './_http/envelope.js'
import { intParam, parseQuery } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

const summaryQuery = z.object({
  period: z.enum(['day', 'week', 'month', 'all'], { error: 'period must be day, week, month or all' }).default('all'),
  groupId: z.string().regex(/^[\w-]{1,64}$/, 'groupId must be an id').optional()
})
const usersQuery = z.object({ sort: z.enum(['messages', 'tokens', 'cost'], { error: 'sort must be messages, tokens or cost' }).default('messages') })

export function statsRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/stats' })
  // Every answer carries the cost of its figures, priced by the current table (docs/api.md, Cost).
  const prices = () => priceTable(rt.config.get().pricing)

  r.get('/', A((ctx) => {
    const q = parseQuery(ctx, summaryQuery)
    return rt.stats.summary(q.period, q.groupId, prices())
  }))
  routeDoc(r, 'GET', '/', { query: summaryQuery, summary: 'Usage summary' })
  r.get('/models', A(() => ({ models: rt.stats.models(prices()), currency: prices().currency })))
  r.get('/tools', A(() => ({ tools: rt.stats.tools() })))
  r.get('/users', A((ctx) => {
    const { sort } = parseQuery(ctx, usersQuery)
    return { users: rt.stats.users(intParam(ctx.query.limit, 20, 1, 500), sort, prices()), currency: prices().currency }
  }))
  routeDoc(r, 'GET', '/users', { query: usersQuery, summary: 'Usage per user' })
  r.get('/groups', A((ctx) => ({ groups: rt.stats.groups(intParam(ctx.query.limit, 20, 1, 500), prices()), currency: prices().currency })))
  r.get('/channels', A(() => {
    const table = prices()
    const recorded = new Map(rt.stats.channels(table).map((c) => [c.id, c]))
    const service = rt.need('channels').service
    type Row = { id: string; name: string; status: string; requests: number; errors: number; avgLatency: number; lastUsed: string; cost: number | null; unpricedTokens: number; spending?: Spending }
    const channels: Row[] = rt.config.get().channels.map((c) => {
      const id = c.id ?? c.name
      const s = recorded.get(id)
      recorded.delete(id)
      // the live status the channels domain keeps (active / error / disabled), not a guess from totals
      return {
        id, name: c.name, status: service.status(c), requests: s?.requests ?? 0, errors: s?.errors ?? 0, avgLatency: s?.avgLatency ?? 0, lastUsed: s?.lastUsed ?? '',
        cost: s ? s.cost ?? null : 0, unpricedTokens: s?.unpricedTokens ?? 0, spending: service.budgets.spending(c)
      }
    })
    for (const s of recorded.values()) channels.push({ id: s.id, name: s.name, status: 'removed', requests: s.requests, errors: s.errors, avgLatency: s.avgLatency, lastUsed: s.lastUsed, cost: s.cost ?? null, unpricedTokens: s.unpricedTokens ?? 0 })
    return { channels, currency: table.currency }
  }))

  return r
}
