// Envelope styles are declared, not guessed from paths: a router's style (styledRouter), a handler's
// wrapper (A/B) inside it, and for errors raised before or without a handler (a gate, a 405, a raw
// handler) the style of the route the request was for. Only paths no router knows use the fallback.
import type { AddressInfo } from 'node:net'
import { createServer, type Server } from 'node:http'
import { expect } from 'chai'
import Koa from 'koa'
import { AppError } from '../../lib/core/errors.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { A, B, styledRouter } from '../../routes/_http/envelope.js'
import { errorMiddleware } from '../../routes/_http/errors.js'
import { quietLogger } from '../skills/helpers.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('envelope styles declared by routers', () => {
  let server: Server
  let base: string

  before(async () => {
    const app = new Koa()
    app.silent = true
    app.use(errorMiddleware(quietLogger(new EventBus())))
    // A gate before routing (like the auth middleware): its error has no handler style yet.
    app.use(async (ctx, next) => {
      if (ctx.get('X-Deny')) throw new AppError('UNAUTHORIZED', 'Not authenticated')
      await next()
    })
    app.use(async (ctx, next) => {
      await next()
      if (ctx.body === undefined && ctx.path.startsWith('/api/')) throw new AppError('NOT_FOUND', 'No route')
    })
    const b = styledRouter('B', { prefix: '/api/things' })
    b.get('/', B(() => ['x']))
    b.post('/a-route', A(() => ({ ok: true }))) // a route of the other style inside a B router
    b.get('/raw', () => { throw new AppError('NOT_FOUND', 'raw handler, no wrapper') })
    const a = styledRouter('A', { prefix: '/api/items' })
    a.get('/:id', A(() => ({ id: 1 })))
    for (const r of [b, a]) {
      app.use(r.routes())
      app.use(r.allowedMethods({ throw: true, methodNotAllowed: () => new AppError('METHOD_NOT_ALLOWED', 'Method not allowed') }))
    }
    server = createServer(app.callback())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(async () => { await new Promise<void>((resolve) => server.close(() => resolve())) })

  const call = async (method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> => {
    const r = await fetch(`${base}${path}`, { method, headers })
    return { status: r.status, body: await r.json() as Record<string, unknown> }
  }
  const isB = (body: Record<string, unknown>): boolean => body.code === -1 && body.data === null && !('success' in body)
  const isA = (body: Record<string, unknown>): boolean => body.success === false && typeof body.code === 'string'

  it('a raw handler of a B router fails in style B (the router declared it)', async () => {
    const r = await call('GET', '/api/things/raw')
    expect(r.status).to.equal(404)
    expect(isB(r.body), JSON.stringify(r.body)).to.equal(true)
  })

  it('a 405 takes the style of the route on that path', async () => {
    const onB = await call('DELETE', '/api/things')
    expect(onB.status).to.equal(405)
    expect(isB(onB.body), JSON.stringify(onB.body)).to.equal(true)
    const onA = await call('GET', '/api/things/a-route')
    expect(onA.status).to.equal(405)
    expect(isA(onA.body), JSON.stringify(onA.body)).to.equal(true)
    const onARouter = await call('DELETE', '/api/items/7')
    expect(isA(onARouter.body), JSON.stringify(onARouter.body)).to.equal(true)
  })

  it('an error before routing takes the style of the route the request was for', async () => {
    const b = await call('GET', '/api/things', { 'X-Deny': '1' })
    expect(b.status).to.equal(401)
    expect(isB(b.body), JSON.stringify(b.body)).to.equal(true)
    const a = await call('POST', '/api/things/a-route', { 'X-Deny': '1' })
    expect(a.status).to.equal(401)
    expect(isA(a.body), JSON.stringify(a.body)).to.equal(true)
  })

  it('paths no router knows fall back to the style of their group name', async () => {
    expect(isA((await call('GET', '/api/nothing/here')).body)).to.equal(true)
    expect(isB((await call('GET', '/api/memory/zz/yy/xx')).body)).to.equal(true)
    expect(isA((await call('GET', '/api/memories/zz/yy/xx')).body)).to.equal(true)
    // /api/things is B by its router, but an unknown path below it is no route of it
    expect(isA((await call('GET', '/api/things/zz/yy')).body)).to.equal(true)
  })
})

describe('envelope styles through the real server', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  const isB = (body: Record<string, unknown>): boolean => body.code === -1 && body.data === null && !('success' in body)
  const isA = (body: Record<string, unknown>): boolean => body.success === false && typeof body.code === 'string'

  it('a raw handler (YAML export) fails in its router\'s style', async () => {
    const r = await s.api('/api/presets/ghost/export')
    expect(r.status).to.equal(404)
    expect(isA(r.body), r.text).to.equal(true)
  })

  it('401 before routing and 405 take the style of the route asked for', async () => {
    const cases: Array<[string, string, 'A' | 'B']> = [
      ['GET', '/api/memory/user/u1', 'B'], ['GET', '/api/memories/users', 'A'],
      ['GET', '/api/conversations/list', 'B'], ['GET', '/api/conversations/private:u1', 'A'], ['POST', '/api/conversations/private:u1/clear', 'A']
    ]
    for (const [method, path, style] of cases) {
      const r = await fetch(`${s.base}${path}`, { method })
      expect(r.status, path).to.equal(401)
      const body = await r.json() as Record<string, unknown>
      expect(style === 'A' ? isA(body) : isB(body), `${method} ${path}: ${JSON.stringify(body)}`).to.equal(true)
    }
    const b405 = await s.api('/api/conversations/list', { method: 'PUT', json: {} })
    expect(b405.status).to.equal(405)
    expect(isB(b405.body), b405.text).to.equal(true)
    const a405 = await s.api('/api/memories/users', { method: 'PATCH', json: {} })
    expect(a405.status).to.equal(405)
    expect(isA(a405.body), a405.text).to.equal(true)
  })
})
