// The account-risk guard (docs/api.md, Groups of routes: guard; style B): every chat's risk figure and
// state (lib/guard), riskiest first, filtered and paged, and one chat's. Read-only: the settings are
// the `guard` config section.
import Router from '@koa/router'
import { z } from 'zod'
import { guardFor } from '../lib/config/group-settings.js'
import { PRIVATE, type ChatRisk } from '../lib/guard/service.js'
import type { Runtime } from '../lib/runtime.js'
import { B, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { filterId, parseQuery, parseWith } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const listQuery = z.object({
  state: z.enum(['normal', 'guarded', 'cooling', 'atRisk'], { error: 'state must be normal, guarded, cooling or atRisk' }).optional(),
  kind: z.enum(['group', 'private'], { error: 'kind must be group or private' }).optional()
})
const chatRisk = z.object({
  chat: z.string(), kind: z.enum(['group', 'private']), state: z.enum(['normal', 'guarded', 'cooling']), risk: z.number(),
  signals: z.object({ perMinute: z.number(), perHour: z.number(), long: z.number(), repeats: z.number(), links: z.number(), failures: z.number() }),
  reasons: z.array(z.string()), since: z.number().optional(), peak: z.number().optional(), lastSendAt: z.number().optional(),
  // the thresholds in force in that chat
  riskAt: z.number(), recoverBelow: z.number()
})
const chatParam = filterId('chat', `chat must be a group id or ${PRIVATE}`)

export function guardRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/guard' })
  const svc = () => rt.need('guard')
  // the thresholds in force in that chat, so the dashboard can show the figure against them
  const item = (x: ChatRisk): Data<typeof chatRisk> => {
    const s = guardFor(rt.config.get(), x.chat === PRIVATE ? undefined : x.chat)
    return { ...x, riskAt: s.riskAt, recoverBelow: s.recoverBelow }
  }

  r.get('/', B((ctx) => {
    const q = parseQuery(ctx, listQuery)
    const list = svc().list().filter((x) =>
      (!q.kind || x.kind === q.kind) && (!q.state || (q.state === 'atRisk' ? x.state !== 'normal' : x.state === q.state)))
    const p = pageParams(ctx)
    if (!p) return list.map(item)
    return paged(list.slice(p.offset, p.offset + p.limit).map(item), list.length, p)
  }))
  routeDoc(r, 'GET', '/', { query: listQuery, summary: 'Risk figure and state of every chat with recent sends, riskiest first (filter by state, atRisk = not normal, and kind; paged)', data: z.array(chatRisk) })

  r.get('/:chat', B((ctx) => {
    const chat = parseWith(chatParam, ctx.params.chat)
    const found = svc().chat(chat)
    if (found) return item(found)
    // nothing sent there in the kept window: a quiet chat is a normal one
    return item({ chat, kind: chat === PRIVATE ? 'private' : 'group', state: 'normal', risk: 0, signals: { perMinute: 0, perHour: 0, long: 0, repeats: 0, links: 0, failures: 0 }, reasons: [] })
  }))
  routeDoc(r, 'GET', '/:chat', { summary: `One chat's risk figure, signals and state (a group id, or ${PRIVATE} for the private chats)`, data: chatRisk })
  return r
}
