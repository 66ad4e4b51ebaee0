// Every body shape answers 4xx, never 5xx (docs/api.md, Errors): JSON null, a bare number, string or
// boolean, an array where an object is expected, nesting 20,000 deep. The body parser
// (routes/_http/validate.ts) refuses the non-object shapes and anything deeper than MAX_BODY_DEPTH
// before any route runs; the sweep sends them to every route that takes a body, with real ids.
import { expect } from 'chai'
import { buildRouters } from '../../routes/index.js'
import { MAX_BODY_DEPTH, jsonDepth } from '../../routes/_http/validate.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { fill, raw, routesOf } from './raw-http.js'

const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n)
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n)
const REFUSED_AT_PARSER: Array<[string, string]> = [
  ['null', 'null'], ['number', '42'], ['string', '"text"'], ['boolean', 'true'],
  ['deep array 20000', deepArray(20_000)], ['deep object 20000', deepObject(20_000)], [`depth ${MAX_BODY_DEPTH + 1}`, deepArray(MAX_BODY_DEPTH + 1)]
]
const TO_ROUTE: Array<[string, string]> = [['empty array', '[]'], ['array of null', '[null]'], ['array of objects', '[{"a":1},{"b":2}]'], ['depth 64 object', deepObject(MAX_BODY_DEPTH - 1)]]

describe('body shapes on every route that takes a body', function () {
  this.timeout(300_000)
  let s: TestServer
  let presetId: string
  before(async () => {
    s = await startTestServer()
    const list = await s.api('/api/presets')
    presetId = (list.body.data.presets as Array<{ id: string }>)[0]?.id ?? 'x'
    await s.api('/api/memory/user/10001', { method: 'POST', json: { content: 'likes tea' } })
  })
  after(async () => { await s?.close() })

  it('measures depth without recursion', () => {
    expect(jsonDepth(JSON.parse(deepArray(100_000)))).to.be.greaterThan(MAX_BODY_DEPTH)
    expect(jsonDepth({ a: [1, { b: 2 }] })).to.equal(3)
    expect(jsonDepth(5)).to.equal(0)
  })

  it('refuses null, scalars and deep bodies with 400 at the parser, and sends other shapes to the route without a 5xx', async () => {
    const routes = routesOf(buildRouters(s.lx.rt)).filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && !r.path.startsWith('/mcp') && !/\/auth\/(logout|refresh)/.test(r.path))
    expect(routes.length).to.be.greaterThan(80)
    const failures: string[] = []
    const auth = { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' }
    for (const route of routes) {
      const paths = new Set([fill(route.path), fill(route.path, presetId).replace(/\/user\/[^/]+/, '/user/10001')])
      for (const path of paths) {
        // PUT /api/config/:section takes a bare value (the scalar sections); its route checks the type
        const scalarRoute = route.method === 'PUT' && route.path === '/api/config/:section'
        for (const [name, body] of REFUSED_AT_PARSER) {
          const r = await raw(s.base, route.method, path, auth, body)
          const ok = scalarRoute ? r.status >= 400 && r.status < 500 : r.status === 400 || (r.status === 404 && /No API route/.test(r.text))
          if (!ok) failures.push(`${r.status} ${route.method} ${path} ${name}: ${r.text.slice(0, 120)}`)
        }
        for (const [name, body] of TO_ROUTE) {
          const r = await raw(s.base, route.method, path, auth, body)
          // 503 "No available channels" is the documented answer of a summary that needs a model: no crash
          if (r.status >= 500 && !(r.status === 503 && /No available channels/.test(r.text))) failures.push(`${r.status} ${route.method} ${path} ${name}: ${r.text.slice(0, 120)}`)
        }
      }
    }
    expect(failures, failures.slice(0, 30).join('\n')).to.deep.equal([])
  })

  it('the routes of the report: preset copy, memory batch and summarize answer null with a clear 400', async () => {
    for (const path of [`/api/presets/${presetId}/copy`, '/api/memory/batch', '/api/memory/user/10001/summarize', '/api/memories/user/10001/summarize']) {
      const r = await s.api(path, { method: 'POST', body: 'null', headers: { 'Content-Type': 'application/json' } })
      expect(r.status, `${path} ${r.text}`).to.equal(400)
      expect(r.text).to.match(/JSON object/)
    }
    // the group's own code for a body of the wrong shape (variant A presets, config)
    expect((await s.api('/api/presets', { method: 'POST', json: 'text' })).body).to.include({ code: 'INVALID_PRESET' })
    expect((await s.api('/api/config', { method: 'PUT', json: null })).body).to.include({ code: 'INVALID_CONFIG' })
    // the scalar sections still take their bare value
    const debug = await s.api('/api/config/debug', { method: 'PUT', json: true })
    expect(debug.status, debug.text).to.equal(200)
    expect(s.lx.rt.config.get().debug).to.equal(true)
    await s.api('/api/config/debug', { method: 'PUT', json: false })
    const deep = await s.api('/api/config', { method: 'PUT', body: deepObject(20_000), headers: { 'Content-Type': 'application/json' } })
    expect(deep.status).to.equal(400)
    expect(deep.body).to.include({ success: false, code: 'INVALID_CONFIG' })
    expect(deep.body.message).to.match(/nested too deeply/)
    expect((await s.api('/api/system/health')).status).to.equal(200)
  })
})
