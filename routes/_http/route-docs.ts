// What a route accepts, declared on the line next to the route itself: the zod schemas its handler
// validates with (the same constants it passes to parseBody / parseQuery) and a one-line summary.
// The OpenAPI document (openapi.ts) reads these; tests/web/openapi.test.ts fails when a declaration
// names a route its router does not have, so a declaration cannot drift from its route.
import type Router from '@koa/router'
import type { z } from 'zod'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

export interface RouteDoc {
  summary?: string
  /** The JSON body schema (the request is answered 400 when the body does not match it). */
  body?: z.ZodType
  /** The query string schema (an object schema; each key becomes a query parameter). */
  query?: z.ZodType
  /** The `data` of a successful answer, where a schema of it exists. */
  data?: z.ZodType
}

const docs = new WeakMap<Router, Map<string, RouteDoc>>()

/** The path @koa/router gives a route of a prefixed router (`/` under a prefix is the prefix itself). */
function fullPath (prefix: string | undefined, path: string): string {
  if (!prefix) return path
  return path === '/' ? prefix : `${prefix}${path}`
}

/** Declares what `method path` of router `r` accepts; `path` is written as in `r.get(path, ...)`. */
export function routeDoc (r: Router, method: HttpMethod, path: string, doc: RouteDoc): void {
  let map = docs.get(r)
  if (!map) { map = new Map(); docs.set(r, map) }
  map.set(`${method} ${fullPath(r.opts.prefix, path)}`, doc)
}

/** Every declaration of a router, keyed `METHOD /full/path` (the layer's path). */
export function docsOf (r: Router): ReadonlyMap<string, RouteDoc> {
  return docs.get(r) ?? new Map()
}
