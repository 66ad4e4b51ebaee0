// routes/_http/mount-routers.ts: one dispatcher that skips routers whose prefix the path cannot match
// and one allowedMethods check, instead of every router and its check in turn. It must answer exactly
// as mounting each router with its own allowedMethods does: compared here request by request.
import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'
import Router from '@koa/router'
import { AppError } from '../../lib/core/errors.js'
import { mountRouters } from '../../routes/_http/mount-routers.js'

function routers (): Router[] {
  const a = new Router({ prefix: '/api/things' })
  a.get('/', (ctx) => { ctx.body = 'things' })
  a.get('/:id', (ctx) => { ctx.body = `thing ${ctx.params.id}` })
  a.post('/', (ctx) => { ctx.status = 201; ctx.body = 'made' })
  // what the dispatch leaves on the context, for the routes remembered per path to be compared
  a.get('/:id/parts/:part', (ctx) => {
    ctx.body = JSON.stringify({ params: ctx.params, route: ctx._matchedRoute, routerPath: ctx.routerPath, matched: (ctx.matched ?? []).map((l) => l.path), routed: ctx.routeMatched })
  })
  const wide = new Router({ prefix: '/api' })
  wide.get('/things/special', (ctx) => { ctx.body = 'never: the first router takes it' })
  wide.put('/other/:id', (ctx) => { ctx.body = `other ${ctx.params.id}` })
  const b = new Router({ prefix: '/api/other' })
  b.use(async (ctx, next) => { ctx.set('X-Other', '1'); await next() })
  b.get('/', (ctx) => { ctx.body = 'other list' })
  const noPrefix = new Router()
  noPrefix.get('/mcp', (ctx) => { ctx.body = 'mcp' })
  return [a, wide, b, noPrefix]
}

async function serve (mount: (app: Koa) => void): Promise<{ url: string; server: Server }> {
  const app = new Koa()
  app.use(async (ctx, next) => {
    try { await next() } catch (err) { ctx.status = err instanceof AppError ? err.status : 500; ctx.body = `error ${err instanceof AppError ? err.code : String(err)}` }
  })
  mount(app)
  app.use((ctx) => { if (ctx.path === '/static.txt' && ctx.method === 'GET') ctx.body = 'static' })
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe('web: mounting the routers', () => {
  const opts = { throw: true, methodNotAllowed: () => new AppError('METHOD_NOT_ALLOWED', 'Method not allowed'), notImplemented: () => new AppError('METHOD_NOT_ALLOWED', 'Method not implemented') }
  let one: { url: string; server: Server }
  let each: { url: string; server: Server }
  before(async () => {
    one = await serve((app) => { mountRouters(app, routers()) })
    each = await serve((app) => { for (const r of routers()) { app.use(r.routes()); app.use(r.allowedMethods(opts)) } })
  })
  after(() => { one.server.close(); each.server.close() })

  it('answers every request as mounting each router with its own check does', async () => {
    const cases: Array<[string, string]> = [
      ['GET', '/api/things'], ['GET', '/api/things/'], ['GET', '/API/Things/7'], ['GET', '/api/things/special'],
      ['POST', '/api/things'], ['DELETE', '/api/things'], ['PATCH', '/api/things/1'], ['OPTIONS', '/api/things'],
      ['PUT', '/api/other/3'], ['GET', '/api/other'], ['DELETE', '/api/other'], ['GET', '/api/otherwise'],
      ['GET', '/api/nothing'], ['GET', '/mcp'], ['POST', '/mcp'], ['GET', '/static.txt'], ['POST', '/static.txt'],
      ['PROPFIND', '/static.txt'], ['PROPFIND', '/api/things'], ['GET', '/api/%74hings'],
      ['GET', '/api/things/4/parts/x'], ['GET', '/api/things/5/parts/y%20z'], ['GET', '/API/THINGS/4/parts/x']
    ]
    // twice over: the second time each path's dispatch is the remembered one
    cases.push(...cases)
    let compared = 0
    for (const [method, path] of cases) {
      const [x, y] = await Promise.all([one, each].map(async (s) => {
        const r = await fetch(`${s.url}${path}`, { method })
        return { status: r.status, body: await r.text(), allow: r.headers.get('allow'), other: r.headers.get('x-other') }
      }))
      expect(x, `${method} ${path}`).to.deep.equal(y)
      compared++
    }
    expect(compared).to.equal(cases.length)
  })
})
