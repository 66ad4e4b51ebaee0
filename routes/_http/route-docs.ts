// What a route accepts and answers, declared on the line next to the route itself: the zod schemas its
// handler validates with (the same constants it passes to parseBody / parseQuery), the schema of its
// answer's data, its status and media type where they are not 200 JSON, and a one-line summary.
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
  /**
   * The `data` of a successful answer (what the handler returns, described as JSON: the output side).
   * `null` says the answer truly has none (a logout, a removal that only says it is done): style A leaves
   * `data` out, style B answers `data: null`, a bare answer has no body. Every answer that is neither a
   * file, a stream nor bodiless declares one or the other (tests/web/openapi-coverage.test.ts).
   */
  data?: z.ZodType | null
  /** True when the route answers its data as it is, not wrapped in its style's envelope (its errors still are). */
  bare?: boolean
  /** The success status when it is not 200: 201 for a creation, 204 for an answer without a body; a list when it varies (an error status: the route's only answer). */
  status?: number | number[]
  /** Success statuses answered without any body besides 204 (202 of the MCP endpoint: a notification taken). */
  noBody?: number[]
  /** The success answer's media type when it is not the JSON envelope: a YAML file, an SSE stream, a short text (its `data` the text's schema) or a gzip file (a backup). */
  contentType?: 'text/yaml' | 'application/x-yaml' | 'text/event-stream' | 'text/plain' | 'application/gzip'
  /** For a stream: the events it sends, one line each (`name: what it carries`). */
  events?: string[]
  /** Error statuses this route answers besides the shared ones (409 exists, 429 rate limited, 503 unavailable...). */
  errors?: number[]
}

type ReadonlyDeep<T> = T extends ReadonlyArray<infer U> ? ReadonlyArray<ReadonlyDeep<U>> : T extends object ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> } : T
/**
 * The data a route's schema describes: a handler whose result is typed with it is checked against the
 * document by tsc (read-only, so a domain's read-only lists are accepted as they are).
 */
export type Data<S extends z.ZodType> = ReadonlyDeep<z.output<S>>

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
