import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { sseClient, type SseFrame } from '../support/sse.js'
import { removeAllChannels, startEnv, type Env } from './helpers.js'

describe('channels: routes /api/config/channels (style A)', () => {
  let env: Env
  before(async () => { env = await startEnv() })
  after(async () => { await env.close() })
  beforeEach(async () => { env.fake.reset(); env.fake.validKeys = []; await removeAllChannels(env.s) })

  const create = (json: unknown): ReturnType<Env['s']['api']> => env.s.api('/api/config/channels', { method: 'POST', json })

  it('creates a channel, lists it with masked keys and a status, and writes it to config.yaml', async () => {
    const r = await create({ name: 'openai', type: 'openai', baseUrl: env.fake.url, apiKey: 'sk-secret-abcd1234', model: 'gpt-4o-mini' })
    expect(r.status).to.equal(200)
    expect(r.body).to.include({ success: true })
    expect(r.body.data).to.include({ name: 'openai' })
    const list = await env.s.api('/api/config/channels')
    expect(list.status).to.equal(200)
    expect(list.body.data).to.be.an('array').with.length(1)
    const ch = list.body.data[0]
    expect(ch).to.include({ name: 'openai', id: 'openai', status: 'active', baseUrl: env.fake.url, model: 'gpt-4o-mini', enabled: true })
    expect(ch.apiKey).to.equal('sk-****1234')
    expect(list.text).to.not.include('secret-abcd')
    const yaml = readFileSync(join(env.s.dataDir, 'config.yaml'), 'utf8')
    expect(yaml).to.include('sk-secret-abcd1234')
    const one = await env.s.api('/api/config/channels/openai')
    expect(one.body.data.apiKey).to.equal('sk-****1234')
  })

  it('refuses bad input with 400 and field errors, never 500', async () => {
    const bad: Array<[unknown, string]> = [
      [{ name: 'x', baseUrl: 'not a url' }, 'baseUrl'],
      [{ name: 'x', baseUrl: 'ftp://host/v1' }, 'baseUrl'],
      [{ baseUrl: env.fake.url }, 'name'],
      [{ name: 'has space', baseUrl: env.fake.url }, 'name'],
      [{ name: 'x', baseUrl: env.fake.url, type: 'nope' }, 'type'],
      [{ name: 'x', baseUrl: env.fake.url, timeoutMs: 'soon' }, 'timeoutMs'],
      [{ name: 'x', baseUrl: env.fake.url, apiKeys: [{ name: 'a' }] }, 'apiKeys.0.key'],
      [{ name: 'x', baseUrl: env.fake.url, unknownField: 1 }, '']
    ]
    for (const [json, path] of bad) {
      const r = await create(json)
      expect(r.status, JSON.stringify(json)).to.equal(400)
      expect(r.body.success).to.equal(false)
      expect(r.body.code).to.equal('INVALID_CONFIG')
      expect(r.body.errors[0].path).to.equal(path)
    }
    const arr = await create([1, 2])
    expect(arr.status).to.equal(400)
    const broken = await env.s.api('/api/config/channels', { method: 'POST', body: '{"name":', headers: { 'Content-Type': 'application/json' } })
    expect(broken.status).to.equal(400)
    expect((await env.s.api('/api/config/channels')).body.data).to.have.length(0)
  })

  it('refuses a duplicate name with 409', async () => {
    expect((await create({ name: 'dup', baseUrl: env.fake.url, model: 'gpt-4o' })).status).to.equal(200)
    const r = await create({ name: 'dup', baseUrl: env.fake.url, model: 'gpt-4o' })
    expect(r.status).to.equal(409)
    expect(r.body).to.include({ success: false, code: 'CONFLICT' })
  })

  it('updates a channel partially and keeps secrets sent back masked', async () => {
    await create({ name: 'c1', baseUrl: env.fake.url, apiKey: 'sk-first-key-9999', apiKeys: [{ name: 'k1', key: 'sk-multi-key-1111' }, { key: 'sk-multi-key-2222' }], headersTemplate: { 'X-Token': 'tok-very-secret-1' }, model: 'gpt-4o-mini' })
    const got = (await env.s.api('/api/config/channels/c1')).body.data
    expect(got.apiKeys.map((k: { name: string; index: number }) => [k.name, k.index])).to.deep.equal([['k1', 0], ['key-2', 1]])
    expect(got.apiKeys[0].key).to.equal('sk-****1111')
    expect(got.headersTemplate['X-Token']).to.equal('tok****et-1')
    // the dashboard sends the whole (masked) object back with one change
    const r = await env.s.api('/api/config/channels/c1', { method: 'PUT', json: { ...got, model: 'gpt-4o' } })
    expect(r.status).to.equal(200)
    expect(r.body.data.model).to.equal('gpt-4o')
    const stored = env.s.lx.rt.need('channels').service.get('c1')
    expect(stored.apiKey).to.equal('sk-first-key-9999')
    expect(stored.apiKeys.map((k) => k.key)).to.deep.equal(['sk-multi-key-1111', 'sk-multi-key-2222'])
    expect(stored.headersTemplate['X-Token']).to.equal('tok-very-secret-1')
    // a new key replaces the old one
    await env.s.api('/api/config/channels/c1', { method: 'PUT', json: { apiKey: 'sk-second-key-8888' } })
    expect(env.s.lx.rt.need('channels').service.get('c1').apiKey).to.equal('sk-second-key-8888')
    // disabled channels show it
    await env.s.api('/api/config/channels/c1', { method: 'PUT', json: { enabled: false } })
    expect((await env.s.api('/api/config/channels/c1')).body.data.status).to.equal('disabled')
  })

  it('reports switching a channel off (and on again) as a `channel` event on the system stream', async () => {
    await create({ name: 'c5', baseUrl: env.fake.url, model: 'gpt-4o' })
    const c = sseClient(`${env.s.base}/api/system/events`, { headers: { Authorization: `Bearer ${env.s.token}` } })
    await c.response
    const nextChannel = async (): Promise<Record<string, unknown>> => {
      for (;;) { const f = (await c.frames.next()).value as SseFrame; if (f.event === 'channel') return f.json() as Record<string, unknown> }
    }
    try {
      const before = Date.now()
      await env.s.api('/api/config/channels/c5', { method: 'PUT', json: { model: 'gpt-4o-mini' } }) // no switch: no event
      await env.s.api('/api/config/channels/c5', { method: 'PUT', json: { enabled: false } })
      const off = await nextChannel()
      expect(off).to.deep.include({ id: 'c5', name: 'c5', status: 'disabled' })
      expect(off.timestamp).to.be.a('number').and.at.least(before)
      await env.s.api('/api/config/channels/c5', { method: 'PUT', json: { enabled: true } })
      expect(await nextChannel()).to.deep.include({ id: 'c5', name: 'c5', status: 'active' })
    } finally { c.close() }
  })

  it('refuses bad updates and answers 404 for unknown channels', async () => {
    await create({ name: 'c2', baseUrl: env.fake.url, model: 'gpt-4o' })
    const bad = await env.s.api('/api/config/channels/c2', { method: 'PUT', json: { baseUrl: 'nope' } })
    expect(bad.status).to.equal(400)
    expect(bad.body.errors[0].path).to.equal('baseUrl')
    const notObj = await env.s.api('/api/config/channels/c2', { method: 'PUT', json: ['x'] })
    expect(notObj.status).to.equal(400)
    expect(env.s.lx.rt.need('channels').service.get('c2').baseUrl).to.equal(env.fake.url)
    for (const [method, path] of [['GET', '/missing'], ['PUT', '/missing'], ['DELETE', '/missing'], ['POST', '/missing/test'], ['GET', '/missing/models']] as const) {
      const r = await env.s.api(`/api/config/channels${path}`, { method, ...(method === 'PUT' || method === 'POST' ? { json: {} } : {}) })
      expect(r.status, `${method} ${path}`).to.equal(404)
      expect(r.body).to.deep.equal({ success: false, code: 'NOT_FOUND', message: 'Channel does not exist' })
    }
  })

  it('keeps every channel when several are created at the same time', async () => {
    const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ name: `par-${i}`, baseUrl: env.fake.url, apiKey: `sk-parallel-000${i}`, model: 'gpt-4o' })))
    expect(rs.map((r) => r.status)).to.deep.equal(Array(6).fill(200))
    const names = (await env.s.api('/api/config/channels')).body.data.map((c: { name: string }) => c.name).sort()
    expect(names).to.deep.equal(Array.from({ length: 6 }, (_, i) => `par-${i}`))
    const yaml = readFileSync(join(env.s.dataDir, 'config.yaml'), 'utf8')
    for (let i = 0; i < 6; i++) expect(yaml).to.include(`sk-parallel-000${i}`)
  })

  it('deletes a channel', async () => {
    await create({ name: 'gone', baseUrl: env.fake.url, model: 'gpt-4o' })
    const r = await env.s.api('/api/config/channels/gone', { method: 'DELETE' })
    expect(r.status).to.equal(200)
    expect(r.body.success).to.equal(true)
    expect((await env.s.api('/api/config/channels/gone')).status).to.equal(404)
    expect(readFileSync(join(env.s.dataDir, 'config.yaml'), 'utf8')).to.not.include('gone')
  })

  it('tests a channel: {latency, model}; a failing channel answers 502 and shows status error', async () => {
    await create({ name: 't1', baseUrl: env.fake.url, model: 'gpt-4o-mini' })
    const ok = await env.s.api('/api/config/channels/t1/test', { method: 'POST' })
    expect(ok.status).to.equal(200)
    expect(ok.body.data.model).to.equal('gpt-4o-mini')
    expect(ok.body.data.latency).to.be.a('number')
    const other = await env.s.api('/api/config/channels/t1/test', { method: 'POST', json: { model: 'deepseek-chat' } })
    expect(other.body.data.model).to.equal('deepseek-chat')
    const badBody = await env.s.api('/api/config/channels/t1/test', { method: 'POST', json: { model: 5 } })
    expect(badBody.status).to.equal(400)
    env.fake.validKeys = ['sk-only-this-one']
    const fail = await env.s.api('/api/config/channels/t1/test', { method: 'POST' })
    expect(fail.status).to.equal(502)
    expect(fail.body).to.include({ success: false, code: 'MODEL_ERROR' })
    expect((await env.s.api('/api/config/channels/t1')).body.data.status).to.equal('error')
    expect((await env.s.api('/api/config/channels')).body.data[0].lastError).to.match(/401/)
    const stats = (await env.s.api('/api/stats/channels')).body.data.channels
    expect(stats.find((c: { name: string }) => c.name === 't1')?.status, 'stats show the same live status').to.equal('error')
  })

  it('lists the provider models; errors from the provider become 502', async () => {
    await create({ name: 'm1', baseUrl: env.fake.url, apiKey: 'sk-list-key-0001', model: 'gpt-4o' })
    const r = await env.s.api('/api/config/channels/m1/models')
    expect(r.status).to.equal(200)
    expect(r.body.data).to.deep.equal([...env.fake.models].sort())
    env.fake.validKeys = ['sk-other']
    const e = await env.s.api('/api/config/channels/m1/models')
    expect(e.status).to.equal(502)
    expect(e.body.code).to.equal('MODEL_ERROR')
  })

  it('is served before /api/config/:section and needs a session', async () => {
    await create({ name: 'sec', baseUrl: env.fake.url, apiKey: 'sk-section-1234', model: 'gpt-4o' })
    const r = await env.s.api('/api/config/channels')
    expect(r.body.data[0]).to.have.property('status')
    const anon = await fetch(env.s.base + '/api/config/channels')
    expect(anon.status).to.equal(401)
  })
})
