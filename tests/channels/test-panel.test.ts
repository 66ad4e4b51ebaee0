import { expect } from 'chai'
import { BATCH_TEST_MESSAGE } from '../../lib/channels/batch-test.js'
import { addChannel, post, readSse, removeAllChannels, startEnv, waitFor, type Env, type Frame } from './helpers.js'

describe('channels: test panel /api/test-panel (style B, SSE)', () => {
  let env: Env
  before(async () => { env = await startEnv() })
  after(async () => { await env.close() })
  beforeEach(async () => { env.fake.reset(); env.fake.validKeys = []; await removeAllChannels(env.s) })

  const api = (path: string, json?: unknown): ReturnType<Env['s']['api']> =>
    env.s.api(`/api/test-panel${path}`, json === undefined ? {} : { method: 'POST', json })

  it('streams clear, start, testing/result/progress per model and complete, with the SSE headers', async () => {
    await addChannel(env.s, { name: 'bt', id: 'bt-id', baseUrl: env.fake.url, models: ['gpt-4o', 'fail-500', 'gpt-4o-mini'], apiKeys: [{ name: 'main', key: 'sk-batch-000001', enabled: true }] })
    env.fake.respond = (body) => (String(body.model).startsWith('fail-') ? { status: 500 } : { content: 'x'.repeat(150) })
    const res = await post(env.s, '/api/test-panel/batch-test', { channelId: 'bt-id', concurrency: 2 })
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/)
    expect(res.headers.get('cache-control')).to.equal('no-cache, no-transform') // no-transform: compressing hosts pass it through
    expect(res.headers.get('connection')).to.equal('keep-alive')
    expect(res.headers.get('x-accel-buffering')).to.equal('no')
    const frames = await readSse(res)
    const names = frames.map((f) => f.event)
    expect(names[0]).to.equal('clear')
    expect(names[1]).to.equal('start')
    expect(names.at(-1)).to.equal('complete')
    expect(frames[1]!.data).to.deep.equal({ testId: frames[1]!.data.testId, total: 3, channelId: 'bt-id', channelName: 'bt', concurrency: 2 })
    expect(frames[1]!.data.testId).to.match(/^test_\d+_[a-z0-9]+$/)
    // every result is followed by its progress frame, every model was announced by testing first
    const middle = frames.slice(2, -1)
    expect(middle.filter((f) => f.event === 'testing')).to.have.length(3)
    middle.forEach((f, i) => { if (f.event === 'result') expect(middle[i + 1]?.event).to.equal('progress') })
    for (const r of middle.filter((f) => f.event === 'result')) {
      const announced = middle.findIndex((f) => f.event === 'testing' && f.data.model === r.data.model)
      expect(announced).to.be.lessThan(middle.indexOf(r))
    }
    const ok = middle.find((f) => f.event === 'result' && f.data.model === 'gpt-4o')!.data
    expect(ok).to.include({ success: true, index: 0 })
    expect(ok.response).to.have.length(100)
    expect(ok.keyInfo).to.deep.equal({ name: 'main', index: 0 })
    expect(ok.elapsed).to.be.a('number')
    const bad = middle.find((f) => f.event === 'result' && f.data.model === 'fail-500')!.data
    expect(bad).to.include({ success: false, index: 1 })
    expect(bad.error).to.be.a('string')
    const lastProgress = middle.filter((f) => f.event === 'progress').at(-1)!.data
    expect(lastProgress).to.deep.equal({ completed: 3, total: 3, running: 0, successCount: 2, failCount: 1 })
    const done = frames.at(-1)!.data
    expect(done).to.include({ testId: frames[1]!.data.testId, total: 3, success: 2, failed: 1, aborted: false })
    expect(done.results.map((r: { index: number }) => r.index)).to.deep.equal([0, 1, 2])
    // request parameters of POST /api/test-panel/batch-test
    const sent = env.fake.chatRequests().map((r) => r.body)
    for (const b of sent) {
      expect(b.max_tokens).to.equal(50)
      expect(b.temperature).to.equal(0.7)
      expect(b.messages).to.deep.equal([{ role: 'user', content: BATCH_TEST_MESSAGE }])
    }
    // recorded in stats with source batch-test (failures too)
    const stats = env.s.lx.rt.stats.models()
    expect(stats.find((m) => m.model === 'fail-500')?.errors).to.equal(1)
    const cm = await api('/channel-models/bt-id')
    expect(cm.body.code).to.equal(0)
    const svc = env.s.lx.rt.need('channels').service
    expect(cm.body.data).to.include({ channelId: 'bt-id', channelName: 'bt', status: svc.status(svc.get('bt')) })
    expect(cm.body.data.results).to.have.length(3)
    expect(cm.body.data.models).to.deep.equal(['gpt-4o', 'fail-500', 'gpt-4o-mini'])
    expect(cm.body.data.testedAt).to.be.a('number')
  })

  it('uses one key for the whole batch without advancing the rotation', async () => {
    await addChannel(env.s, { name: 'k2', baseUrl: env.fake.url, models: ['a', 'b', 'c', 'd'], apiKeys: [{ name: 'first', key: 'sk-first-00001', enabled: true }, { name: 'second', key: 'sk-second-0002', enabled: true }] })
    const frames = await readSse(await post(env.s, '/api/test-panel/batch-test', { channelId: 'k2' }))
    const keys = new Set(env.fake.chatRequests().map((r) => r.headers.authorization))
    expect([...keys]).to.deep.equal(['Bearer sk-first-00001'])
    expect(frames.filter((f) => f.event === 'result').map((f) => f.data.keyInfo)).to.deep.equal(Array(4).fill({ name: 'first', index: 0 }))
    const next = await env.s.lx.rt.need('channels').gateway.call({ channel: 'k2', messages: [{ role: 'user', content: 'x' }], source: 'chat' })
    expect(next.keyInfo).to.deep.equal({ name: 'first', index: 0 })
  })

  it('omits clear when clearPrevious is false and tests only the given models', async () => {
    await addChannel(env.s, { name: 'bt2', baseUrl: env.fake.url, models: ['a', 'b', 'c'] })
    const frames = await readSse(await post(env.s, '/api/test-panel/batch-test', { channelId: 'bt2', models: ['b'], clearPrevious: false }))
    expect(frames.map((f) => f.event)).to.deep.equal(['start', 'testing', 'result', 'progress', 'complete'])
    expect(frames[1]!.data).to.deep.equal({ model: 'b', index: 0, running: 1 })
  })

  it('keeps `concurrency` requests in flight, never more', async () => {
    await addChannel(env.s, { name: 'pool', baseUrl: env.fake.url, models: Array.from({ length: 8 }, (_, i) => `slow-${60 + i}`) })
    let inFlight = 0
    let peak = 0
    const orig = env.fake.respond
    env.fake.respond = (body, req) => { inFlight++; peak = Math.max(peak, inFlight); setTimeout(() => { inFlight-- }, 55); return orig(body, req) }
    const frames = await readSse(await post(env.s, '/api/test-panel/batch-test', { channelId: 'pool', concurrency: 3 }))
    expect(peak).to.equal(3)
    expect(Math.max(...frames.filter((f) => f.event === 'testing').map((f) => f.data.running))).to.equal(3)
    expect(frames.at(-1)!.data.success).to.equal(8)
  })

  it('stops softly by id: in-flight requests finish, no new model starts, complete says aborted', async () => {
    await addChannel(env.s, { name: 'stop', baseUrl: env.fake.url, models: Array.from({ length: 10 }, (_, i) => `slow-${150 + i}`) })
    let testId = ''
    let stopAnswer: any
    let activeDuring: any
    const frames = await readSse(await post(env.s, '/api/test-panel/batch-test', { channelId: 'stop', concurrency: 2 }), async (f) => {
      if (f.event === 'start') testId = f.data.testId
      if (f.event === 'result' && !stopAnswer) {
        activeDuring = (await api('/active-tests')).body
        stopAnswer = (await api('/batch-test-stop', { testId })).body
      }
    })
    expect(activeDuring.data).to.deep.include({ id: testId, total: 10, aborted: false, completed: activeDuring.data[0].completed })
    expect(stopAnswer).to.deep.equal({ code: 0, data: { stopped: true, testId }, message: 'ok' })
    const complete: Frame = frames.at(-1)!
    expect(complete.event).to.equal('complete')
    expect(complete.data.aborted).to.equal(true)
    const results = frames.filter((f) => f.event === 'result')
    expect(results.length).to.be.lessThan(10)
    // every started model finished (soft stop)
    expect(frames.filter((f) => f.event === 'testing')).to.have.length(results.length)
    expect(complete.data.results).to.have.length(results.length)
    expect(env.fake.chatRequests()).to.have.length(results.length)
    expect((await api('/active-tests')).body.data).to.deep.equal([])
    const again = await api('/batch-test-stop', { testId })
    expect(again.body.data.stopped).to.equal(false)
    expect(again.body.data.message).to.be.a('string')
  })

  it('stops every running test without an id', async () => {
    await addChannel(env.s, { name: 'all', baseUrl: env.fake.url, models: Array.from({ length: 6 }, (_, i) => `slow-${120 + i}`) })
    let answer: any
    const run = (): Promise<Frame[]> => post(env.s, '/api/test-panel/batch-test', { channelId: 'all', concurrency: 1 }).then((r) => readSse(r))
    const both = Promise.all([run(), run()])
    await waitFor(() => env.s.lx.rt.need('channels').tests.active().length === 2)
    answer = (await api('/batch-test-stop', {})).body
    const [a, b] = await both
    expect(answer.data).to.deep.equal({ stopped: true, count: 2 })
    expect(a.at(-1)!.data.aborted).to.equal(true)
    expect(b.at(-1)!.data.aborted).to.equal(true)
  })

  it('stops scheduling new models when the client goes away', async () => {
    await addChannel(env.s, { name: 'gone', baseUrl: env.fake.url, models: Array.from({ length: 10 }, (_, i) => `slow-${100 + i}`) })
    const ac = new AbortController()
    const res = await post(env.s, '/api/test-panel/batch-test', { channelId: 'gone', concurrency: 1 }, ac.signal)
    await readSse(res, (f) => { if (f.event === 'result') ac.abort() }).catch(() => undefined)
    await waitFor(() => env.s.lx.rt.need('channels').tests.active().length === 0)
    expect(env.fake.chatRequests().length).to.be.at.most(2)
  })

  it('validates input: 400 for bad fields, 404 for an unknown channel, 400 without testable models', async () => {
    await addChannel(env.s, { name: 'v', baseUrl: env.fake.url, models: ['gpt-4o'] })
    const cases: Array<[unknown, number, RegExp]> = [
      [{}, 400, /channelId is required/],
      [{ channelId: '' }, 400, /channelId is required/],
      [{ channelId: 5 }, 400, /channelId/],
      [{ channelId: 'v', concurrency: 0 }, 400, /concurrency must be an integer 1-20/],
      [{ channelId: 'v', concurrency: 21 }, 400, /concurrency must be an integer 1-20/],
      [{ channelId: 'v', concurrency: 2.5 }, 400, /concurrency must be an integer 1-20/],
      [{ channelId: 'v', concurrency: '3' }, 400, /concurrency must be an integer 1-20/],
      [{ channelId: 'v', models: 'gpt-4o' }, 400, /models/],
      [{ channelId: 'v', clearPrevious: 'yes' }, 400, /clearPrevious/],
      [{ channelId: 'nope' }, 404, /^Channel does not exist$/]
    ]
    for (const [json, status, msg] of cases) {
      const r = await api('/batch-test', json)
      expect(r.status, JSON.stringify(json)).to.equal(status)
      expect(r.body.code).to.equal(-1)
      expect(r.body.data).to.equal(null)
      expect(r.body.message).to.match(msg)
    }
    env.fake.models = []
    await addChannel(env.s, { name: 'empty', baseUrl: env.fake.url })
    const none = await api('/batch-test', { channelId: 'empty' })
    expect(none.status).to.equal(400)
    expect(none.body).to.deep.equal({ code: -1, data: null, message: 'No testable models' })
    env.fake.models = ['gpt-4o-mini', 'gpt-4o', 'deepseek-chat']
    expect((await api('/batch-test-stop', { testId: 7 })).status).to.equal(400)
    expect((await api('/channel-models/nope')).body).to.deep.equal({ code: -1, data: null, message: 'Channel does not exist' })
    expect((await api('/quick-test', { channelId: 'nope' })).status).to.equal(404)
    expect((await api('/quick-test', {})).status).to.equal(400)
    expect((await api('/quick-test', { channelId: 'v', message: 3 })).status).to.equal(400)
  })

  it('uses the provider model list when the channel lists no models', async () => {
    await addChannel(env.s, { name: 'prov', baseUrl: env.fake.url })
    const frames = await readSse(await post(env.s, '/api/test-panel/batch-test', { channelId: 'prov', models: [] }))
    expect(frames.find((f) => f.event === 'start')!.data.total).to.equal(env.fake.models.length)
  })

  it('quick test streams start then result with the full text, not recorded in stats', async () => {
    await addChannel(env.s, { name: 'q', baseUrl: env.fake.url, models: ['quick-model'] })
    env.fake.enqueue({ content: 'y'.repeat(150) })
    const frames = await readSse(await post(env.s, '/api/test-panel/quick-test', { channelId: 'q' }))
    expect(frames.map((f) => f.event)).to.deep.equal(['start', 'result'])
    expect(frames[0]!.data).to.deep.equal({ model: 'quick-model', channel: 'q', message: 'Say hello' })
    expect(frames[1]!.data).to.include({ success: true, model: 'quick-model' })
    expect(frames[1]!.data.response).to.have.length(150)
    expect(frames[1]!.data).to.have.property('keyInfo')
    const body = env.fake.chatRequests()[0]!.body
    expect(body.max_tokens).to.equal(100)
    expect(body.temperature).to.equal(0.7)
    expect(env.s.lx.rt.stats.models().find((m) => m.model === 'quick-model')).to.equal(undefined)
    const err = await readSse(await post(env.s, '/api/test-panel/quick-test', { channelId: 'q', model: 'fail-429', message: 'hi' }))
    expect(err.map((f) => f.event)).to.deep.equal(['start', 'error'])
    expect(err[1]!.data).to.include({ success: false, model: 'fail-429' })
    expect(err[1]!.data.error).to.match(/429/)
  })
})
