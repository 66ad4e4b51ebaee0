// Presets variant A (style A) at /api/presets: CRUD, copy, set-default, YAML export/import.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '../support/server.js'

describe('presets routes, variant A', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  const upload = (yaml: string, overwrite?: boolean): ReturnType<TestServer['api']> => {
    const form = new FormData()
    form.append('file', new Blob([yaml], { type: 'application/x-yaml' }), 'preset.yaml')
    if (overwrite !== undefined) form.append('overwrite', String(overwrite))
    return s.api('/api/presets/import', { method: 'POST', body: form })
  }
  const stored = (): Array<{ id: string }> => (JSON.parse(readFileSync(join(s.dataDir, 'presets.json'), 'utf8')) as { presets: Array<{ id: string }> }).presets

  it('POST /api/presets creates (id limits) and answers {id, message}', async () => {
    const r = await s.api('/api/presets', { method: 'POST', json: { id: 'helper-1', name: '助手一号', description: '测试', systemPrompt: '你好 {{nickname}}', temperature: 1.2, maxTokens: 2000, voice: { enabled: true, voiceId: 'v1', speed: 1.5 } } })
    expect(r.status).to.equal(201)
    expect(r.body).to.deep.equal({ success: true, data: { id: 'helper-1', message: 'Preset created' } })
    const cases: Array<[unknown, string]> = [
      [{ id: 'ab', name: 'n' }, 'id'], [{ id: 'a'.repeat(51), name: 'n' }, 'id'], [{ id: 'has_underscore', name: 'n' }, 'id'],
      [{ id: 'okay', name: '' }, 'name'], [{ id: 'okay', name: 'x'.repeat(101) }, 'name'], [{ id: 'okay' }, 'name'],
      [{ id: 'okay', name: 'n', systemPrompt: 'x'.repeat(10001) }, 'systemPrompt'], [{ id: 'okay', name: 'n', temperature: 2.1 }, 'temperature'],
      [{ id: 'okay', name: 'n', maxTokens: 128001 }, 'maxTokens'], [{ id: 'okay', name: 'n', maxTokens: 1.5 }, 'maxTokens'], [{ id: 'import', name: 'n' }, 'id'],
      ['not an object', '']
    ]
    for (const [body, field] of cases) {
      const b = await s.api('/api/presets', { method: 'POST', json: body })
      expect(b.status, JSON.stringify(body).slice(0, 50)).to.equal(400)
      expect(b.body).to.include({ success: false, code: 'INVALID_PRESET' })
      if (field) expect(b.body.errors[0].path).to.equal(field)
    }
    const dup = await s.api('/api/presets', { method: 'POST', json: { id: 'helper-1', name: 'n' } })
    expect([dup.status, dup.body.code]).to.deep.equal([409, 'PRESET_EXISTS'])
    const sysDup = await s.api('/api/presets', { method: 'POST', json: { id: 'default', name: 'n' } })
    expect(sysDup.body.code).to.equal('PRESET_EXISTS')
  })

  it('GET lists with type and search; GET /:id; 404 PRESET_NOT_FOUND', async () => {
    const all = await s.api('/api/presets')
    expect(all.body.success).to.equal(true)
    expect(all.body.data.presets.length).to.be.greaterThan(4)
    const user = await s.api('/api/presets?type=user')
    expect(user.body.data.presets.map((p: { id: string }) => p.id)).to.deep.equal(['helper-1'])
    const sys = await s.api('/api/presets?type=system')
    expect(sys.body.data.presets.every((p: { type: string }) => p.type === 'system')).to.equal(true)
    const found = await s.api(`/api/presets?search=${encodeURIComponent('翻译')}`)
    expect(found.body.data.presets.map((p: { id: string }) => p.id)).to.deep.equal(['translator'])
    const bad = await s.api('/api/presets?type=other')
    expect([bad.status, bad.body.code]).to.deep.equal([400, 'INVALID_ARGS'])
    const one = await s.api('/api/presets/helper-1')
    expect(one.body.data).to.include({ id: 'helper-1', type: 'user', temperature: 1.2, maxTokens: 2000, isDefault: false })
    const none = await s.api('/api/presets/nothing')
    expect([none.status, none.body.code]).to.deep.equal([404, 'PRESET_NOT_FOUND'])
  })

  it('PUT partially updates user presets; system presets give SYSTEM_PRESET', async () => {
    const r = await s.api('/api/presets/helper-1', { method: 'PUT', json: { description: '改过', memory: { maxMemories: 3 } } })
    expect(r.status).to.equal(200)
    expect(r.body.data).to.include({ description: '改过', name: '助手一号' })
    expect(r.body.data.memory).to.deep.equal({ enabled: true, maxMemories: 3 })
    const sys = await s.api('/api/presets/default', { method: 'PUT', json: { name: 'x' } })
    expect([sys.status, sys.body.code]).to.deep.equal([403, 'SYSTEM_PRESET'])
    const bad = await s.api('/api/presets/helper-1', { method: 'PUT', json: { maxTokens: -5 } })
    expect([bad.status, bad.body.code]).to.deep.equal([400, 'INVALID_PRESET'])
    expect((await s.api('/api/presets/ghost', { method: 'PUT', json: { name: 'x' } })).body.code).to.equal('PRESET_NOT_FOUND')
  })

  it('copy {newId,newName} and set-default', async () => {
    const c = await s.api('/api/presets/coder/copy', { method: 'POST', json: { newId: 'coder-2', newName: '代码二号' } })
    expect(c.status).to.equal(201)
    expect(c.body.data).to.include({ id: 'coder-2', name: '代码二号', type: 'user', temperature: 0.3 })
    expect((await s.api('/api/presets/coder/copy', { method: 'POST', json: { newId: 'coder-2' } })).body.code).to.equal('PRESET_EXISTS')
    expect((await s.api('/api/presets/coder/copy', { method: 'POST', json: {} })).body.code).to.equal('INVALID_PRESET')
    expect((await s.api('/api/presets/coder/copy', { method: 'POST', json: { newId: 'x' } })).body.code).to.equal('INVALID_PRESET')
    expect((await s.api('/api/presets/ghost/copy', { method: 'POST', json: { newId: 'ghost-2' } })).body.code).to.equal('PRESET_NOT_FOUND')
    const d = await s.api('/api/presets/coder-2/set-default', { method: 'POST' })
    expect(d.body.success).to.equal(true)
    expect(s.lx.rt.config.get().presets.defaultId).to.equal('coder-2')
    expect(s.lx.rt.config.get().llm.defaultChatPresetId).to.equal('coder-2')
    expect((await s.api('/api/presets/coder-2')).body.data.isDefault).to.equal(true)
    expect((await s.api('/api/presets/default')).body.data.isDefault).to.equal(false)
    expect((await s.api('/api/presets/ghost/set-default', { method: 'POST' })).status).to.equal(404)
    await s.api('/api/presets/default/set-default', { method: 'POST' })
  })

  it('DELETE only user presets', async () => {
    const sys = await s.api('/api/presets/coder', { method: 'DELETE' })
    expect([sys.status, sys.body.code]).to.deep.equal([403, 'SYSTEM_PRESET'])
    const r = await s.api('/api/presets/coder-2', { method: 'DELETE' })
    expect(r.body.success).to.equal(true)
    expect((await s.api('/api/presets/coder-2', { method: 'DELETE' })).body.code).to.equal('PRESET_NOT_FOUND')
  })

  it('export then import gives an identical preset', async () => {
    const before = (await s.api('/api/presets/helper-1')).body.data
    const ex = await s.api('/api/presets/helper-1/export')
    expect(ex.status).to.equal(200)
    expect(ex.headers.get('content-disposition')).to.include('attachment').and.include('preset-helper-1.yaml')
    expect(ex.headers.get('content-type')).to.include('yaml')
    expect(ex.text).to.include('id: helper-1')
    expect((await s.api('/api/presets/ghost/export')).status).to.equal(404)

    const exists = await upload(ex.text)
    expect([exists.status, exists.body.code]).to.deep.equal([409, 'PRESET_EXISTS'])
    await s.api('/api/presets/helper-1', { method: 'DELETE' })
    const im = await upload(ex.text)
    expect(im.status).to.equal(201)
    expect((await s.api('/api/presets/helper-1')).body.data).to.deep.equal(before)
    const over = await upload(ex.text.replace('改过', '又改了'), true)
    expect(over.status).to.equal(200)
    expect(over.body.data.description).to.equal('又改了')
  })

  it('import also takes a raw YAML body; an oversized upload is refused', async () => {
    const r = await s.api('/api/presets/import', { method: 'POST', headers: { 'Content-Type': 'application/x-yaml' }, body: 'id: raw-one\nname: 原始\nmaxTokens: 99\n' })
    expect(r.status).to.equal(201)
    expect((await s.api('/api/presets/raw-one')).body.data).to.include({ name: '原始', maxTokens: 99, type: 'user' })
    const again = await s.api('/api/presets/import?overwrite=true', { method: 'POST', headers: { 'Content-Type': 'application/x-yaml' }, body: 'id: raw-one\nname: 再来\n' })
    expect(again.status).to.equal(200)
    const big = await upload(`id: big-one\nname: big\ndescription: ${'x'.repeat(3 * 1024 * 1024)}\n`)
    expect(big.status).to.be.oneOf([400, 413])
    expect(big.body.success).to.equal(false)
    expect((await s.api('/api/presets/big-one')).status).to.equal(404)
  })

  it('malformed or invalid YAML is rejected and nothing is stored', async () => {
    const before = JSON.stringify(stored())
    const parse = await upload('id: [unclosed\nname: x: y')
    expect([parse.status, parse.body.code]).to.deep.equal([400, 'PARSE_ERROR'])
    const invalid = await upload('id: new-one\nname: ok\ntemperature: 9\n')
    expect([invalid.status, invalid.body.code]).to.deep.equal([400, 'INVALID_PRESET'])
    const list = await upload('- a\n- b\n')
    expect(list.body.code).to.equal('INVALID_PRESET')
    const sys = await upload('id: default\nname: mine\n', true)
    expect(sys.body.code).to.equal('SYSTEM_PRESET')
    const noFile = await s.api('/api/presets/import', { method: 'POST', body: (() => { const f = new FormData(); f.append('overwrite', 'true'); return f })() })
    expect([noFile.status, noFile.body.code]).to.deep.equal([400, 'INVALID_ARGS'])
    const json = await s.api('/api/presets/import', { method: 'POST', json: { id: 'x' } })
    expect(json.status).to.equal(400)
    expect(JSON.stringify(stored())).to.equal(before)
    expect((await s.api('/api/presets/new-one')).status).to.equal(404)
  })

})
