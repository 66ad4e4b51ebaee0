// The OpenAPI document against live answers: every GET operation of GET /api/openapi.json that needs no
// path parameter, and those whose parameter a fixture made here fills, is called with a session and its
// answer is validated against the document's schema for that status (JSON Schema 2020-12, ajv). A route
// whose answer drifts from its declared `data` schema fails here, naming the route and the mismatch.
// The check of one answer is openapi-answers.ts (ajv, shared with openapi-coverage.test.ts).
import { expect } from 'chai'
import type { OpenApiDocument } from '../../routes/_http/openapi.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { answerChecker, type LiveAnswer, type Operation } from './openapi-answers.js'

/** Operations not called: streams that stay open, and routes that reach out of the machine. */
const NOT_CALLED = new Set([
  '/api/system/events', '/api/skills/sse', // SSE: open until the client leaves
  '/api/config/channels/{name}/models' // asks the channel's upstream
])

describe('OpenAPI document against live answers', function () {
  this.timeout(120_000)
  let s: TestServer
  let doc: OpenApiDocument
  let check: ReturnType<typeof answerChecker>
  const params: Record<string, string> = {}

  before(async () => {
    s = await startTestServer()
    const ok = async (path: string, json: unknown): Promise<any> => {
      const r = await s.api(path, { method: 'POST', json })
      expect(r.status, `${path}: ${r.text}`).to.be.within(200, 201)
      return r.body
    }
    await ok('/api/config/channels', { name: 'live', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-live-0123456789abcdef', model: 'gpt-4o' })
    params['channel.name'] = 'live'
    params['channel.id'] = 'live'
    const kb = await ok('/api/knowledge', { title: 'live', content: 'a knowledge text' })
    params['knowledge.id'] = String(kb.data.id)
    params['knowledge.baseId'] = 'default' // the default knowledge base always exists
    const mem = await ok('/api/memory', { userId: '10001', content: 'likes tea', category: 'preference' })
    params['memory.id'] = String(mem.data.id)
    params.userId = '10001'
    params.groupId = '20002'
    await ok('/api/tools/custom', { name: 'live_custom', description: 'a live tool', action: { type: 'http', url: 'http://127.0.0.1:9/x' } })
    params['custom.name'] = 'live_custom'
    await ok('/api/tools/js', { name: 'live_script' })
    params['js.name'] = 'live_script'
    // a stored conversation and its why record, written where a chat turn writes them (no model here)
    const conversationId = 'group:20002:10001'
    const now = s.lx.rt.clock.now()
    await s.lx.rt.need('conversations').store.append({ id: conversationId, userId: '10001', groupId: '20002' }, [
      { role: 'user', content: 'hi', timestamp: now }, { role: 'assistant', content: 'hello', timestamp: now + 1 }
    ])
    params['conversation.id'] = conversationId
    await s.lx.rt.need('why').store.add({
      id: 'wlive1', conversationId, userId: '10001', groupId: '20002', via: 'api', at: now + 1, question: 'hi',
      preset: { id: 'default', name: 'Default' }, channel: 'live', model: 'gpt-4o',
      memories: [{ id: 1, userId: '10001', category: 'preference', content: 'likes tea' }],
      knowledge: [], skills: [], tools: [], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, durationMs: 5
    })
    params['why.id'] = 'wlive1'
    params['why.conversationId'] = conversationId
    params['search.query'] = 'tea'
    const game = await ok('/api/game/presets', { id: 'live-game', name: 'Live', systemPrompt: 'You are a game.' })
    params['game.id'] = String(game.data.id)
    const task = await ok('/api/tasks', { name: 'live', prompt: 'a daily digest', schedule: '0 8 * * *', target: { groupId: '20002' } })
    params['task.id'] = String(task.data.id)
    const presets = await s.api('/api/presets')
    params['preset.id'] = String(presets.body.data.presets[0].id)
    const tools = await s.api('/api/tools/builtin/list')
    params['tool.name'] = String((tools.body.data as Array<{ name: string }>)[0]!.name)
    params.section = 'web'
    params['backup.name'] = (await s.lx.rt.need('backup').create({ kind: 'auto' })).name
    params.chat = 'g20002'
    const res = await fetch(`${s.base}/api/openapi.json`)
    doc = await res.json() as OpenApiDocument
    check = answerChecker(doc)
  })
  after(async () => { await s?.close() })

  /** The path with its parameters filled from the fixtures, or undefined when one has none. */
  function filled (path: string): string | undefined {
    const group = path.startsWith('/api/conversations/') ? 'conversation' : path.startsWith('/api/chat/why/') ? 'why' : path.startsWith('/api/config/channels/') || path.startsWith('/api/test-panel/') ? 'channel' : path.startsWith('/api/knowledge') ? 'knowledge' : path.startsWith('/api/memory/') ? 'memory'
      : path.startsWith('/api/tasks/') ? 'task' : path.startsWith('/api/game') ? 'game' : /^\/api\/presets?\//.test(path) ? 'preset' : path.startsWith('/api/tools/custom/') ? 'custom'
        : path.startsWith('/api/tools/js/') ? 'js' : path.startsWith('/api/backup/') ? 'backup' : /^\/api\/(skills\/)?mcp\//.test(path) ? 'mcp' : /^\/api\/(tools|skills)\//.test(path) ? 'tool' : ''
    let missing = false
    const out = path.replace(/\{(\w+)\}/g, (_m, p: string) => {
      const v = params[`${group}.${p}`] ?? (p === 'name' ? undefined : params[p])
      if (v === undefined) { missing = true; return '' }
      return encodeURIComponent(v)
    })
    return missing ? undefined : out
  }

  /** The required query parameters of an operation, filled from the fixtures (`?a=1`), or undefined when one has none. */
  function query (op: Operation, path: string): string | undefined {
    const group = path.includes('/why') ? 'why' : path.endsWith('/search') ? 'search' : ''
    const pairs: string[] = []
    for (const p of op.parameters ?? []) {
      if (p.in !== 'query' || !p.required) continue
      const v = params[`${group}.${p.name}`]
      if (v === undefined) return undefined
      pairs.push(`${p.name}=${encodeURIComponent(v)}`)
    }
    // the search routes need one of query or q, which the document can only say in words
    if (group === 'search') pairs.push(`query=${params['search.query']!}`)
    return pairs.length ? `?${pairs.join('&')}` : ''
  }

  /** Checks one live answer of GET `url` against the document's response for its status; a list of what is wrong ([] when it fits). */
  const mismatches = (op: Operation, url: string, r: LiveAnswer): string[] => check(op, `GET ${url}`, r)

  it('the validator refuses an answer that does not fit the document', () => {
    const op = doc.paths['/api/system/status']!.get as Operation
    const wrong = { success: true, data: { status: 'running', version: 1 } }
    expect(mismatches(op, '/api/system/status', { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: wrong, text: '' })).to.have.length(1)
    const bare = { success: true }
    expect(mismatches(op, '/api/system/status', { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: bare, text: '' })).to.have.length(1)
  })

  it('every GET answer of /api validates against the document\'s schema for its status, and describes its data', async () => {
    const checked: string[] = []
    const skipped: string[] = []
    const failures: string[] = []
    const undescribed: string[] = []
    for (const [path, item] of Object.entries(doc.paths)) {
      const op = item.get as Operation | undefined
      if (!op || !path.startsWith('/api/') || NOT_CALLED.has(path)) continue
      const at = filled(path)
      const q = query(op, path)
      if (at === undefined || q === undefined) { skipped.push(path); continue }
      const url = at + q
      const r = await s.api(url)
      if (r.status >= 300) { failures.push(`GET ${url}: answered ${r.status} (${r.text.slice(0, 200)})`); continue }
      failures.push(...mismatches(op, url, r))
      checked.push(path)
      const json = op.responses[String(r.status)]?.content?.['application/json']
      if (json && !JSON.stringify(json.schema).includes('"required":["data"]') && op['x-envelope'] !== 'none') undescribed.push(path)
    }
    expect(failures, failures.join('\n')).to.deep.equal([])
    expect(checked.length).to.be.greaterThan(100)
    expect(skipped.sort(), 'the routes without a fixture: MCP servers need a connected server').to.deep.equal(['/api/mcp/servers/{name}', '/api/mcp/servers/{name}/tools', '/api/skills/mcp/servers/{name}'])
    expect(undescribed, 'GET routes whose document gives only the envelope').to.deep.equal([])
  })

  it('the MCP endpoint\'s JSON answers fit the document', async () => {
    const key = 'openapi-live-mcp-key-0123456789abcdef'
    const put = await s.api('/api/config/mcp', { method: 'PUT', json: { server: { apiKey: key } } })
    expect(put.status, put.text).to.equal(200)
    const failures: string[] = []
    for (const path of ['/mcp/status', '/mcp/.well-known/oauth-protected-resource', '/mcp/.well-known/openid-configuration/x']) {
      const template = path.replace(/\/x$/, '/{rest}')
      const r = await s.api(path, { headers: { 'X-API-Key': key } })
      failures.push(...mismatches(doc.paths[template]!.get as Operation, path, r))
    }
    expect(failures, failures.join('\n')).to.deep.equal([])
  })

  it('creations answer the 201 the document says, with the data it describes', async () => {
    const op = doc.paths['/api/knowledge']!.post as Operation
    const r = await s.api('/api/knowledge', { method: 'POST', json: { title: 'created', content: 'x' } })
    expect(r.status, r.text).to.equal(201)
    expect(mismatches(op, '/api/knowledge', r)).to.deep.equal([])
  })
})
