// Every operation of GET /api/openapi.json describes its success data (docs/api.md, OpenAPI document): the
// envelope with a `data` schema, a bare JSON schema, a file, a stream with its events, or, where the answer
// truly has none, the explicit no-data answer (`routeDoc(..., { data: null })`: style A without `data`, style
// B with `data: null`; 204 and the MCP endpoint's 202 without a body). An operation that gives only the
// envelope, or an empty (unknown) schema, is listed by name. The operations that answer no data, and the
// MCP endpoint's POSTs, are called here and their answers checked against the document (the GET routes:
// openapi-live.test.ts).
import { expect } from 'chai'
import type { OpenApiDocument } from '../../routes/_http/openapi.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { answerChecker, type LiveAnswer, type Operation } from './openapi-answers.js'

type Json = Record<string, unknown>
const isEmpty = (schema: unknown): boolean => schema === undefined || JSON.stringify(schema) === '{}'

/** What is wrong with an operation's success answers as the document gives them ([] when each describes its data). */
function undescribed (op: Operation): string[] {
  const out: string[] = []
  const successes = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status))
  for (const [status, answer] of successes) {
    const content = answer.content
    if (!content) {
      // no body: 204, or said so (a 202 taken, a bare answer declared `data: null`)
      if (status !== '204' && !/no body$/.test(answer.description ?? '')) out.push(`${status}: no body, not said`)
      continue
    }
    for (const [type, media] of Object.entries(content)) {
      if (type === 'text/event-stream') {
        if (!/server-sent events: ./.test(answer.description ?? '')) out.push(`${status} ${type}: a stream whose events are not named`)
        continue
      }
      if (type !== 'application/json') {
        if (isEmpty(media.schema)) out.push(`${status} ${type}: no schema`)
        continue
      }
      const schema = media.schema ?? {}
      if (op['x-envelope'] === 'none') {
        if (isEmpty(schema)) out.push(`${status}: a bare answer with no schema`)
        continue
      }
      const parts = (schema.allOf as Json[] | undefined) ?? []
      const declared = parts[1]
      const noData = declared !== undefined && (JSON.stringify(declared) === '{"not":{"required":["data"]}}' || JSON.stringify((declared.properties as Json | undefined)?.data) === '{"type":"null"}')
      const data = (declared?.properties as Json | undefined)?.data
      if (noData) continue
      if (!declared) out.push(`${status}: only the envelope`)
      else if (isEmpty(data)) out.push(`${status}: data of unknown shape`)
    }
  }
  return out
}

