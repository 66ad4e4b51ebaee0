// Reminders (docs/api.md, Groups of routes: reminders; style B): every pending reminder for the
// dashboard, filtered by user, group or kind of chat and paged, and cancelling one (the dashboard is
// the master's, so any). Setting reminders is the chat's (the set_reminder tool).
import Router from '@koa/router'
import { z } from 'zod'
import { notFound } from '../lib/core/errors.js'
import { describeRecurrence } from '../lib/reminders/recurrence.js'
import type { Reminder } from '../lib/reminders/types.js'
import { formatWall } from '../lib/reminders/zoned.js'
import type { Runtime } from '../lib/runtime.js'
import { B, styledRouter } from './_http/envelope.js'
import { paged, pageParams } from './_http/paging.js'
import { recurrenceData } from './_http/recurrence.js'
import { filterId, parseQuery, parseWith } from './_http/validate.js'
import { routeDoc } from './_http/route-docs.js'

const listQuery = z.object({
  userId: filterId('userId').optional(),
  groupId: filterId('groupId').optional(),
  chat: z.enum(['group', 'private'], { error: 'chat must be group or private' }).optional()
})
const reminderData = z.object({
  id: z.string(), userId: z.string(), nickname: z.string().optional(), groupId: z.string().optional(), botId: z.string().optional(),
  message: z.string(), createdAt: z.number(), nextAt: z.number(),
  recurrence: recurrenceData.optional(),
  status: z.enum(['active', 'done', 'cancelled']),
  fired: z.number(), lastFiredAt: z.number().optional(), sending: z.number().optional(), attempts: z.number().optional(), cancelledBy: z.string().optional()
})
// as listed: with the next time as wall time in the reminders' time zone, and the repeat in words
const reminderItem = reminderData.extend({ next: z.string(), timeZone: z.string(), repeat: z.string().optional() })
const reminderId = z.string().regex(/^r[0-9a-z]{5}$/, 'id must look like r0a1b2')

export function remindersRoutes (rt: Runtime): Router {
  const r = styledRouter('B', { prefix: '/api/reminders' })
  const svc = () => rt.need('reminders')
  const item = (x: Reminder): Reminder & { next: string; repeat?: string; timeZone: string } => {
    const tz = svc().timeZone
    return { ...x, next: formatWall(tz, x.nextAt), timeZone: tz, ...(x.recurrence ? { repeat: describeRecurrence(x.recurrence, rt.config.get().language) } : {}) }
  }

  // soonest first; the whole list, or with `limit`/`offset` a page of it (routes/_http/paging.ts)
  r.get('/', B((ctx) => {
    const q = parseQuery(ctx, listQuery)
    const list = svc().list(q)
    const p = pageParams(ctx)
    if (!p) return list.map(item)
    return paged(list.slice(p.offset, p.offset + p.limit).map(item), list.length, p)
  }))
  routeDoc(r, 'GET', '/', { query: listQuery, summary: 'List pending reminders (filter by userId, groupId, chat; paged)', data: z.array(reminderItem) })

  r.delete('/:id', B(async (ctx) => {
    const id = parseWith(reminderId, ctx.params.id)
    if (!svc().get(id)) throw notFound('Reminder not found')
    const cancelled = await svc().cancel(id, { isMaster: true })
    return { success: true, reminder: cancelled }
  }))
  routeDoc(r, 'DELETE', '/:id', { summary: 'Cancel a reminder', data: z.object({ success: z.literal(true), reminder: reminderData }) })
  return r
}
