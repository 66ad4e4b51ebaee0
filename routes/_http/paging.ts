// Optional paging of the list routes (docs/api.md, "Paging"): `limit` and `offset` query parameters,
// read like every numeric parameter (intParam: an invalid value becomes the default, an out-of-range
// one is clamped). Without either the route answers its whole list in its documented shape; with one,
// `data` holds the page and the envelope gains `total`, `limit` and `offset`.
import type { Context } from 'koa'
import { reply, type Reply } from './envelope.js'
import { intParam } from './validate.js'

export interface PageParams { offset: number; limit: number }

const PAGE = { defaultLimit: 50, maxLimit: 1000 }

/** The requested page, or undefined when the request names neither `limit` nor `offset`. */
export function pageParams (ctx: Context, defaultLimit = PAGE.defaultLimit, maxLimit = PAGE.maxLimit): PageParams | undefined {
  const q = ctx.query
  if (q.limit === undefined && q.offset === undefined) return undefined
  return { offset: intParam(q.offset, 0, 0), limit: intParam(q.limit, defaultLimit, 1, maxLimit) }
}

/** A page in the envelope: the items as `data`, the paging figures beside it. */
export function paged<T> (items: T[], total: number, p: PageParams): Reply<T[]> {
  return reply(items, { extra: { total, limit: p.limit, offset: p.offset } })
}
