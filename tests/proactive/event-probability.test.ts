// GET/PUT /api/tools/event-probability through the started server: the default probability as the
// spec has it, plus the effective value per event type (poke, join, recall), validated writes with
// clear 400s, and what is stored in the config (tools.eventProbability / tools.eventProbabilities).
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'
import { eventProbabilityFor } from '../../lib/config/group-settings.js'

describe('proactive: GET/PUT /api/tools/event-probability', function () {
  this.timeout(30_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s?.close() })
  const api = (method = 'GET', json?: unknown) => s.api('/api/tools/event-probability', { method, ...(json === undefined ? {} : { json }) })

  it('GET answers the default and the per-type values in force (config/default.yaml: join and recall 0)', async () => {
    const r = await api()
    expect(r.status).to.equal(200)
    expect(r.body).to.include({ code: 0 })
    expect(r.body.data).to.deep.equal({ probability: 0.1, events: { poke: 0.1, join: 0, recall: 0 } })
  })

  it('PUT { probability } keeps the spec shape and moves every type without its own value', async () => {
    const r = await api('PUT', { probability: 0.4 })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.deep.equal({ probability: 0.4, events: { poke: 0.4, join: 0, recall: 0 } })
    expect(s.lx.rt.config.get().tools.eventProbability).to.equal(0.4)
  })

  it('PUT { events } sets single types; the others keep theirs; the bot reads the same values', async () => {
    let r = await api('PUT', { events: { join: 1 } })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data.events).to.deep.equal({ poke: 0.4, join: 1, recall: 0 })
    r = await api('PUT', { probability: 0.2, events: { recall: 0.5, poke: 0 } })
    expect(r.body.data).to.deep.equal({ probability: 0.2, events: { poke: 0, join: 1, recall: 0.5 } })
    const cfg = s.lx.rt.config.get()
    expect(cfg.tools.eventProbabilities).to.deep.equal({ poke: 0, join: 1, recall: 0.5 })
    expect(['poke', 'join', 'recall'].map((k) => eventProbabilityFor(cfg, k as 'poke'))).to.deep.equal([0, 1, 0.5])
    expect((await api()).body.data).to.deep.equal(r.body.data)
  })

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const before = (await api()).body.data
    const cases: Array<[unknown, RegExp]> = [
      [{}, /probability or events is required/],
      [{ probability: 2 }, /probability: must be between 0 and 1/],
      [{ probability: 'x' }, /probability: must be a number between 0 and 1/],
      [{ events: { join: -0.1 } }, /events\.join: must be between 0 and 1/],
      [{ events: { join: '1' } }, /events\.join: must be a number/],
      [{ events: { wave: 1 } }, /events: unknown event type wave \(poke, join, recall\)/],
      [{ events: 1 }, /events must be an object/],
      [[1], /body must be a JSON object/]
    ]
    for (const [body, message] of cases) {
      const r = await api('PUT', body)
      expect(r.status, JSON.stringify(body)).to.equal(400)
      expect(r.body.code, JSON.stringify(body)).to.equal(-1)
      expect(r.body.message, JSON.stringify(body)).to.match(message)
    }
    expect((await api()).body.data).to.deep.equal(before)
  })

  it('the OpenAPI document declares the PUT body with both fields', async () => {
    const doc = (await s.api('/api/openapi.json')).body
    const put = doc.paths['/api/tools/event-probability'].put
    const schema = JSON.stringify(put.requestBody.content['application/json'].schema)
    expect(schema).to.include('"probability"').and.include('"events"').and.include('"recall"')
    expect(doc.paths['/api/tools/event-probability'].get.summary).to.match(/per event type/)
  })
})
