// Statistics (docs/api.md, Groups of routes: stats; style A), read from the daily rollups of the stats store.
import Router from '@koa/router'
import { z } from 'zod'
import type { Runtime } from '../lib/runtime.js'
import { retryAtData, spendingData } from '../lib/channels/service.js'
import { priceTable } from '../lib/stats/cost.js'
import { A, styledRouter } from './_http/envelope.js'
import { filterId, intParam, parseQuery } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const summaryQuery = z.object({
  period: z.enum(['day', 'week', 'month', 'all'], { error: 'period must be day, week, month or all' }).default('all'),
  groupId: filterId('groupId').optional()
})
/** What the provider's cache did (lib/stats/cost.ts CacheFigures): the cached share of the input (0..1), the money saved. */
const cacheFigures = { cachedShare: z.number().nullable(), cacheSaved: z.number().nullable() }
const cacheOptional = { cachedShare: cacheFigures.cachedShare.optional(), cacheSaved: cacheFigures.cacheSaved.optional() }
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
    ...cacheFigures,
    spending: spendingData.optional()
  })),
  currency: z.string()
})
const costFigures = { cost: z.number().nullable(), unpricedTokens: z.number() }
const counters = { messages: z.number(), responses: z.number(), toolCalls: z.number(), tokens: z.number() }
/** GET /: totals and days; cost figures when priced; `hourly` (today's hours) for period=day without a group. */
const summaryData = z.object({
  summary: z.record(z.string(), z.number()),
  daily: z.array(z.object({ date: z.string(), ...counters, cost: z.number().nullable().optional(), ...cacheOptional })),
  hourly: z.array(z.object({ time: z.string(), ...counters })).optional(),
  currency: z.string().optional(),
  cost: costFigures.cost.optional(),
  unpricedTokens: z.number().optional(),
  ...cacheOptional
})
const modelsData = z.object({
  models: z.array(z.object({
    model: z.string(), requests: z.number(), tokens: z.number(), avgLatency: z.number(), errors: z.number(),
    inputTokens: z.number().optional(), outputTokens: z.number().optional(), cachedTokens: z.number().optional(), pricedAs: z.string().nullable().optional(),
    cost: costFigures.cost.optional(), unpricedTokens: z.number().optional(), ...cacheOptional
  })),
  currency: z.string()
})
const toolsData = z.object({ tools: z.array(z.object({ name: z.string(), calls: z.number(), avgDuration: z.number(), successRate: z.number() })) })
const usersData = z.object({
  users: z.array(z.object({ userId: z.string(), nickname: z.string(), messages: z.number(), tokens: z.number(), lastActive: z.string(), cost: costFigures.cost.optional(), unpricedTokens: z.number().optional() })),
  currency: z.string()
})
const groupsData = z.object({
  groups: z.array(z.object({ groupId: z.string(), messages: z.number(), responses: z.number(), tokens: z.number(), users: z.number(), lastActive: z.string(), cost: costFigures.cost.optional(), unpricedTokens: z.number().optional() })),
  currency: z.string()
})
const usersQuery = z.object({ sort: z.enum(['messages', 'tokens', 'cost'], { error: 'sort must be messages, tokens or cost' }).default('messages') })

export function statsRoutes (rt: Runtime): Router {
  const r = styledRouter('A', { prefix: '/api/stats' })
  // Every answer carries the cost of its figures, priced by the current table (docs/api.md, Cost).
  const prices = () => priceTable(rt.config.get().pricing)

  r.get('/', A((ctx): Data<typeof summaryData> => {
    const q = parseQuery(ctx, summaryQuery)
    return rt.stats.summary(q.period, q.groupId, prices())
  }))
  routeDoc(r, 'GET', '/', { query: summaryQuery, summary: 'Usage summary', data: summaryData })
  r.get('/models', A((): Data<typeof modelsData> => ({ models: rt.stats.models(prices()), currency: prices().currency })))
  routeDoc(r, 'GET', '/models', { summary: 'Usage and cost per model', data: modelsData })
  r.get('/tools', A((): Data<typeof toolsData> => ({ tools: rt.stats.tools() })))
  routeDoc(r, 'GET', '/tools', { summary: 'Calls per tool', data: toolsData })
  r.get('/users', A((ctx): Data<typeof usersData> => {
    const { sort } = parseQuery(ctx, usersQuery)
    return { users: rt.stats.users(intParam(ctx.query.limit, 20, 1, 500), sort, prices()), currency: prices().currency }
  }))
  routeDoc(r, 'GET', '/users', { query: usersQuery, summary: 'Usage per user', data: usersData })
  r.get('/groups', A((ctx): Data<typeof groupsData> => ({ groups: rt.stats.groups(intParam(ctx.query.limit, 20, 1, 500), prices()), currency: prices().currency })))
  routeDoc(r, 'GET', '/groups', { summary: 'Usage per group', data: groupsData })
  r.get('/channels', A((): Data<typeof channelsData> => {
    const table = prices()
    const recorded = new Map(rt.stats.channels(table).map((c) => [c.id, c]))
    const service = rt.need('channels').service
    type Row = Data<typeof channelsData>['channels'][number]
    const channels: Row[] = rt.config.get().channels.map((c) => {
      const id = c.id ?? c.name
      const s = recorded.get(id)
      recorded.delete(id)
      // the live status the channels domain keeps (active / error / disabled), not a guess from totals
      return {
        id, name: c.name, status: service.status(c), retryAt: service.retryAt(c), requests: s?.requests ?? 0, errors: s?.errors ?? 0, avgLatency: s?.avgLatency ?? 0, lastUsed: s?.lastUsed ?? '',
        cost: s ? s.cost ?? null : 0, unpricedTokens: s?.unpricedTokens ?? 0, estimatedTokens: s?.estimatedTokens ?? 0,
        cachedShare: s?.cachedShare ?? null, cacheSaved: s ? s.cacheSaved ?? null : 0, spending: service.budgets.spending(c)
      }
    })
    for (const s of recorded.values()) channels.push({ id: s.id, name: s.name, status: 'removed', retryAt: null, requests: s.requests, errors: s.errors, avgLatency: s.avgLatency, lastUsed: s.lastUsed, cost: s.cost ?? null, unpricedTokens: s.unpricedTokens ?? 0, estimatedTokens: s.estimatedTokens, cachedShare: s.cachedShare ?? null, cacheSaved: s.cacheSaved ?? null })
    return { channels, currency: table.currency }
  }))
  routeDoc(r, 'GET', '/channels', { summary: 'Usage, cost and live status per channel', data: channelsData })

  return r
}
