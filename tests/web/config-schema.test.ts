// GET /api/config/schema (docs/api.md, config group): the configuration schema as JSON Schema with every
// field's title and description in English and Chinese (lib/config/schema-text.ts), secrets marked; and
// the rule that a group's preset must exist (lib/presets/index.ts, through ConfigService.addCheck).
import { expect } from 'chai'
import { SECTIONS } from '../../lib/config/schema.js'
import { bareConfigJsonSchema, eachField, fieldText } from '../../lib/config/schema-json.js'
import { SCHEMA_TEXT, TEXT_ALIASES } from '../../lib/config/schema-text.js'
import { startTestServer, type TestServer } from '../support/server.js'

type Node = Record<string, unknown>

describe('config schema route', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('every field of the schema has a title in both languages (a new field without texts fails here)', () => {
    const missing: string[] = []
    let fields = 0
    eachField(bareConfigJsonSchema(), (_node, path) => {
      fields++
      const text = fieldText(path)
      if (!text || !text[0].trim() || !text[1].trim()) missing.push(path)
    })
    expect(fields).to.be.greaterThan(300)
    expect(missing).to.deep.equal([])
  })

  it('holds no text for a path the schema does not have (no stale texts)', () => {
    const paths = new Set<string>()
    eachField(bareConfigJsonSchema(), (_node, path) => { paths.add(path) })
    const stale = Object.keys(SCHEMA_TEXT).filter((p) => !paths.has(p))
    expect(stale).to.deep.equal([])
    for (const to of Object.values(TEXT_ALIASES)) expect(paths.has(to), to).to.equal(true)
    // a description is given in both languages or in neither
    const half = Object.entries(SCHEMA_TEXT).filter(([, t]) => (t[2] === undefined) !== (t[3] === undefined)).map(([p]) => p)
    expect(half).to.deep.equal([])
  })

  it('needs a session', async () => {
    const r = await fetch(`${s.base}/api/config/schema`)
    expect(r.status).to.equal(401)
  })

  it('answers the JSON Schema with titles, descriptions, rules and secrets marked', async () => {
    const r = await s.api('/api/config/schema')
    expect(r.status).to.equal(200)
    expect(r.body.success).to.equal(true)
    const schema = r.body.data as Node
    const props = schema.properties as Record<string, Node>
    expect(Object.keys(props)).to.have.members(SECTIONS)
    const memory = props.memory as Node
    expect(memory).to.include({ title: 'Memory', 'x-title-zh': '记忆' })
    const max = (memory.properties as Record<string, Node>).maxMemoriesInPrompt as Node
    expect(max).to.include({ type: 'integer', minimum: 0, maximum: 100, title: 'Memories in a prompt', 'x-title-zh': '提示词中的记忆条数' })
    expect(max.description).to.be.a('string').and.not.equal('')
    expect(max['x-description-zh']).to.be.a('string').and.not.equal('')
    const mcpServer = (props.mcp?.properties as Record<string, Node>).server as Node
    expect((mcpServer.properties as Record<string, Node>).apiKey).to.include({ 'x-secret': true, type: 'string' })
    const tools = props.tools?.properties as Record<string, Node>
    expect(tools.approvalMode?.enum).to.deep.equal(['auto', 'manual', 'deny', 'allow'])
    expect(tools.approvalMode?.['x-title-zh']).to.equal('审批方式')
    // a group's override fields take their texts from the global section (aliases)
    const group = (props.groups as Node).additionalProperties as Node
    const delivery = (group.properties as Record<string, Node>).delivery as Node
    expect((delivery.properties as Record<string, Node>).longAnswerChars?.['x-title-zh']).to.be.a('string').and.not.equal('')
    expect(props.commandPrefix).to.include({ type: 'string', minLength: 1, maxLength: 16 })
  })

  it('is described in the OpenAPI document', async () => {
    const r = await s.api('/api/openapi.json')
    const op = (r.body.paths['/api/config/schema'] as Record<string, Node>).get as Node
    expect(op.summary).to.match(/JSON Schema/)
  })

  it('refuses a group preset that does not exist, naming the field; an existing one is taken', async () => {
    const bad = await s.api('/api/config/groups/4242', { method: 'PUT', json: { preset: 'no-such-preset' } })
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('INVALID_CONFIG')
    expect(bad.body.errors).to.deep.equal([{ path: 'groups.4242.preset', message: 'preset "no-such-preset" does not exist' }])
    expect(bad.body.message).to.include('no-such-preset')
    expect(s.lx.rt.config.get().groups['4242']).to.equal(undefined)
    // the generic writes too
    const generic = await s.api('/api/config', { method: 'PUT', json: { groups: { 4243: { preset: 'nope-2' } } } })
    expect([generic.status, generic.body.errors?.[0]?.path]).to.deep.equal([400, 'groups.4243.preset'])
    const section = await s.api('/api/config/groups', { method: 'PUT', json: { 4244: { preset: 'nope-3' } } })
    expect([section.status, section.body.errors?.[0]?.path]).to.deep.equal([400, 'groups.4244.preset'])
    const valid = await s.api('/api/config/validate', { method: 'POST', json: { groups: { 4245: { preset: 'nope-4' } } } })
    expect(valid.status).to.equal(400)
    const good = await s.api('/api/config/groups/4242', { method: 'PUT', json: { preset: 'coder' } })
    expect(good.status, good.text).to.equal(200)
    expect(good.body.data.preset).to.equal('coder')
    // a user preset that is deleted later does not block other writes to the group
    expect((await s.api('/api/presets', { method: 'POST', json: { id: 'gone-soon', name: 'Gone soon' } })).status).to.equal(201)
    expect((await s.api('/api/config/groups/4242', { method: 'PUT', json: { preset: 'gone-soon' } })).status).to.equal(200)
    expect((await s.api('/api/presets/gone-soon', { method: 'DELETE' })).status).to.equal(200)
    const other = await s.api('/api/config/groups/4242', { method: 'PUT', json: { enabled: false } })
    expect(other.status, other.text).to.equal(200)
  })

  it('refuses a default preset that does not exist through the generic writes too', async () => {
    const bad = await s.api('/api/config/presets', { method: 'PUT', json: { defaultId: 'nope-default' } })
    expect([bad.status, bad.body.errors]).to.deep.equal([400, [{ path: 'presets.defaultId', message: 'preset "nope-default" does not exist' }]])
    const old = await s.api('/api/config/llm', { method: 'PUT', json: { defaultChatPresetId: 'nope-default' } })
    expect([old.status, old.body.errors?.[0]?.path]).to.deep.equal([400, 'llm.defaultChatPresetId'])
    const good = await s.api('/api/config/presets', { method: 'PUT', json: { defaultId: 'translator', perUserPreset: true } })
    expect(good.status, good.text).to.equal(200)
    expect(s.lx.rt.config.get().presets).to.include({ defaultId: 'translator', perUserPreset: true })
  })
})
