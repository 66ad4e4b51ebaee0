// The session gate (README, Security model): one path rule in routes/_http/auth.ts decides on a canonical
// form of the path, so no spelling the routers or the static server accept reaches a route without a
// session. Swept over every route of every router (event streams included) with spelling variants,
// through raw HTTP so the path bytes are sent exactly as an attacker would send them.
import { expect } from 'chai'
import { buildRouters } from '../../routes/index.js'
import { canonicalPath, gateOf } from '../../routes/_http/auth.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { fill, raw, routesOf, spellings, type Route } from './raw-http.js'

const PUBLIC = new Set(['POST /api/auth/login', 'GET /api/system/health', 'GET /api/openapi.json'])

describe('session gate: the path rule', () => {
  it('computes one canonical form for every spelling', () => {
    for (const p of ['/API/config', '/%61pi/config', '//api//config/', '/lingxi/api/config', '/api%2Fconfig', '/%2561pi/config', '/Api\\config', '/LINGXI/LINGXI/API/CONFIG/']) {
      expect(canonicalPath(p), p).to.equal('/api/config')
    }
  })

  it('public only for the exact login and health paths, the MCP endpoint and the dashboard', () => {
    expect(gateOf('/api/auth/login')).to.equal('public')
    expect(gateOf('/api/system/health')).to.equal('public')
    expect(gateOf('/api/openapi.json')).to.equal('public')
    expect(gateOf('/')).to.equal('public')
    expect(gateOf('/assets/index-abc.js')).to.equal('public')
    expect(gateOf('/channels')).to.equal('public')
    expect(gateOf('/mcp')).to.equal('public')
    expect(gateOf('/api/config')).to.equal('session')
    expect(gateOf('/api/config/')).to.equal('session')
    expect(gateOf('/api/auth/login/')).to.equal('session')
    expect(gateOf('/api/presets/..%2F..%2Fauth%2Flogin')).to.equal('session')
    for (const p of ['/API/config', '/%61pi/config', '//api//config/', '/lingxi/api/config', '/x/../api/config', '/./api/config', '/api/./config', '/MCP', '/%6dcp', '/API/auth/login', '/Api/system/health']) {
      expect(gateOf(p), p).to.equal('refuse')
    }
  })
})

describe('session gate: sweep over every route with spelling variants', function () {
  this.timeout(300_000)
  let s: TestServer
  let routes: Route[]
  before(async () => {
    s = await startTestServer()
    routes = routesOf(buildRouters(s.lx.rt))
  })
  after(async () => { await s?.close() })

  const requestOf = (route: Route, path: string, headers: Record<string, string>): ReturnType<typeof raw> =>
    route.method === 'GET' || route.method === 'DELETE'
      ? raw(s.base, route.method, path, headers)
      : raw(s.base, route.method, path, { ...headers, 'Content-Type': 'application/json' }, '{}')

  it('covers every router, the event streams among them', () => {
    expect(routes.length).to.be.greaterThan(150)
    const paths = routes.map((r) => r.path)
    for (const sse of ['/api/system/events', '/api/skills/sse', '/mcp/sse']) expect(paths, sse).to.include(sse)
  })

  it('without a session nothing but login and health answers 2xx or 3xx, nor opens a stream', async () => {
    const leaks: string[] = []
    let requests = 0
    for (const route of routes) {
      const path = fill(route.path)
      for (const v of [{ name: 'as routed', path }, ...spellings(path)]) {
        requests++
        const r = await requestOf(route, v.path, {})
        const allowed = v.name === 'as routed' && PUBLIC.has(`${route.method} ${route.path}`)
        if ((r.status < 400 && !allowed) || (r.streamed && !allowed)) leaks.push(`${r.status}${r.streamed ? ' (stream)' : ''} ${route.method} ${v.path} [${v.name}]`)
      }
    }
    expect(requests).to.be.greaterThan(2500)
    expect(leaks, leaks.slice(0, 30).join('\n')).to.deep.equal([])
  })

  it('with a session, spellings other than the canonical one are refused (404) before any route runs', async () => {
    const wrong: string[] = []
    for (const route of routes) {
      const path = fill(route.path)
      for (const v of spellings(path)) {
        if (v.name === 'trailing slash') continue // the routers' own optional trailing slash: same route, same gate
        const r = await requestOf(route, v.path, { Authorization: `Bearer ${s.token}`, ...(path.startsWith('/mcp') ? { 'X-API-Key': 'none' } : {}) })
        if (r.status !== 404 || r.streamed) wrong.push(`${r.status} ${route.method} ${v.path} [${v.name}]`)
      }
    }
    expect(wrong, wrong.slice(0, 30).join('\n')).to.deep.equal([])
    // the server is still whole: nothing above ran a handler
    expect((await s.api('/api/system/status')).status).to.equal(200)
  })

  it('answers refused and unauthenticated API paths with the JSON envelope of their group', async () => {
    const refused = await raw(s.base, 'GET', '/API/config')
    expect(refused.status).to.equal(404)
    expect(JSON.parse(refused.text)).to.include({ success: false, code: 'NOT_FOUND' })
    const styleB = await raw(s.base, 'POST', '/api/tools/builtin/disable-all')
    expect(styleB.status).to.equal(401)
    expect(JSON.parse(styleB.text)).to.include({ code: -1 })
    const events = await raw(s.base, 'GET', '/API/system/events')
    expect(events.streamed).to.equal(false)
    expect(events.status).to.equal(404)
  })

  it('the attacks of the report fail: read config, disable all tools, clear all conversations', async () => {
    for (const [method, path] of [['GET', '/API/config'], ['POST', '/API/tools/builtin/disable-all'], ['DELETE', '/API/conversations/clear-all'], ['GET', '/%61pi/config'], ['GET', '//api//config/']] as const) {
      const r = await raw(s.base, method, path)
      expect(r.status, `${method} ${path}`).to.be.oneOf([401, 404])
      expect(r.text).to.not.include('"web"')
    }
  })
})

describe('session gate through the TRSS shared-port mount (/lingxi)', function () {
  this.timeout(120_000)
  let ph: import('../support/plugin-host.js').PluginHost
  let routes: Route[]
  before(async () => {
    const { startPluginHost } = await import('../support/plugin-host.js')
    ph = await startPluginHost('trss', 'lingxi-gate-trss-')
    routes = routesOf(buildRouters(ph.run.rt))
  })
  after(async () => { await ph?.stop() })

  it('without a session no spelling under the mount answers 2xx (health and login aside) or opens a stream', async () => {
    const base = ph.host.url ?? ''
    expect(base, 'the host serves HTTP').to.match(/^http/)
    expect((await raw(base, 'GET', '/lingxi/api/system/health')).status).to.equal(200)
    const leaks: string[] = []
    for (const route of routes) {
      const path = fill(route.path)
      const variants = [path, ...spellings(path).map((v) => v.path)].flatMap((p) => [`/lingxi${p}`, `/LINGXI${p}`, `/lingxi/${p}`, `/Lingxi${p.toUpperCase()}`])
      for (const p of variants) {
        const r = route.method === 'GET' || route.method === 'DELETE'
          ? await raw(base, route.method, p)
          : await raw(base, route.method, p, { 'Content-Type': 'application/json' }, '{}')
        const allowed = p === `/lingxi${path}` && PUBLIC.has(`${route.method} ${route.path}`)
        if ((r.status >= 200 && r.status < 300 && !allowed) || (r.streamed && !allowed)) leaks.push(`${r.status} ${route.method} ${p}`)
      }
    }
    expect(leaks, leaks.slice(0, 30).join('\n')).to.deep.equal([])
  })
})
