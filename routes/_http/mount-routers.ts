// Mounts the group routers on the app (createApp in server.ts). Mounted one by one, every request ran
// every router's matching in turn, each wrapped in its own allowedMethods layer: a request to the
// last group crossed some sixty middleware layers. Here one dispatcher skips a router whose prefix
// the path cannot start with (every route of a prefixed router starts with its prefix, matched
// case-insensitively), and one allowedMethods check after the last router replaces the per-router
// ones: they all read the same `ctx.matched` (every router adds its matches to it) with the same
// options and methods, so the innermost of them alone decided before too.
import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type Koa from 'koa'
import { AppError } from '../../lib/core/errors.js'
import compose from 'koa-compose'
import { memoByPath } from './path-memo.js'

const ALLOWED_METHODS_OPTIONS = {
  throw: true,
  methodNotAllowed: () => new AppError('METHOD_NOT_ALLOWED', 'Method not allowed'),
  notImplemented: () => new AppError('METHOD_NOT_ALLOWED', 'Method not implemented')
}

/** The lower-case prefix of a router when it is a literal path (no parameters), else undefined. */
function literalPrefix (r: Router): string | undefined {
  const p = r.opts.prefix
  return p && /^\/[\w/-]*$/.test(p) ? p.toLowerCase().replace(/\/+$/, '') : undefined
}

const sameMethods = (a: string[], b: string[]): boolean => a.length === b.length && a.every((m, i) => m === b[i])

export function mountRouters (app: Koa, routers: Router[]): void {
  const first = routers[0]
  if (!first) return
  if (!routers.every((r) => sameMethods(r.methods, first.methods))) {
    // routers that implement different methods: their checks differ, keep one per router
    for (const r of routers) { app.use(r.routes()); app.use(r.allowedMethods(ALLOWED_METHODS_OPTIONS)) }
    return
  }
  const entries = routers.map((r) => ({ prefix: literalPrefix(r), routes: rememberedRoutes(r) }))
  // Which routers hold a layer matching a path, whatever the method (the routers' own matching; the
  // routers are complete once mounted and none is bound to a host): remembered per path, so a request
  // enters only those, not every router whose prefix the path starts with (a prefix-less router such
  // as the MCP endpoint's, or `/api` ones, would otherwise run its matching on every request).
  const candidatesOf = memoByPath((path: string): number[] => {
    const lower = path.toLowerCase()
    const found: number[] = []
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as typeof entries[number]
      const mayMatch = e.prefix === undefined || lower === e.prefix || lower.startsWith(`${e.prefix}/`)
      if (mayMatch && (routers[i] as Router).match(path, 'GET').path.length > 0) found.push(i)
    }
    return found
  })
  const dispatcher: Koa.Middleware = (koaCtx, next) => {
    const ctx = koaCtx as RouterContext
    const which = candidatesOf(ctx.path)
    // what a router that matched nothing leaves behind (allowedMethods reads it)
    if (which.length === 0) { ctx.matched ??= []; return next() }
    const dispatch = (k: number): Promise<unknown> => {
      const i = which[k]
      if (i === undefined) return next()
      return Promise.resolve((entries[i] as typeof entries[number]).routes(ctx, () => dispatch(k + 1)))
    }
    return dispatch(0)
  }
  // mountedRouters (envelope.ts) finds the routers here: the OpenAPI document and styleOf read them
  app.use(Object.assign(dispatcher, { routers }))
  app.use(first.allowedMethods(ALLOWED_METHODS_OPTIONS))
}

type Layer = Router['stack'][number]
interface Routed {
  /** the layers matching the path whatever the method (what the router adds to ctx.matched) */
  matched: Layer[]
  /** the route's layers, each preceded by the step that sets its params, composed once */
  chain: compose.ComposedMiddleware<RouterContext>
  route: Layer | undefined
}
const NOT_ROUTED = Symbol('not routed')

/**
 * A router's middleware, its dispatch for a method and path worked out once: @koa/router runs every
 * layer's regular expression, builds the chain of the matched layers and composes it again for every
 * request (a fifth of what a small authenticated GET costs). Remembered per method and path (the
 * routers are complete once mounted); each call runs the same steps as the router's own dispatch
 * (params set per layer, ctx.matched, ctx.router, ctx._matchedRoute). What this does not repeat (a
 * router bound to a host, a routerPath, exclusive routers, a path no route answers: the router's
 * not-found event) goes to the router's own middleware.
 */
function rememberedRoutes (r: Router): (ctx: RouterContext, next: Koa.Next) => unknown {
  const own = r.routes()
  if (r.host !== undefined || r.opts.routerPath !== undefined || r.exclusive) return own
  const dispatchOf = memoByPath((key: string): Routed | typeof NOT_ROUTED => {
    const space = key.indexOf(' ')
    const method = key.slice(0, space)
    const path = key.slice(space + 1)
    const m = r.match(path, method)
    if (!m.route) return NOT_ROUTED
    const steps: Array<compose.Middleware<RouterContext>> = []
    for (const layer of m.pathAndMethod) {
      const at = layer.path as string // a RegExp path too, as the router does
      steps.push((ctx, next) => {
        ctx.captures = layer.captures(path)
        ctx.request.params = layer.params(path, ctx.captures, ctx.params)
        ctx.params = ctx.request.params
        ctx.routerPath = at
        ctx.routerName = layer.name ?? undefined
        ctx._matchedRoute = at
        if (layer.name) ctx._matchedRouteName = layer.name
        return next()
      }, ...(layer.stack as Array<compose.Middleware<RouterContext>>))
    }
    return { matched: m.path, chain: compose(steps), route: [...m.pathAndMethod].reverse().find((l) => l.methods.length > 0) }
  })
  return (ctx, next) => {
    if ((ctx as { newRouterPath?: string }).newRouterPath) return own(ctx, next)
    const d = dispatchOf(`${ctx.method} ${ctx.path}`)
    if (d === NOT_ROUTED) return own(ctx, next)
    if (ctx.matched) ctx.matched.push(...d.matched)
    else ctx.matched = d.matched.slice()
    ctx.router = r
    ctx.routeMatched = true
    if (d.route) {
      ctx._matchedRoute = d.route.path as string
      if (d.route.name) ctx._matchedRouteName = d.route.name
    }
    return d.chain(ctx, next)
  }
}
