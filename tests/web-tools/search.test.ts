// web_search through the real plugin (POST /api/tools/call) against one fake per provider type on
// 127.0.0.1, each answering in its provider's real shape: the request each provider gets (path, key
// header, query), results bounded and plain, keys rotated on 401/403/429 with a cooldown (Date faked),
// failover across providers in the configured order, time limits, and no key in any error or log line.
import { expect } from 'chai'
import sinon from 'sinon'
import type { ConfigInput } from '../../lib/config/schema.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { startFakeProvider, type FakeProvider, type FakeType } from './fakes.js'

const TYPES: FakeType[] = ['searxng', 'tavily', 'bing', 'brave']
type Providers = NonNullable<NonNullable<ConfigInput['webTools']>['search']>['providers']

describe('web tools: web_search through each provider, key rotation and failover', function () {
  this.timeout(60_000)
  let s: TestServer
  const fakes = {} as Record<FakeType, FakeProvider>

  const setProviders = async (providers: Providers, extra: Record<string, number> = {}): Promise<void> => {
    await s.lx.rt.config.update({ webTools: { search: { providers, maxResults: 5, snippetChars: 300, timeoutMs: 10000, keyCooldownMs: 60000, ...extra } } })
  }
  const search = async (query: string, count?: number): Promise<{ isError: boolean; text: string }> => {
    const r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'web_search', args: { query, ...(count ? { count } : {}) } } })
    // a tool's error result answers 500 EXECUTION_ERROR with its text as the message
    if (r.status === 500 && r.body.code === 'EXECUTION_ERROR') return { isError: true, text: r.body.message }
    expect(r.status, r.text).to.equal(200)
    return { isError: r.body.data.result.isError, text: r.body.data.result.content[0].text }
  }
  const parsed = (text: string): { provider: string; results: Array<{ title: string; url: string; snippet: string }> } => JSON.parse(text)

  before(async () => {
    s = await startTestServer()
    await s.login()
    for (const t of TYPES) fakes[t] = await startFakeProvider(t)
  })
  after(async () => {
    for (const t of TYPES) await fakes[t]?.close()
    await s?.close()
  })
  beforeEach(() => {
    for (const t of TYPES) Object.assign(fakes[t], { requests: [], validKeys: new Set(), status: undefined, hang: false, echoKeyInErrors: false })
  })
  afterEach(() => sinon.restore())

  for (const type of TYPES) {
    it(`${type}: the query reaches the provider in its own API shape and the results come back as {title, url, snippet}`, async () => {
      const key = `${type}-key-0123456789`
      fakes[type].validKeys = new Set([key])
      await setProviders([{ name: `p-${type}`, type, baseUrl: fakes[type].url, apiKeys: [{ key }] }])
      const out = await search('灵犀 plugin')
      expect(out.isError, out.text).to.equal(false)
      const body = parsed(out.text)
      expect(body.provider).to.equal(`p-${type}`)
      expect(body.results.map((r) => r.url)).to.deep.equal([`https://one.example/${type}`, `https://two.example/${type}`, `https://three.example/${type}`])
      expect(body.results[0]).to.deep.equal({ title: `${type} result one`, url: `https://one.example/${type}`, snippet: `The first answer from ${type} & friends` })
      const seen = fakes[type].requests
      expect(seen).to.have.length(1)
      expect(seen[0]!.key).to.equal(key)
      if (type === 'tavily') {
        expect(seen[0]!.method).to.equal('POST')
        expect(JSON.parse(seen[0]!.body)).to.include({ query: '灵犀 plugin', max_results: 5 })
      } else {
        const u = new URL(seen[0]!.url, 'http://x')
        expect(u.searchParams.get('q')).to.equal('灵犀 plugin')
        if (type === 'searxng') expect(u.searchParams.get('format')).to.equal('json')
        else expect(u.searchParams.get('count')).to.equal('5')
      }
    })
  }

  it('results are bounded: at most maxResults (and the model\'s count), snippets cut at snippetChars', async () => {
    fakes.brave.results = Array.from({ length: 10 }, (_, i) => ({ title: `T${i} ${'x'.repeat(400)}`, url: `https://r${i}.example/`, snippet: 'long snippet '.repeat(50) }))
    await setProviders([{ name: 'b', type: 'brave', baseUrl: fakes.brave.url, apiKeys: [{ key: 'brave-key-123456' }] }], { maxResults: 3, snippetChars: 60 })
    let body = parsed((await search('many')).text)
    expect(body.results).to.have.length(3)
    for (const r of body.results) {
      expect(r.snippet.length).to.be.at.most(60)
      expect(r.title.length).to.be.at.most(200)
    }
    body = parsed((await search('fewer', 2)).text)
    expect(body.results).to.have.length(2)
    body = parsed((await search('more than allowed', 50)).text)
    expect(body.results).to.have.length(3)
    fakes.brave.results = []
    expect((await search('nothing')).text).to.equal('No results for "nothing"')
    fakes.brave.results = (await startFakeProvider('brave').then(async (f) => { await f.close(); return f.results }))
  })

  it('keys rotate round-robin; a key refused (401, 403, 429) cools down, the next key answers, and the cooled key is tried again after keyCooldownMs', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    fakes.tavily.validKeys = new Set(['tvly-good-key-2222'])
    await setProviders([{ name: 'tv', type: 'tavily', baseUrl: fakes.tavily.url, apiKeys: [{ name: 'bad', key: 'tvly-bad-key-1111' }, { name: 'good', key: 'tvly-good-key-2222' }] }])
    for (let i = 0; i < 3; i++) expect((await search(`q${i}`)).isError).to.equal(false)
    // first call: bad (401) then good; later calls: bad is cooling down, so good goes first
    expect(fakes.tavily.requests.map((r) => r.key)).to.deep.equal(['tvly-bad-key-1111', 'tvly-good-key-2222', 'tvly-good-key-2222', 'tvly-good-key-2222'])
    clock.tick(60_001)
    fakes.tavily.requests = []
    await search('after the cooldown')
    await search('and again')
    expect(fakes.tavily.requests.map((r) => r.key), 'the cooled key is back in the rotation').to.include('tvly-bad-key-1111')

    for (const status of [403, 429]) {
      fakes.tavily.requests = []
      fakes.tavily.status = status
      const out = await search(`status ${status}`)
      expect(out.isError).to.equal(true)
      expect(fakes.tavily.requests, `${status}: every key is tried`).to.have.length(2)
    }
  })

  it('fails over to the next provider in the configured order: a 5xx, a time-out, every key refused, no key at all', async () => {
    fakes.bing.status = 500
    await setProviders([
      { name: 'brave-last', type: 'brave', baseUrl: fakes.brave.url, apiKeys: [{ key: 'brave-key-123456' }], order: 5 },
      { name: 'bing-first', type: 'bing', baseUrl: fakes.bing.url, apiKeys: [{ key: 'bing-key-1234567' }, { key: 'bing-key-7654321' }], order: 0 },
      { name: 'off', type: 'searxng', baseUrl: fakes.searxng.url, enabled: false }
    ])
    let body = parsed((await search('failover')).text)
    expect(body.provider).to.equal('brave-last')
    expect(fakes.bing.requests, 'a 5xx is the provider failing: its other key is not tried').to.have.length(1)
    expect(fakes.searxng.requests, 'a disabled provider is never asked').to.have.length(0)

    // every key refused -> next provider
    fakes.bing.status = undefined
    fakes.bing.validKeys = new Set(['another'])
    fakes.bing.requests = []
    body = parsed((await search('keys refused')).text)
    expect(body.provider).to.equal('brave-last')
    expect(fakes.bing.requests).to.have.length(2)

    // a provider type that needs a key and has none is skipped
    await setProviders([{ name: 'nokey', type: 'tavily', baseUrl: fakes.tavily.url }, { name: 'sx', type: 'searxng', baseUrl: fakes.searxng.url }])
    body = parsed((await search('keyless searxng')).text)
    expect(body.provider).to.equal('sx')
    expect(fakes.tavily.requests).to.have.length(0)
    expect(fakes.searxng.requests[0]!.headers.authorization, 'no key, no Authorization').to.equal(undefined)

    // a hanging provider is abandoned after timeoutMs
    fakes.searxng.hang = true
    await setProviders([{ name: 'hangs', type: 'searxng', baseUrl: fakes.searxng.url }, { name: 'answers', type: 'brave', baseUrl: fakes.brave.url, apiKeys: [{ key: 'brave-key-123456' }] }], { timeoutMs: 1000 })
    const started = Date.now()
    body = parsed((await search('slow')).text)
    expect(body.provider).to.equal('answers')
    expect(Date.now() - started).to.be.within(900, 8000)
  })

  it('no provider: a clear error; all failing: the error names each provider and status but never a key, even when the provider echoes it', async () => {
    await setProviders([])
    let out = await search('anything')
    expect(out).to.deep.equal({ isError: true, text: 'No web search provider is configured (webTools.search.providers)' })

    const keys = ['bing-secret-key-AAAA1111', 'brave-secret-key-BBBB2222']
    fakes.bing.echoKeyInErrors = true
    fakes.brave.echoKeyInErrors = true
    fakes.bing.status = 401
    fakes.brave.status = 429
    await setProviders([
      { name: 'bing', type: 'bing', baseUrl: fakes.bing.url, apiKeys: [{ name: 'main', key: keys[0]! }] },
      { name: 'brave', type: 'brave', baseUrl: fakes.brave.url, apiKeys: [{ key: keys[1]! }] }
    ])
    out = await search('fails')
    expect(out.isError).to.equal(true)
    expect(out.text).to.include('bing (main): HTTP 401').and.include('brave (key-1): HTTP 429')
    const logs = JSON.stringify((await s.api('/api/logs?limit=500')).body)
    expect(logs, 'the failure is logged').to.include('web_search failed: Every web search provider failed')
    const toolLogs = JSON.stringify((await s.api('/api/tools/logs')).body)
    expect(toolLogs).to.include('web_search')
    for (const k of keys) {
      expect(out.text).to.not.include(k)
      expect(logs).to.not.include(k)
      expect(toolLogs).to.not.include(k)
    }
  })
})
