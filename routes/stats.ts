// Statistics (docs/api.md, Groups of routes: stats; style A), read from the daily rollups of the stats store.
import Router from '@koa/router'
import { z } from 'zod'
import type { Runtime } from '../lib/runtime.js'
import type { Spending } from '../lib/channels/budget.js'
import { retryAtData, spendingData } from '../lib/channels/service.js'
import { priceTable } from '../lib/stats/cost.js'
import { A, styledRouter } from './_http/envelope.js'
import { intParam, parseQuery } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

const summaryQuery = z.object({
  period: z.enum(['day', 'week', 'month', 'all'], { error: 'period must be day, week, month or all' }).default('all'),
  groupId: z.string().regex(/^[\w-]{1,64}$/, 'groupId must be an id').optional()
})
/** GET /channels: each configured channel with its live status, then removed ones that still have figures. */
const channelsData = z.object({
  channels: z.array(z.object({
    id: z.string(),
    name: z.string(),
    status: z.enum(['active', 'error', 'disabled', 'unconfigured', 'removed']),
    retryAt: retryAtData,
    requests: z.number(),
    errors: z.number(),
    avgLatency: z.number(),
    lastUsed: z.string(),
    cost: z.number().nullable(),
    unpricedTokens: z.number(),
    /** of its tokens, those counted by the plugin because the provider reported no usage (lib/channels/usage.ts) */
    estimatedTokens: z.number(),
    spending: spendingData.optional()
  })),
  currency: z.string()
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
    type Row = { id: string; name: string; status: string; retryAt: string | null; requests: number; errors: number; avgLatency: number; lastUsed: string; cost: number | null; unpricedTokens: number; estimatedTokens: number; spending?: Spending }
    const channels: Row[] = rt.config.get().channels.map((c) => {
      const id = c.id ?? c.name
      const s = recorded.get(id)
      recorded.delete(id)
      // the live status the channels domain keeps (active / error / disabled), not a guess from totals
      return {
        id, name: c.name, status: service.status(c), retryAt: service.retryAt(c), requests: s?.requests ?? 0, errors: s?.errors ?? 0, avgLatency: s?.avgLatency ?? 0, lastUsed: s?.lastUsed ?? '',
        cost: s ? s.cost ?? null : 0, unpricedTokens: s?.unpricedTokens ?? 0, estimatedTokens: s?.estimatedTokens ?? 0, spending: service.budgets.spending(c)
      }
    })
    for (const s of recorded.values()) channels.push({ id: s.id, name: s.name, status: 'removed', retryAt: null, requests: s.requests, errors: s.errors, avgLatency: s.avgLatency, lastUsed: s.lastUsed, cost: s.cost ?? null, unpricedTokens: s.unpricedTokens ?? 0, estimatedTokens: s.estimatedTokens })
    return { channels, currency: table.currency }
  }))
  routeDoc(r, 'GET', '/channels', { summary: 'Usage, cost and live status per channel', data: channelsData })

  return r
}
