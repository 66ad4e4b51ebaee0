// The config group (docs/api.md; nested partials and `{path, value}`): config routes, validation, masking, comments kept.
import { expect } from 'chai'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'

describe('config routes', () => {
  let s: TestServer
  const userFile = (): string => join(s.dataDir, 'config.yaml')
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('GET /api/config answers every section', async () => {
    const r = await s.api('/api/config')
    expect(r.status).to.equal(200)
    expect(r.body.success).to.equal(true)
    for (const k of ['web', 'trigger', 'context', 'channels', 'presets', 'tools', 'mcp']) expect(r.body.data).to.have.property(k)
  })

  it('PUT /api/config merges a nested partial and reports the updated paths', async () => {
    const r = await s.api('/api/config', { method: 'PUT', json: { trigger: { prefix: '小犀' }, context: { maxMessages: 12 } } })
    expect(r.status).to.equal(200)
    expect(r.body.data.updated).to.have.members(['trigger.prefix', 'context.maxMessages'])
    expect(s.lx.rt.config.get().trigger.prefix).to.equal('小犀')
    expect(readFileSync(userFile(), 'utf8')).to.include('小犀')
  })

  it('PUT /api/config accepts variant 1 {path, value}', async () => {
    const r = await s.api('/api/config', { method: 'PUT', json: { path: 'trigger.randomRate', value: 0.25 } })
    expect(r.status).to.equal(200)
    expect(r.body).to.deep.equal({ success: true, data: { updated: ['trigger.randomRate'] } })
    expect(s.lx.rt.config.get().trigger.randomRate).to.equal(0.25)
    const noSection = await s.api('/api/config', { method: 'PUT', json: { path: 'nope.x', value: 1 } })
    expect(noSection.status).to.equal(404)
    expect(noSection.body.code).to.equal('SECTION_NOT_FOUND')
    const noValue = await s.api('/api/config', { method: 'PUT', json: { path: 'trigger.prefix' } })
    expect(noValue.status).to.equal(400)
    expect(noValue.body.code).to.equal('INVALID_CONFIG')
  })

  it('refuses invalid values with INVALID_CONFIG and field paths, writing nothing', async () => {
    const before = readFileSync(userFile(), 'utf8')
    const r = await s.api('/api/config', { method: 'PUT', json: { trigger: { randomRate: 7 }, web: { port: 'eighty' } } })
    expect(r.status).to.equal(400)
    expect(r.body.code).to.equal('INVALID_CONFIG')
    const paths = (r.body.errors as Array<{ path: string }>).map((e) => e.path)
    expect(paths).to.include.members(['trigger.randomRate', 'web.port'])
    const unknown = await s.api('/api/config', { method: 'PUT', json: { trigger: { nonsense: true } } })
    expect(unknown.status).to.equal(400)
    for (const bad of [[1, 2], 'text', null]) {
      const x = await s.api('/api/config', { method: 'PUT', json: bad })
      expect(x.status, JSON.stringify(bad)).to.equal(400)
      expect(x.body.success).to.equal(false)
    }
    expect(readFileSync(userFile(), 'utf8')).to.equal(before)
  })

  it('sections: GET and PUT, SECTION_NOT_FOUND, wrong type', async () => {
    const g = await s.api('/api/config/trigger')
    expect(g.status).to.equal(200)
    expect(g.body.data.prefix).to.equal('小犀')
    expect((await s.api('/api/config/nope')).body).to.include({ success: false, code: 'SECTION_NOT_FOUND' })
    expect((await s.api('/api/config/nope')).status).to.equal(404)
    const p = await s.api('/api/config/context', { method: 'PUT', json: { maxMessages: 30 } })
    expect(p.status).to.equal(200)
    expect(p.body.data.updated).to.deep.equal(['context.maxMessages'])
    expect(p.body.data.section.maxMessages).to.equal(30)
    const wrong = await s.api('/api/config/context', { method: 'PUT', json: [1] })
    expect(wrong.status).to.equal(400)
    expect(wrong.body.code).to.equal('INVALID_CONFIG')
    expect((await s.api('/api/config/nope', { method: 'PUT', json: {} })).status).to.equal(404)
  })

  it('masks secrets on read and keeps the stored secret when the masked value comes back', async () => {
    const secret = 'sk-live-abcdefghijklmnop1234'
    await s.api('/api/config', { method: 'PUT', json: { mcp: { server: { apiKey: secret } } } })
    const masked = (await s.api('/api/config/mcp')).body.data.server.apiKey as string
    expect(masked).to.not.equal(secret)
    expect(masked).to.include('****')
    expect(JSON.stringify((await s.api('/api/config')).body)).to.not.include(secret)
    expect((await s.api('/api/config/export')).text).to.not.include(secret)
    await s.api('/api/config/mcp', { method: 'PUT', json: { server: { apiKey: masked } } })
    expect(s.lx.rt.config.get().mcp.server.apiKey).to.equal(secret)
  })

  it('keeps the comments of the user file across writes', async () => {
    const text = readFileSync(userFile(), 'utf8')
    writeFileSync(userFile(), `# my own notes about this bot\n${text.replace('trigger:', 'trigger: # how the bot is called')}`)
    await s.api('/api/config/reload', { method: 'POST' })
    await s.api('/api/config', { method: 'PUT', json: { trigger: { prefix: '犀犀' } } })
    const after = readFileSync(userFile(), 'utf8')
    expect(after).to.include('# my own notes about this bot')
    expect(after).to.include('# how the bot is called')
    expect(after).to.include('犀犀')
  })

  it('reload picks up a hand edit and refuses a broken file keeping the running config', async () => {
    writeFileSync(userFile(), readFileSync(userFile(), 'utf8').replace('犀犀', '手改'))
    const ok = await s.api('/api/config/reload', { method: 'POST' })
    expect(ok.status).to.equal(200)
    expect(ok.body.message).to.be.a('string')
    expect(s.lx.rt.config.get().trigger.prefix).to.equal('手改')
    const good = readFileSync(userFile(), 'utf8')
    writeFileSync(userFile(), 'trigger: [unclosed\n')
    const bad = await s.api('/api/config/reload', { method: 'POST' })
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('PARSE_ERROR')
    expect(s.lx.rt.config.get().trigger.prefix).to.equal('手改')
    writeFileSync(userFile(), good)
    await s.api('/api/config/reload', { method: 'POST' })
  })

  it('validate answers valid or INVALID_CONFIG without applying anything', async () => {
    const ok = await s.api('/api/config/validate', { method: 'POST', json: { context: { maxMessages: 5 } } })
    expect(ok.status).to.equal(200)
    expect(ok.body.data).to.deep.equal({ valid: true })
    expect(s.lx.rt.config.get().context.maxMessages).to.equal(30)
    const bad = await s.api('/api/config/validate', { method: 'POST', json: { context: { maxMessages: -5 } } })
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('INVALID_CONFIG')
    expect(bad.body.errors[0].path).to.equal('context.maxMessages')
  })

  it('export gives commented YAML; importing it back is a no-op round trip; import changes apply', async () => {
    const exp = await s.api('/api/config/export')
    expect(exp.status).to.equal(200)
    expect(exp.headers.get('content-type')).to.match(/yaml/)
    expect(exp.text).to.match(/^# /m)
    expect(exp.text).to.include('手改')
    const same = await s.api('/api/config/import', { method: 'POST', body: exp.text, headers: { 'Content-Type': 'text/yaml' } })
    expect(same.status).to.equal(200)
    expect(same.body.data).to.deep.equal({ imported: true, changes: 0 })
    const changed = exp.text.replace(/^( {2}maxMessages:) \d+/m, '$1 9')
    const imp = await s.api('/api/config/import', { method: 'POST', body: changed, headers: { 'Content-Type': 'text/yaml' } })
    expect(imp.body.data).to.deep.equal({ imported: true, changes: 1 })
    expect(s.lx.rt.config.get().context.maxMessages).to.equal(9)
    expect(readFileSync(userFile(), 'utf8')).to.include('# my own notes about this bot')
  })

  it('import refuses bad YAML, unknown keys, invalid values and a non-YAML body', async () => {
    const y = (body: string) => s.api('/api/config/import', { method: 'POST', body, headers: { 'Content-Type': 'text/yaml' } })
    const parse = await y('trigger: {a: 1\n')
    expect(parse.status).to.equal(400)
    expect(parse.body.code).to.equal('PARSE_ERROR')
    expect((await y('- a\n- b\n')).body.code).to.equal('PARSE_ERROR')
    const unknown = await y('hacker: true\n')
    expect(unknown.body.code).to.equal('INVALID_CONFIG')
    expect(unknown.body.errors[0].path).to.equal('hacker')
    expect((await y('context:\n  maxMessages: lots\n')).body.code).to.equal('INVALID_CONFIG')
    const json = await s.api('/api/config/import', { method: 'POST', json: { context: {} } })
    expect(json.status).to.equal(400)
    expect(s.lx.rt.config.get().context.maxMessages).to.equal(9)
  })

  it('group config: defaults, partial update, validation', async () => {
    const d = await s.api('/api/config/groups/123456')
    expect(d.status).to.equal(200)
    expect(d.body.data).to.include({ groupId: '123456', enabled: true, custom: false })
    expect(d.body.data.trigger.type).to.equal(s.lx.rt.config.get().trigger.group)
    const p = await s.api('/api/config/groups/123456', { method: 'PUT', json: { trigger: { type: 'both' }, enabled: false } })
    expect(p.status).to.equal(200)
    expect(p.body.data).to.include({ enabled: false, custom: true })
    expect(p.body.data.trigger.type).to.equal('both')
    const p2 = await s.api('/api/config/groups/123456', { method: 'PUT', json: { trigger: { randomRate: 0.5 } } })
    expect(p2.body.data.trigger).to.deep.equal({ type: 'both', randomRate: 0.5 })
    const bad = await s.api('/api/config/groups/123456', { method: 'PUT', json: { trigger: { type: 'always-and-forever' } } })
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('INVALID_CONFIG')
    const badId = await s.api('/api/config/groups/..%2Fetc')
    expect(badId.status).to.equal(400)
  })
})
