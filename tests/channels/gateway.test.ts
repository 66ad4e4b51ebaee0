import { expect } from 'chai'
import sinon from 'sinon'
import { AppError } from '../../lib/core/errors.js'
import { MAX_ANSWER_BYTES } from '../../lib/channels/fetch.js'
import type { ModelRequest } from '../../lib/chat/contracts.js'
import { addChannel, removeAllChannels, startEnv, waitFor, type Env } from './helpers.js'

const hello = (extra: Partial<ModelRequest> = {}): ModelRequest => ({ messages: [{ role: 'user', content: 'hello' }], source: 'chat', ...extra })
const authOf = (env: Env): string[] => env.fake.chatRequests().map((r) => String(r.headers.authorization).replace('Bearer ', ''))

async function rejects (p: Promise<unknown>): Promise<AppError> {
  try { await p } catch (e) { expect(e).to.be.instanceOf(AppError); return e as AppError }
  throw new Error('expected a rejection')
}

describe('channels: model gateway', () => {
  let env: Env
  before(async () => { env = await startEnv() })
  after(async () => { await env.close() })
  beforeEach(async () => { env.fake.reset(); env.fake.validKeys = []; await removeAllChannels(env.s) })
  afterEach(() => { sinon.restore() })

  const gw = () => env.s.lx.rt.need('channels').gateway

  it('is provided as the models service and answers a completion with usage, recorded in stats', async () => {
    await addChannel(env.s, { name: 'main', baseUrl: env.fake.url, apiKey: 'sk-test-1234', model: 'gpt-4o-mini' })
    expect(env.s.lx.rt.optional('models')).to.equal(gw())
    const r = await env.s.lx.rt.need('models').complete(hello({ scope: { userId: 'u1', groupId: 'g1' } }))
    expect(r.content).to.equal('echo: hello')
    expect(r.model).to.equal('gpt-4o-mini')
    expect(r.channel).to.equal('main')
    expect(r.usage.totalTokens).to.be.greaterThan(0)
    const m = env.s.lx.rt.stats.models().find((x) => x.model === 'gpt-4o-mini')
    expect(m?.requests).to.be.greaterThan(0)
    const u = env.s.lx.rt.stats.users(100).find((x) => x.userId === 'u1')
    expect(u?.tokens).to.equal(r.usage.totalTokens)
    expect(env.s.lx.rt.stats.channels().find((c) => c.id === 'main')?.requests).to.be.greaterThan(0)
  })

  it('marks the stable start with cache_control for models that cache only marked blocks (OpenRouter Claude), never elsewhere', async () => {
    const conversation: ModelRequest['messages'] = [
      { role: 'system', content: 'persona' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: 'second' }
    ]
    await addChannel(env.s, { name: 'or', baseUrl: env.fake.url, model: 'anthropic/claude-sonnet-4', profile: 'openrouter' })
    await gw().complete(hello({ messages: conversation }))
    const marked = env.fake.chatRequests()[0]?.body.messages
    const mark = { type: 'ephemeral' }
    expect(marked[0]).to.deep.equal({ role: 'system', content: [{ type: 'text', text: 'persona', cache_control: mark }] })
    expect(marked[1]).to.deep.equal({ role: 'user', content: [{ type: 'text', text: 'first', cache_control: mark }] })
    expect(marked.slice(2)).to.deep.equal([{ role: 'assistant', content: 'answer' }, { role: 'user', content: 'second' }])
    // a model of another maker on the same aggregator, and OpenAI itself: caching is automatic, no marker
    await removeAllChannels(env.s)
    await addChannel(env.s, { name: 'or2', baseUrl: env.fake.url, model: 'deepseek/deepseek-chat', profile: 'openrouter' })
    await gw().complete(hello({ messages: conversation }))
    await removeAllChannels(env.s)
    await addChannel(env.s, { name: 'oa', baseUrl: env.fake.url, model: 'claude-like-name', profile: 'openai' })
    await gw().complete(hello({ messages: conversation }))
    for (const r of env.fake.chatRequests().slice(1)) expect(JSON.stringify(r.body)).to.not.include('cache_control')
  })

  it('streams deltas in order and resolves with the full text', async () => {
    await addChannel(env.s, { name: 'main', baseUrl: env.fake.url, apiKey: 'sk-test-1234', model: 'gpt-4o' })
    const deltas: string[] = []
    const r = await gw().stream(hello({ messages: [{ role: 'user', content: 'a fairly long message to split' }] }), (t) => deltas.push(t))
    expect(deltas.length).to.be.greaterThan(2)
    expect(deltas.join('')).to.equal('echo: a fairly long message to split')
    expect(r.content).to.equal(deltas.join(''))
    expect(r.usage.promptTokens).to.be.greaterThan(0)
    expect(env.fake.chatRequests()[0]?.body.stream_options).to.deep.equal({ include_usage: true })
  })

  it('sends tool definitions and assembles streamed tool calls', async () => {
    await addChannel(env.s, { name: 'main', baseUrl: env.fake.url, model: 'gpt-4o' })
    env.fake.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] })
    const r = await gw().stream(hello({ tools: [{ name: 'weather', description: 'w', parameters: { type: 'object', properties: {} } }] }), () => {})
    expect(env.fake.chatRequests()[0]?.body.tools[0].function.name).to.equal('weather')
    expect(r.toolCalls).to.have.length(1)
    expect(r.toolCalls[0]?.name).to.equal('weather')
    expect(JSON.parse(r.toolCalls[0]?.arguments ?? '')).to.deep.equal({ city: 'Paris' })
    expect(r.finishReason).to.equal('tool_calls')
  })

  it('fails over to the next key on 401 within the same request', async () => {
    env.fake.validKeys = ['sk-good-key-0002']
    await addChannel(env.s, { name: 'keys', baseUrl: env.fake.url, model: 'gpt-4o', apiKeys: [{ name: 'bad', key: 'sk-bad-key-0001', enabled: true }, { name: 'good', key: 'sk-good-key-0002', enabled: true }] })
    const r = await gw().call(hello())
    expect(r.content).to.equal('echo: hello')
    expect(r.keyInfo).to.deep.equal({ name: 'good', index: 1 })
    expect(authOf(env)).to.deep.equal(['sk-bad-key-0001', 'sk-good-key-0002'])
  })

  for (const status of [429, 500, 503]) {
    it(`fails over to the next key on ${status}`, async () => {
      await addChannel(env.s, { name: 'keys', baseUrl: env.fake.url, model: 'gpt-4o', apiKeys: [{ name: 'a', key: 'sk-aaaa-0001', enabled: true }, { name: 'b', key: 'sk-bbbb-0002', enabled: true }] })
      env.fake.enqueue({ status })
      const r = await gw().call(hello())
      expect(r.content).to.equal('echo: hello')
      expect(new Set(authOf(env)).size).to.equal(2)
    })
  }

  it('does not fail over on a 400 (the request itself is wrong) and maps it to MODEL_ERROR', async () => {
    await addChannel(env.s, { name: 'keys', baseUrl: env.fake.url, model: 'fail-400', apiKeys: [{ name: 'a', key: 'sk-aaaa-0001', enabled: true }, { name: 'b', key: 'sk-bbbb-0002', enabled: true }] })
    const e = await rejects(gw().complete(hello()))
    expect(e.code).to.equal('MODEL_ERROR')
    expect(e.status).to.equal(502)
    expect(env.fake.chatRequests()).to.have.length(1)
    // a model error says nothing about the channel's health
    expect(env.s.lx.rt.need('channels').service.status(env.s.lx.rt.need('channels').service.get('keys'))).to.equal('active')
  })

  it('maps exhausted keys to MODEL_ERROR, marks the channel error and records the failure', async () => {
    env.fake.validKeys = ['sk-nothing-matches']
    await addChannel(env.s, { name: 'bad', baseUrl: env.fake.url, model: 'm-x', apiKey: 'sk-wrong-0001' })
    const events: unknown[] = []
    const off = env.s.lx.rt.bus.on('system', (name, data) => { if (name === 'channel') events.push(data) })
    const e = await rejects(gw().complete(hello()))
    off()
    expect(events).to.have.length(1)
    expect(events[0]).to.include({ id: 'bad', name: 'bad', status: 'error' })
    expect(e.code).to.equal('MODEL_ERROR')
    expect(e.message).to.match(/401/)
    const svc = env.s.lx.rt.need('channels').service
    expect(svc.status(svc.get('bad'))).to.equal('error')
    expect(env.s.lx.rt.stats.models().find((m) => m.model === 'm-x')?.errors).to.equal(1)
    env.fake.validKeys = []
    await gw().complete(hello())
    expect(svc.status(svc.get('bad'))).to.equal('active')
  })

  it('skips a key in cooldown and tries it again after the cooldown', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    env.fake.validKeys = ['sk-good-key-0002']
    await addChannel(env.s, { name: 'cool', baseUrl: env.fake.url, model: 'gpt-4o', keyCooldownMs: 60000, apiKeys: [{ name: 'bad', key: 'sk-bad-key-0001', enabled: true }, { name: 'good', key: 'sk-good-key-0002', enabled: true }] })
    await gw().call(hello()) // bad (401, cooled down) -> good
    env.fake.reset(); env.fake.validKeys = ['sk-good-key-0002']
    for (let i = 0; i < 4; i++) await gw().call(hello())
    expect(authOf(env)).to.deep.equal(Array(4).fill('sk-good-key-0002'))
    clock.tick(60001)
    env.fake.reset(); env.fake.validKeys = ['sk-good-key-0002']
    for (let i = 0; i < 2; i++) await gw().call(hello())
    expect(authOf(env)).to.include('sk-bad-key-0001')
  })

  it('rotates keys round-robin across requests', async () => {
    await addChannel(env.s, { name: 'rr', baseUrl: env.fake.url, model: 'gpt-4o', apiKeys: [{ name: 'a', key: 'sk-aaaa-0001', enabled: true }, { name: 'b', key: 'sk-bbbb-0002', enabled: true }, { name: 'off', key: 'sk-off-0003', enabled: false }] })
    for (let i = 0; i < 4; i++) await gw().call(hello())
    expect(authOf(env)).to.deep.equal(['sk-aaaa-0001', 'sk-bbbb-0002', 'sk-aaaa-0001', 'sk-bbbb-0002'])
  })

  it('aborts a stalled stream after idleTimeoutMs with TIMEOUT', async () => {
    await addChannel(env.s, { name: 'stall', baseUrl: env.fake.url, model: 'stall', idleTimeoutMs: 1000, timeoutMs: 60000 })
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    let got = ''
    const p = gw().stream(hello(), (t) => { got += t })
    const settled = p.then(() => 'resolved', (e: unknown) => e)
    await waitFor(() => got.length > 0)
    await clock.tickAsync(999)
    expect(await Promise.race([settled, Promise.resolve('pending')])).to.equal('pending')
    await clock.tickAsync(2)
    const e = await settled
    expect(e).to.be.instanceOf(AppError)
    expect((e as AppError).code).to.equal('TIMEOUT')
    expect((e as AppError).status).to.equal(504)
    expect((e as AppError).message).to.match(/stalled/)
  })

  it('times out a request whose answer does not come within timeoutMs', async () => {
    await addChannel(env.s, { name: 'slow', baseUrl: env.fake.url, model: 'slow-5000', timeoutMs: 1000 })
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    const settled = gw().complete(hello()).then(() => 'resolved', (e: unknown) => e)
    await waitFor(() => env.fake.chatRequests().length > 0)
    await clock.tickAsync(1001)
    const e = await settled
    expect((e as AppError).code).to.equal('TIMEOUT')
  })

  it('sends the request body the model expects when it reuses serialised tool definitions (lib/channels/request-body.ts)', async () => {
    await addChannel(env.s, { name: 'main', baseUrl: env.fake.url, model: 'gpt-4o' })
    const parameters = { type: 'object', properties: { city: { type: 'string', description: '城市 "quoted"' } } }
    const tools = [{ name: 'weather', description: 'w1', parameters }, { name: 'time', description: 't', parameters: { type: 'object' } }]
    await gw().complete(hello({ tools, temperature: 0.5 }))
    // the same parameters object under another description: the text sent follows the definition
    await gw().complete(hello({ tools: [{ ...tools[0]!, description: 'w2' }], maxTokens: 10 }))
    const [first, second] = env.fake.chatRequests()
    expect(first?.headers['content-type']).to.match(/^application\/json/)
    expect(first?.body).to.deep.include({ model: 'gpt-4o', temperature: 0.5, stream: false })
    expect(first?.body.tools).to.deep.equal(tools.map((t) => ({ type: 'function', function: t })))
    expect(second?.body.tools).to.deep.equal([{ type: 'function', function: { name: 'weather', description: 'w2', parameters } }])
    expect(second?.body.max_tokens).to.equal(10)
    // the encoded list is reused only while the same definitions go out in the same order; messages
    // in any script end right before the spliced list
    const said = '你好 👋 "quoted" \\ end'
    // two tools may share one parameters object (a `{ query }` schema): each keeps its own text
    const shared = [...tools, { name: 'lookup', description: 'l', parameters }]
    for (const list of [[...tools].reverse(), tools, tools, shared, shared]) {
      await gw().complete(hello({ tools: list, messages: [{ role: 'user', content: said }] }))
      const sent = env.fake.chatRequests().at(-1)?.body
      expect(sent?.tools).to.deep.equal(list.map((t) => ({ type: 'function', function: t })))
      expect(sent?.messages).to.deep.equal([{ role: 'user', content: said }])
    }
    // a body template's `tools` replaces the list, whatever it holds
    await addChannel(env.s, { name: 'main', baseUrl: env.fake.url, model: 'gpt-4o', bodyTemplate: { tools: 'none' } })
    await gw().complete(hello({ tools }))
    expect(env.fake.chatRequests()[7]?.body.tools).to.equal('none')
  })

  it('renders custom path, header and body templates', async () => {
    await addChannel(env.s, {
      name: 'tpl', baseUrl: env.fake.url, model: 'gpt-4o', apiKey: 'sk-tpl-key-0001', customPath: '/custom/{{model}}/chat/completions',
      headersTemplate: { 'X-User': '{{userId}}', 'X-Key': 'k={{apiKey}}' }, bodyTemplate: { user: '{{userId}}-{{groupId}}', meta: { ch: '{{channel}}' } }
    })
    await gw().complete(hello({ scope: { userId: '42', groupId: '7' } }))
    const req = env.fake.chatRequests()[0]!
    expect(req.path).to.equal('/v1/custom/gpt-4o/chat/completions')
    expect(req.headers['x-user']).to.equal('42')
    expect(req.headers['x-key']).to.equal('k=sk-tpl-key-0001')
    expect(req.body.user).to.equal('42-7')
    expect(req.body.meta).to.deep.equal({ ch: 'tpl' })
  })

  it('chooses the best channel by priority and falls over to the next when it fails', async () => {
    await addChannel(env.s, { name: 'low', baseUrl: env.fake.url, model: 'gpt-4o', priority: 1, apiKey: 'sk-low-0000001' })
    await addChannel(env.s, { name: 'high', baseUrl: env.fake.url, model: 'gpt-4o', priority: 9, apiKey: 'sk-high-000001' })
    expect((await gw().complete(hello())).channel).to.equal('high')
    env.fake.enqueue({ status: 500 })
    const r = await gw().complete(hello())
    expect(r.channel).to.equal('low')
    const svc = env.s.lx.rt.need('channels').service
    expect(svc.status(svc.get('high'))).to.equal('error')
    // the failing channel goes last while it is in error
    expect((await gw().complete(hello())).channel).to.equal('low')
    expect(env.s.lx.rt.need('channels').service.availableCount()).to.equal(1)
  })

  it('maps an unreachable channel to CHANNEL_UNAVAILABLE and no channel at all too', async () => {
    const e0 = await rejects(gw().complete(hello()))
    expect(e0.code).to.equal('CHANNEL_UNAVAILABLE')
    expect(e0.status).to.equal(503)
    await addChannel(env.s, { name: 'dead', baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o' })
    const e1 = await rejects(gw().complete(hello()))
    expect(e1.code).to.equal('CHANNEL_UNAVAILABLE')
    await addChannel(env.s, { name: 'off', baseUrl: env.fake.url, model: 'gpt-4o', enabled: false })
    const e2 = await rejects(gw().complete(hello({ channel: 'off' })))
    expect(e2.code).to.equal('CHANNEL_UNAVAILABLE')
    expect(env.fake.chatRequests()).to.have.length(0)
  })

  describe('an answer without end (a broken or hostile relay) is read up to MAX_ANSWER_BYTES, never further', () => {
    const slack = 16 * 1024 * 1024 // what the sockets' buffers hold besides what was read
    const readUpToTheLimit = async (): Promise<void> => {
      // counted when the server sees the connection closed
      await waitFor(() => env.fake.chatRequests()[0]?.sentBytes !== undefined)
      const sent = env.fake.chatRequests()[0]?.sentBytes ?? 0
      expect(sent).to.be.greaterThan(MAX_ANSWER_BYTES)
      expect(sent).to.be.lessThan(MAX_ANSWER_BYTES + slack)
    }
    const refused = async (e: AppError): Promise<void> => {
      expect(e.code).to.equal('CHANNEL_UNAVAILABLE')
      expect(e.message).to.include(`larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`)
      await readUpToTheLimit()
    }

    it('a whole answer: refused, the channel marked', async () => {
      await addChannel(env.s, { name: 'broken', baseUrl: env.fake.url, model: 'gpt-4o' })
      env.fake.enqueue({ endless: true })
      await refused(await rejects(gw().complete(hello())))
      const svc = env.s.lx.rt.need('channels').service
      expect(svc.status(svc.get('broken')!)).to.equal('error')
      expect(svc.view(svc.get('broken')!).lastError).to.include('MiB')
    })

    it('a whole answer: the next channel answers', async () => {
      await addChannel(env.s, { name: 'broken', baseUrl: env.fake.url, model: 'gpt-4o', priority: 9 })
      await addChannel(env.s, { name: 'spare', baseUrl: env.fake.url, model: 'gpt-4o', priority: 1 })
      env.fake.enqueue({ endless: true })
      expect((await gw().complete(hello())).channel).to.equal('spare')
      await readUpToTheLimit()
    })

    it('a stream: the text so far reached the caller, then refused', async () => {
      await addChannel(env.s, { name: 'broken', baseUrl: env.fake.url, model: 'gpt-4o' })
      env.fake.enqueue({ endless: true })
      let got = 0
      await refused(await rejects(gw().stream(hello(), (t) => { got += t.length })))
      expect(got).to.be.greaterThan(0).and.at.most(MAX_ANSWER_BYTES)
    })

    it("an error's body on a stream request: ends with the error and the start of its body, not a read without end", async () => {
      await addChannel(env.s, { name: 'broken', baseUrl: env.fake.url, model: 'gpt-4o' })
      env.fake.enqueue({ endless: true, status: 400 })
      const e = await rejects(gw().stream(hello(), () => {}))
      expect(e.code).to.equal('MODEL_ERROR')
      // only the body's start is read (lib/channels/error-body.ts), said in one line
      expect(e.message).to.include('HTTP 400')
      expect(e.message.length).to.be.lessThan(400)
      await waitFor(() => env.fake.chatRequests()[0]?.sentBytes !== undefined)
      expect(env.fake.chatRequests()[0]?.sentBytes).to.be.lessThan(MAX_ANSWER_BYTES + slack)
    })
  })

  it('stops when the caller aborts', async () => {
    await addChannel(env.s, { name: 'main', baseUrl: env.fake.url, model: 'slow-3000' })
    const ac = new AbortController()
    const p = gw().complete(hello({ signal: ac.signal }))
    await waitFor(() => env.fake.chatRequests().length > 0)
    ac.abort()
    const e = await rejects(p)
    expect(e.message).to.match(/abort/i)
  })

  it('generates images through a channel', async () => {
    await addChannel(env.s, { name: 'img', baseUrl: env.fake.url, model: 'gpt-4o', image: { enabled: true, model: 'gpt-image-1' } })
    const urls = await gw().generateImages({ prompt: 'a cat', n: 2 })
    expect(urls).to.have.length(2)
    expect(urls[0]).to.match(/^data:image\/png;base64,/)
    const req = env.fake.requests.find((r) => r.path.endsWith('/images/generations'))
    expect(req?.body.model).to.equal('gpt-image-1')
  })
})
