// GET /api/openapi.json: the OpenAPI 3.1 document built from the mounted routers. Every route of every
// router appears in it, each operation says its envelope and security, the declared body schemas are
// the ones the routes enforce, and the document holds no secret values.
import { expect } from 'chai'
import { docsOf } from '../../routes/_http/route-docs.js'
import { mountedRouters } from '../../routes/_http/envelope.js'
import { openApiPath, type OpenApiDocument } from '../../routes/_http/openapi.js'
import { startTestServer, type TestServer } from '../support/server.js'

type Operation = { tags: string[]; responses: Record<string, unknown>; security?: unknown[]; requestBody?: unknown; parameters?: Array<{ name: string; in: string }>; 'x-envelope': string }

describe('OpenAPI document', function () {
  this.timeout(60_000)
  let s: TestServer
  let doc: OpenApiDocument
  let text: string
  const SECRETS = { channelKey: 'sk-openapi-secret-channel-0123456789', mcpKey: 'openapi-mcp-key-0123456789abcdef' }
  const op = (method: string, path: string): Operation => doc.paths[path]?.[method] as Operation

  before(async () => {
    s = await startTestServer()
    const ch = await s.api('/api/config/channels', { method: 'POST', json: { name: 'oa', baseUrl: 'http://127.0.0.1:9/v1', apiKey: SECRETS.channelKey, model: 'gpt-4o' } })
    expect(ch.status, ch.text).to.equal(200)
    const mcp = await s.api('/api/config/mcp', { method: 'PUT', json: { server: { apiKey: SECRETS.mcpKey } } })
    expect(mcp.status, mcp.text).to.equal(200)
    // public: fetched without a session
    const res = await fetch(`${s.base}/api/openapi.json`)
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-type')).to.include('application/json')
    text = await res.text()
    doc = JSON.parse(text) as OpenApiDocument
  })
  after(async () => { await s?.close() })

  it('is an OpenAPI 3.1 document in shape', () => {
    expect(doc.openapi).to.equal('3.1.0')
    expect(doc.info.title).to.be.a('string').and.not.equal('')
    expect(doc.info.version).to.equal(s.lx.rt.version)
    expect(doc.components.securitySchemes).to.have.keys('bearerAuth', 'cookieAuth', 'mcpBearer', 'mcpApiKey')
    expect(doc.security).to.deep.equal([{ bearerAuth: [] }, { cookieAuth: [] }])
    const ids = new Set<string>()
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path, path).to.match(/^\/[^:]*$/) // {param}, never :param
      for (const [method, o] of Object.entries(item) as Array<[string, Operation & { operationId: string }]>) {
        expect(['get', 'post', 'put', 'patch', 'delete'], `${method} ${path}`).to.include(method)
        // a success status, except the OAuth discovery paths under /mcp, which only ever answer 404
        expect(Object.keys(o.responses).some((k) => /^2\d\d$/.test(k)) || path.includes('/.well-known/'), `${method} ${path}`).to.equal(true)
        expect(o.responses, `${method} ${path}`).to.include.keys('500', 'default')
        expect(o.tags, `${method} ${path}`).to.have.length(1)
        expect(ids.has(o.operationId), `duplicate operationId ${o.operationId}`).to.equal(false)
        ids.add(o.operationId)
        for (const p of o.parameters ?? []) if (p.in === 'path') expect(path, `${method} ${path} ${p.name}`).to.include(`{${p.name}}`)
      }
    }
  })

  it('holds every method of every mounted route', () => {
    const missing: string[] = []
    let routes = 0
    for (const r of mountedRouters(s.lx.web.app)) {
      for (const layer of r.stack) {
        if (typeof layer.path !== 'string') continue
        for (const method of layer.methods) {
          if (method === 'HEAD' || method === 'OPTIONS') continue
          routes++
          if (!doc.paths[openApiPath(layer.path)]?.[method.toLowerCase()]) missing.push(`${method} ${layer.path}`)
        }
      }
    }
    expect(routes).to.be.greaterThan(150)
    expect(missing).to.deep.equal([])
    expect(op('get', '/api/openapi.json')).to.not.equal(undefined)
  })

  it('every route declaration names a route of its router, and the schema groups are covered', () => {
    const stray: string[] = []
    let declared = 0
    for (const r of mountedRouters(s.lx.web.app)) {
      const layers = new Set(r.stack.flatMap((l) => l.methods.map((m) => `${m} ${String(l.path)}`)))
      for (const key of docsOf(r).keys()) { declared++; if (!layers.has(key)) stray.push(key) }
    }
    expect(stray).to.deep.equal([])
    expect(declared).to.be.at.least(45)
    const withBody = Object.values(doc.paths).flatMap((item) => Object.values(item)).filter((o) => (o as Operation).requestBody)
    expect(withBody.length).to.be.at.least(35)
  })

  it('says each operation\'s envelope, group and security', () => {
    expect(op('get', '/api/knowledge')['x-envelope']).to.equal('B')
    expect(op('get', '/api/config')['x-envelope']).to.equal('A')
    expect(JSON.stringify(op('get', '/api/config').responses['200'])).to.include('EnvelopeA')
    expect(JSON.stringify(op('get', '/api/knowledge').responses['200'])).to.include('EnvelopeB')
    expect(JSON.stringify(op('get', '/api/knowledge').responses.default)).to.include('ErrorB')
    expect(op('get', '/api/config/channels/{name}').tags).to.deep.equal(['channels'])
    expect(op('post', '/api/auth/login').security).to.deep.equal([])
    expect(op('get', '/api/system/health').security).to.deep.equal([])
    expect(op('get', '/api/openapi.json').security).to.deep.equal([])
    expect(op('get', '/api/config').security).to.equal(undefined) // the document's default: a session
    expect(op('get', '/api/config').responses).to.have.property('401')
    expect(op('post', '/mcp').security).to.deep.equal([{ mcpBearer: [] }, { mcpApiKey: [] }])
    const codes = (doc.components.schemas.ErrorCode as { enum: string[] }).enum
    expect(codes).to.include.members(['INVALID_ARGS', 'NOT_FOUND', 'UNAUTHORIZED', 'PRESET_NOT_FOUND'])
    const q = op('get', '/api/stats/users').parameters ?? []
    expect(q.map((p) => `${p.in}:${p.name}`)).to.include('query:sort')
  })

  it('says the statuses and media types routes truly answer with', async () => {
    const content = (o: Operation, status: string): string[] => Object.keys((o.responses[status] as { content?: object }).content ?? {})
    // creations: 201, and the live answer agrees
    for (const [method, path] of [['post', '/api/knowledge'], ['post', '/api/presets'], ['post', '/api/mcp/servers'], ['post', '/api/memory']]) {
      expect(Object.keys(op(method, path).responses), path).to.include('201').and.not.include('200')
    }
    const kb = await s.api('/api/knowledge', { method: 'POST', json: { title: 'oa', content: 'x' } })
    expect(kb.status, kb.text).to.equal(201)
    expect(Object.keys(op('post', '/api/presets/import').responses)).to.include.members(['200', '201'])
    expect(Object.keys(op('delete', '/mcp').responses)).to.include('204')
    // files and streams
    expect(content(op('get', '/api/config/export'), '200')).to.deep.equal(['text/yaml'])
    const y = await s.api('/api/config/export')
    expect(y.headers.get('content-type')).to.include('text/yaml')
    expect(content(op('get', '/api/presets/{id}/export'), '200')).to.deep.equal(['application/x-yaml'])
    const sse = ['get /api/system/events', 'get /api/skills/sse', 'post /api/chat/stream', 'post /api/test-panel/batch-test', 'post /api/test-panel/quick-test', 'post /api/tools/test', 'get /mcp/sse']
    for (const key of sse) {
      const [method, path] = key.split(' ') as [string, string]
      expect(content(op(method, path), '200'), key).to.deep.equal(['text/event-stream'])
    }
    // errors: the shared set, by what the route takes
    expect(op('post', '/api/auth/login').responses).to.include.keys('400', '413', '429', '500')
    expect(op('delete', '/api/knowledge/{id}').responses).to.include.keys('401', '403', '404', '500')
    expect(op('get', '/api/config').responses).to.include.keys('401', '500').and.not.include.keys('403', '404')
    expect(JSON.stringify(op('get', '/mcp/status').responses['401'])).to.include('JsonRpcError')
  })

  it('a request that violates a declared body schema answers 400', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['put', '/api/tools/event-probability', { probability: 5 }],
      ['post', '/api/tools/builtin/tool/toggle', { toolName: 'x', enabled: 'yes' }],
      ['post', '/api/logs/placeholders/preview', { template: 5 }],
      ['post', '/api/test-panel/batch-test-stop', { testId: 5 }],
      ['post', '/api/skills/recommend', { context: 'x', limit: 'many' }]
    ]
    for (const [method, path, body] of cases) {
      const schema = JSON.stringify((op(method, path).requestBody as { content: { 'application/json': { schema: unknown } } }).content['application/json'].schema)
      expect(schema, path).to.match(/"properties"/)
      const r = await s.api(path, { method: method.toUpperCase(), json: body })
      expect(r.status, `${method} ${path}: ${r.text}`).to.equal(400)
    }
    const q = await s.api('/api/stats/users?sort=zz')
    expect(q.status, q.text).to.equal(400)
  })

  it('holds no secret values', () => {
    for (const secret of [SECRETS.channelKey, SECRETS.mcpKey, s.token]) expect(text).to.not.include(secret)
    expect(text).to.not.match(/sk-[A-Za-z0-9-]{10,}/)
    expect(text).to.not.match(/eyJ[A-Za-z0-9_-]{10,}\./) // no JWT
  })
})
