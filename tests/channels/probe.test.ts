// Issue 21: the channel form fetches the provider's model list before saving (POST
// /api/config/channels/models), and a channel needs a default model.
import { expect } from 'chai'
import { addChannel, removeAllChannels, startEnv, type Env } from './helpers.js'

describe('channels: model list before saving, default model required', () => {
  let env: Env
  before(async () => { env = await startEnv() })
  after(async () => { await env.close() })
  beforeEach(async () => { env.fake.reset(); env.fake.validKeys = []; env.fake.echoErrors = false; await removeAllChannels(env.s) })

  const probe = (json: unknown): ReturnType<Env['s']['api']> => env.s.api('/api/config/channels/models', { method: 'POST', json })

  it('lists the models of unsaved settings with the typed key, custom headers sent, nothing saved', async () => {
    env.fake.validKeys = ['sk-probe-key-0001']
    const r = await probe({ baseUrl: env.fake.url, apiKey: 'sk-probe-key-0001', headersTemplate: { 'X-Probe': 'yes' } })
    expect(r.status).to.equal(200)
    expect(r.body.data).to.deep.equal([...env.fake.models].sort())
    const req = env.fake.requests.find((q) => q.path.endsWith('/models'))
    expect(req?.headers.authorization).to.equal('Bearer sk-probe-key-0001')
    expect(req?.headers['x-probe']).to.equal('yes')
    expect((await env.s.api('/api/config/channels')).body.data).to.have.length(0)
  })

  it('a refused key answers 502 without the key, also when the provider echoes it', async () => {
    env.fake.validKeys = ['sk-the-right-one']
    const wrong = await probe({ baseUrl: env.fake.url, apiKey: 'sk-typed-wrong-key-4321' })
    expect(wrong.status).to.equal(502)
    expect(wrong.body.code).to.equal('MODEL_ERROR')
    env.fake.echoErrors = true
    const echoed = await probe({ baseUrl: env.fake.url, apiKey: 'sk-typed-wrong-key-4321', apiKeys: [{ name: 'b', key: 'sk-second-typed-9876' }] })
    expect(echoed.status).to.be.within(400, 599)
    expect(echoed.text).to.not.include('sk-typed-wrong-key-4321').and.not.include('sk-second-typed-9876')
    expect(echoed.text).to.not.include(encodeURIComponent('Bearer sk-typed-wrong-key-4321'))
    expect(JSON.stringify(env.s.lx.rt.log.query({ limit: 500 }))).to.not.include('sk-typed-wrong-key-4321')
  })

  it('editing a saved channel: its masked key sent back uses the stored key', async () => {
    env.fake.validKeys = ['sk-stored-secret-5555']
    await addChannel(env.s, { name: 'saved', baseUrl: env.fake.url, apiKey: 'sk-stored-secret-5555', model: 'gpt-4o' })
    const masked = (await env.s.api('/api/config/channels/saved')).body.data.apiKey
    expect(masked).to.equal('sk-****5555')
    const r = await probe({ baseUrl: env.fake.url, apiKey: masked, channel: 'saved' })
    expect(r.status).to.equal(200)
    expect(r.text).to.not.include('sk-stored-secret-5555')
    const unknown = await probe({ baseUrl: env.fake.url, channel: 'nope' })
    expect(unknown.status).to.equal(404)
  })

  it('validates the input as a channel: 400 naming the field, never 500', async () => {
    const bad: Array<[unknown, string]> = [
      [{}, 'baseUrl'],
      [{ baseUrl: 'not a url' }, 'baseUrl'],
      [{ baseUrl: 'file:///etc/passwd' }, 'baseUrl'],
      [{ baseUrl: env.fake.url, timeoutMs: 5 }, 'timeoutMs'],
      [{ baseUrl: env.fake.url, headersTemplate: { a: 1 } }, 'headersTemplate.a'],
      [{ baseUrl: env.fake.url, apiKeys: [{ name: 'x' }] }, 'apiKeys.0.key'],
      [{ baseUrl: env.fake.url, model: 'm' }, '']
    ]
    for (const [json, path] of bad) {
      const r = await probe(json)
      expect(r.status, JSON.stringify(json)).to.equal(400)
      expect(r.body.success).to.equal(false)
      expect(r.body.errors?.[0]?.path, JSON.stringify(json)).to.equal(path)
    }
    expect((await env.s.api('/api/config/channels/models', { method: 'POST', body: '[', headers: { 'Content-Type': 'application/json' } })).status).to.equal(400)
    expect((await fetch(env.s.base + '/api/config/channels/models', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ baseUrl: env.fake.url }) })).status).to.equal(401)
  })

  it('refuses a channel without a default model; a model list fills the default when it is empty', async () => {
    const none = await env.s.api('/api/config/channels', { method: 'POST', json: { name: 'nomodel', baseUrl: env.fake.url } })
    expect(none.status).to.equal(400)
    expect(none.body.errors[0].path).to.equal('model')
    const listed = await env.s.api('/api/config/channels', { method: 'POST', json: { name: 'listed', baseUrl: env.fake.url, models: ['b-model', 'a-model'] } })
    expect(listed.status).to.equal(200)
    expect((await env.s.api('/api/config/channels/listed')).body.data.model).to.equal('b-model')
    const cleared = await env.s.api('/api/config/channels/listed', { method: 'PUT', json: { model: '', models: [] } })
    expect(cleared.status).to.equal(400)
    expect(cleared.body.errors[0].path).to.equal('model')
  })

  it('a channel kept without any model (config.yaml) shows "unconfigured", not "active"', async () => {
    const cfg = env.s.lx.rt.config
    await cfg.update({ channels: [{ name: 'bare', baseUrl: env.fake.url }] } as never)
    const ch = (await env.s.api('/api/config/channels/bare')).body.data
    expect(ch.status).to.equal('unconfigured')
    // still editable without touching its models; choosing a model list sets the default too
    expect((await env.s.api('/api/config/channels/bare', { method: 'PUT', json: { enabled: true } })).status).to.equal(200)
    const put = await env.s.api('/api/config/channels/bare', { method: 'PUT', json: { models: ['gpt-4o-mini', 'gpt-4o'] } })
    expect(put.status).to.equal(200)
    expect(put.body.data).to.include({ model: 'gpt-4o-mini', status: 'active' })
  })
})