describe('OpenAPI document: every operation describes its success data', function () {
  this.timeout(120_000)
  let s: TestServer
  let doc: OpenApiDocument
  let check: ReturnType<typeof answerChecker>
  const op = (method: string, path: string): Operation => {
    const o = doc.paths[path]?.[method] as Operation | undefined
    if (!o) throw new Error(`${method.toUpperCase()} ${path} is not in the document`)
    return o
  }
  const checked = async (method: string, template: string, url: string, init: RequestInit & { json?: unknown } = {}): Promise<LiveAnswer> => {
    const r = await s.api(url, { ...init, method: method.toUpperCase() })
    expect(check(op(method, template), `${method.toUpperCase()} ${url}`, r)).to.deep.equal([])
    return r
  }

  before(async () => {
    s = await startTestServer()
    doc = await (await fetch(`${s.base}/api/openapi.json`)).json() as OpenApiDocument
    check = answerChecker(doc)
  })
  after(async () => { await s?.close() })

  it('lists no operation whose success answer gives only the envelope or data of unknown shape', () => {
    const missing: string[] = []
    let operations = 0
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, o] of Object.entries(item) as Array<[string, Operation]>) {
        operations++
        for (const why of undescribed(o)) missing.push(`${method.toUpperCase()} ${path} ${why}`)
      }
    }
    expect(operations).to.be.greaterThan(240)
    expect(missing, `operations without a data schema (declare routeDoc(..., { data }), or data: null where the answer has none):\n${missing.join('\n')}`).to.deep.equal([])
  })

  it('the check itself lists an envelope without data, an unknown data schema and an unsaid empty body', () => {
    const json = (schema: Json): Operation['responses'][string] => ({ description: 'Success', content: { 'application/json': { schema } } })
    const envelope = { $ref: '#/components/schemas/EnvelopeA' }
    expect(undescribed({ 'x-envelope': 'A', responses: { 200: json(envelope) } })).to.deep.equal(['200: only the envelope'])
    expect(undescribed({ 'x-envelope': 'B', responses: { 200: json({ allOf: [envelope, { type: 'object', required: ['data'], properties: { data: {} } }] }) } })).to.deep.equal(['200: data of unknown shape'])
    expect(undescribed({ 'x-envelope': 'none', responses: { 200: json({}) } })).to.deep.equal(['200: a bare answer with no schema'])
    expect(undescribed({ 'x-envelope': 'none', responses: { 202: { description: 'Accepted' } } })).to.deep.equal(['202: no body, not said'])
    expect(undescribed({ 'x-envelope': 'A', responses: { 200: json({ allOf: [envelope, { not: { required: ['data'] } }] }), 500: json({}) } })).to.deep.equal([])
  })

  it('the answers without data answer as the document says: no `data` in style A', async () => {
    await checked('post', '/api/config/reload', '/api/config/reload')
    const ch = await s.api('/api/config/channels', { method: 'POST', json: { name: 'gone', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-coverage-0123456789', model: 'gpt-4o' } })
    expect(ch.status, ch.text).to.equal(200)
    const removed = await checked('delete', '/api/config/channels/{name}', '/api/config/channels/gone')
    expect(removed.body).to.deep.equal({ success: true, message: 'Channel deleted' })
    const preset = await s.api('/api/presets', { method: 'POST', json: { id: 'coverage-gone', name: 'Gone', systemPrompt: 'x' } })
    expect(preset.status, preset.text).to.equal(201)
    await checked('delete', '/api/presets/{id}', '/api/presets/coverage-gone')
    const id = 'group:20002:10001'
    await s.lx.rt.need('conversations').store.append({ id, userId: '10001', groupId: '20002' }, [{ role: 'user', content: 'hi', timestamp: s.lx.rt.clock.now() }])
    await checked('post', '/api/conversations/{id}/clear', `/api/conversations/${encodeURIComponent(id)}/clear`)
    // an answer with data where the document says none fails
    const wrong = { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: { success: true, data: {} }, text: '' }
    expect(check(op('post', '/api/config/reload'), 'POST /api/config/reload', wrong)).to.have.length(1)
    // last: it ends the session
    await checked('post', '/api/auth/logout', '/api/auth/logout')
    s.token = await s.login()
  })

  it("the MCP endpoint's POSTs: 200 with the JSON-RPC response, 202 without a body for a notification, 202 `Accepted` on the SSE transport", async () => {
    const key = 'openapi-coverage-mcp-key-0123456789abcdef'
    const put = await s.api('/api/config/mcp', { method: 'PUT', json: { server: { apiKey: key } } })
    expect(put.status, put.text).to.equal(200)
    const headers = { 'X-API-Key': key, Accept: 'application/json, text/event-stream' }
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'coverage', version: '1' } } }
    const init = await checked('post', '/mcp', '/mcp', { headers, json: initialize })
    expect(init.status, init.text).to.equal(200)
    const session = init.headers.get('mcp-session-id') ?? ''
    expect(session).to.not.equal('')
    const note = await checked('post', '/mcp', '/mcp', { headers: { ...headers, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' }, json: { jsonrpc: '2.0', method: 'notifications/initialized' } })
    expect(note.status).to.equal(202)
    const list = await checked('post', '/mcp', '/mcp', { headers: { ...headers, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' }, json: [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }] })
    expect(list.status, list.text).to.equal(200)
    const gone = await s.api('/mcp', { method: 'DELETE', headers: { ...headers, 'Mcp-Session-Id': session } })
    expect(gone.status).to.equal(204)
    expect(check(op('delete', '/mcp'), 'DELETE /mcp', gone)).to.deep.equal([])

    // the older SSE transport: the stream names the message URL, a message to it is taken with 202
    const stream = new AbortController()
    try {
      const res = await fetch(`${s.base}/mcp/sse`, { headers: { 'X-API-Key': key, Accept: 'text/event-stream' }, signal: stream.signal })
      expect(res.status).to.equal(200)
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
      let text = ''
      while (!/data: (\S+)/.test(text)) {
        const { value, done } = await reader.read()
        if (done) break
        text += value
      }
      const messageUrl = /data: (\S+)/.exec(text)?.[1] ?? ''
      expect(messageUrl).to.match(/^\/mcp\/message\?sessionId=/)
      const taken = await checked('post', '/mcp/message', messageUrl, { headers, json: initialize })
      expect(taken.status).to.equal(202)
      expect(taken.text).to.equal('Accepted')
    } finally { stream.abort() }
  })
})
