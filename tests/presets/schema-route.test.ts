// GET /api/presets/schema (routes/presets.ts; lib/presets/schema-json.ts): a new preset's fields and rules as
// JSON Schema, the rules the dashboard's preset editor checks a draft with (resources/src/form-rules.ts). It is
// served to a session only, holds the server's own bounds, "schema" cannot be a preset's id (the route would
// hide it), and a draft the editor's check passes is the draft POST /api/presets takes, for values at and past
// every bound of every field: the editor neither refuses what the server takes nor sends what it refuses.
import { expect } from 'chai'
import { validate, type SchemaNode } from '../../resources/src/form-rules.js'
import { startTestServer, type TestServer } from '../support/server.js'

type Obj = Record<string, unknown>

/** Values at and past a field's rules. */
function candidates (n: SchemaNode): unknown[] {
  const num = n.anyOf?.find((b) => b.type === 'number' || b.type === 'integer') ?? n
  if (num.type === 'integer' || num.type === 'number') {
    const out: unknown[] = ['', 'abc', null]
    for (const b of [num.minimum, num.maximum]) if (b !== undefined) out.push(b, b - 1, b + 1, b + 0.5, b - 0.05)
    return out
  }
  if (n.anyOf) return ['auto', 'manual', 'nope', null, '']
  if (n.type === 'string') {
    const out: unknown[] = ['', ' ', 'ab', 'abc', 'a b', 'a_b-c', 5]
    if (n.maxLength !== undefined) out.push('x'.repeat(n.maxLength), 'x'.repeat(n.maxLength + 1))
    return out
  }
  if (n.type === 'array') return [[], ['web_search'], ['x'.repeat(201)], Array.from({ length: 1001 }, (_x, i) => `t${i}`)]
  if (n.type === 'boolean') return [true, false, 'yes']
  return []
}

describe('GET /api/presets/schema: the preset editor\'s rules, served', function () {
  this.timeout(120_000)
  let s: TestServer
  let schema: SchemaNode
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('serves a new preset\'s JSON Schema to a session (style B), with the server\'s bounds', async () => {
    const r = await s.api('/api/presets/schema')
    expect(r.status, r.text).to.equal(200)
    expect(r.body.code).to.equal(0)
    schema = r.body.data as SchemaNode
    expect(schema.type).to.equal('object')
    expect(schema.required).to.have.members(['id', 'name'])
    expect(schema.properties?.temperature).to.include({ minimum: 0, maximum: 2 })
    expect(schema.properties?.maxTokens).to.include({ type: 'integer', minimum: 1, maximum: 128000 })
    expect(schema.properties?.id?.pattern).to.equal('^[A-Za-z0-9-]{3,50}$')
    expect((await s.api('/api/presets/schema', { headers: { Authorization: 'Bearer nope' } })).status).to.equal(401)
  })

  it('"schema" is no preset id (it would be hidden behind the route)', async () => {
    const r = await s.api('/api/presets', { method: 'POST', json: { id: 'schema', name: 'Shadow' } })
    expect(r.status).to.equal(400)
    expect(r.body.errors).to.deep.equal([{ path: 'id', message: 'reserved' }])
  })

  it('judges drafts at and past every bound like POST /api/presets', async () => {
    const base: Obj = { id: 'probe', name: 'Probe', description: '', category: 'general', systemPrompt: 'hi', temperature: 0.7, maxTokens: 100, model: '',
      tools: { enabled: true, allowedTools: [], excludedTools: [], allowDangerous: false, toolApprovalMode: null }, voice: { enabled: false, voiceId: '', speed: 1 }, memory: { enabled: true, maxMemories: 10 } }
    const disagree: string[] = []
    let checked = 0
    let n = 0
    const walk = async (node: SchemaNode, path: string[]): Promise<void> => {
      for (const [k, child] of Object.entries(node.properties ?? {})) {
        const at = [...path, k]
        if (at[0] === 'createdFrom') continue
        if (child.type === 'object' && child.properties) { await walk(child, at); continue }
        for (const v of candidates(child)) {
          const body = structuredClone(base)
          let cur = body
          for (const p of at.slice(0, -1)) cur = cur[p] as Obj
          cur[at[at.length - 1]!] = v
          // a fresh id for each draft, unless the id is what is probed
          if (at[0] !== 'id') body.id = `probe-${++n}`
          // the editor checks the name trimmed, as the server trims it before its length check
          const browser = validate(schema, { ...body, name: typeof body.name === 'string' ? body.name.trim() : body.name }).length === 0
          const r = await s.api('/api/presets', { method: 'POST', json: body })
          const server = r.status === 201
          if (server) await s.api(`/api/presets/${encodeURIComponent(String(body.id))}`, { method: 'DELETE' })
          checked++
          if (browser !== server) disagree.push(`${at.join('.')} = ${JSON.stringify(v).slice(0, 40)}: browser ${browser}, server ${r.status}`)
        }
      }
    }
    await walk(schema, [])
    expect(checked).to.be.greaterThan(150)
    expect(disagree).to.deep.equal([])
  })
})
