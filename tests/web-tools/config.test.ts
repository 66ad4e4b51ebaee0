// The webTools section: provider keys are secrets (masked by the config routes, a masked key sent back
// keeps the stored one, known to the redactor so no log or error shows them), the schema's checks,
// and the web tools in the tool routes and skills listings.
import { expect } from 'chai'
import { maskSecret } from '../../lib/config/secrets.js'
import { redact } from '../../lib/core/redact.js'
import { startTestServer, type TestServer } from '../support/server.js'

const KEY_A = 'tvly-AAAAAAAAAAAAAAAA1111'
const KEY_B = 'brave-BBBBBBBBBBBBBBBB2222'

describe('web tools: the webTools settings, secrets and listings', function () {
  this.timeout(30_000)
  let s: TestServer

  before(async () => {
    s = await startTestServer()
    await s.login()
  })
  after(async () => { await s?.close() })

  it('defaults: no provider, fetch limits set, allowPrivate off; the web server section is not touched', async () => {
    const r = await s.api('/api/config/webTools')
    expect(r.status).to.equal(200)
    expect(r.body.data.search).to.include({ maxResults: 5, snippetChars: 300, timeoutMs: 10000 })
    expect(r.body.data.search.providers).to.deep.equal([])
    expect(r.body.data.fetch).to.include({ allowPrivate: false, maxBytes: 2000000, maxChars: 12000, timeoutMs: 15000, maxRedirects: 5 })
    expect(s.lx.rt.config.get().web.port).to.be.a('number')
  })

  it('provider keys are masked by the config routes; a masked key sent back keeps the stored one', async () => {
    const providers = [
      { name: 'tv', type: 'tavily', apiKeys: [{ name: 'main', key: KEY_A }] },
      { name: 'br', type: 'brave', baseUrl: 'http://127.0.0.1:9/', apiKeys: [{ key: KEY_B }], order: 1 }
    ]
    let r = await s.api('/api/config/webTools', { method: 'PUT', json: { search: { providers } } })
    expect(r.status, r.text).to.equal(200)
    expect(r.text).to.not.include(KEY_A).and.not.include(KEY_B)
    r = await s.api('/api/config/webTools')
    expect(r.body.data.search.providers[0].apiKeys[0].key).to.equal(maskSecret(KEY_A))
    expect(r.body.data.search.providers[1].apiKeys[0].key).to.equal(maskSecret(KEY_B))
    for (const path of ['/api/config', '/api/config/export']) {
      const all = await s.api(path)
      expect(all.text, path).to.not.include(KEY_A).and.not.include(KEY_B)
    }
    // the dashboard sends the masked section back with another change
    const masked = r.body.data
    masked.search.maxResults = 7
    r = await s.api('/api/config/webTools', { method: 'PUT', json: masked })
    expect(r.status, r.text).to.equal(200)
    const stored = s.lx.rt.config.get().webTools.search
    expect(stored.maxResults).to.equal(7)
    expect(stored.providers.map((p) => p.apiKeys[0]?.key)).to.deep.equal([KEY_A, KEY_B])
  })

  it('the redactor knows the provider keys: they never show in an error or log text', async () => {
    const known = s.lx.rt.redactor.known()
    expect(known).to.include(KEY_A).and.include(KEY_B)
    expect(redact(`upstream said: bad key ${KEY_A} / ${encodeURIComponent(KEY_B)}`)).to.equal(`upstream said: bad key ${maskSecret(KEY_A)} / ${maskSecret(KEY_B)}`)
    s.lx.rt.log.warn(`provider echoed ${KEY_B}`)
    const logs = await s.api('/api/logs?limit=50')
    expect(logs.text).to.include('provider echoed').and.not.include(KEY_B)
  })

  it('the schema refuses a SearXNG provider without an address, duplicate names, an unknown type and a misspelt key', async () => {
    const put = (search: unknown): ReturnType<TestServer['api']> => s.api('/api/config/webTools', { method: 'PUT', json: { search } })
    let r = await put({ providers: [{ name: 'sx', type: 'searxng' }] })
    expect([r.status, r.body.code]).to.deep.equal([400, 'INVALID_CONFIG'])
    expect(r.text).to.include('a SearXNG provider needs its address')
    r = await put({ providers: [{ name: 'a', type: 'bing' }, { name: 'a', type: 'brave' }] })
    expect(r.text).to.include('duplicate provider name a')
    r = await put({ providers: [{ name: 'g', type: 'google' }] })
    expect(r.status).to.equal(400)
    r = await s.api('/api/config/webTools', { method: 'PUT', json: { fetch: { allowPrivat: true } } })
    expect(r.status).to.equal(400)
    expect(s.lx.rt.config.get().webTools.fetch.allowPrivate).to.equal(false)
  })

  it('web_search and fetch_url are built-in tools of category web, in the tool routes and the skills listing', async () => {
    const r = await s.api('/api/tools')
    expect(r.status).to.equal(200)
    const list = JSON.stringify(r.body.data)
    expect(list).to.include('web_search').and.include('fetch_url')
    const tools = s.lx.rt.need('tools').registry.list()
    const web = tools.filter((t) => t.category === 'web').map((t) => [t.name, t.source, t.risk])
    expect(web).to.deep.equal([['web_search', 'builtin', 'low'], ['fetch_url', 'builtin', 'medium']])
    const skills = await s.api('/api/skills/tools')
    expect(skills.status, skills.text).to.equal(200)
    expect(skills.text).to.include('web_search').and.include('fetch_url')
  })
})
