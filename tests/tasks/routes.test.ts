// /api/tasks (style B) through real HTTP with the fake model as the channel: creation from a cron
// expression, words and a one-off, the 400s of bad input, list/get/put/delete, pause and resume, a run
// started by hand (the model's answer, tokens and cost recorded; sent through a stand-in host account),
// the runs, the next times, the month's cost, and every GET answer against the OpenAPI document.
import { expect } from 'chai'
import type { OpenApiDocument } from '../../routes/_http/openapi.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { answerChecker, type Operation } from '../web/openapi-answers.js'

type Loose = Record<string, unknown>
const g = globalThis as unknown as { Bot?: Loose }

describe('tasks: routes (/api/tasks)', function () {
  this.timeout(30_000)
  let s: TestServer
  let fake: FakeOpenAI
  const svc = () => s.lx.rt.need('tasks')
  const api = (path: string, method = 'GET', json?: unknown): ReturnType<TestServer['api']> =>
    s.api(`/api/tasks${path}`, json === undefined ? { method } : { method, json })
  const base = { name: 'Morning news', prompt: '搜索关于X的新闻并用三行总结', schedule: '0 8 * * *', target: { groupId: '555' } }
  const create = async (body: Record<string, unknown>): Promise<any> => {
    const r = await api('', 'POST', body)
    expect(r.status, r.text).to.equal(201)
    expect(r.body.code).to.equal(0)
    return r.body.data
  }

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-task'] })
    s = await startTestServer()
    const cfg = s.lx.rt.config.get()
    await s.lx.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-task', model: 'gpt-task', models: ['gpt-task'] }],
      reminders: { ...cfg.reminders, timezone: 'Asia/Shanghai' },
      pricing: { ...cfg.pricing, currency: 'CNY', models: [{ model: 'gpt-task', input: 2, output: 8 }] }
    })
  })
  afterEach(async () => { for (const t of svc().list()) await svc().remove(t.id, { userId: 'test', isMaster: true, via: 'dashboard' }) })
  after(async () => { await s?.close(); await fake?.close() })

  it('POST makes a task from a cron expression, from words and once; GET lists them the next due first', async () => {
    const cron = await create(base)
    expect(cron.id).to.match(/^t[0-9a-z]{5}$/)
    expect(cron).to.deep.include({ name: 'Morning news', schedule: { kind: 'cron', expr: '0 8 * * *' }, scheduleText: '0 8 * * *', target: { groupId: '555' }, missed: 'skip', keepHistory: false, tools: [] })
    expect(cron).to.not.have.property('paused')
    expect(cron.createdBy).to.deep.equal({ userId: '10001', via: 'dashboard' })
    expect(cron.next).to.match(/ 08:00$/)
    expect(cron).to.include({ timeZone: 'Asia/Shanghai', scheduleWords: 'cron 0 8 * * *', lastRun: null, spentThisMonth: 0 })
    const words = await create({ ...base, name: 'Words', schedule: '每天早上8点', target: { userId: '20001' }, missed: 'late', monthlyBudget: 5, keepHistory: true })
    expect(words.schedule).to.deep.equal({ kind: 'recurrence', recurrence: { kind: 'daily', hour: 8, minute: 0 } })
    expect(words).to.include({ scheduleWords: '每天 08:00', missed: 'late', monthlyBudget: 5, keepHistory: true })
    expect(words.target).to.deep.equal({ userId: '20001' })
    const once = await create({ ...base, name: 'Once', schedule: '30分钟后' })
    expect(once.schedule.kind).to.equal('once')
    expect(once.scheduleWords).to.match(/^一次：\d{4}-\d\d-\d\d \d\d:\d\d$/)
    expect(once.nextAt - s.lx.rt.clock.now()).to.be.within(29 * 60_000, 31 * 60_000)
    const list = await api('')
    expect(list.status, list.text).to.equal(200)
    expect(list.body.data.map((t: any) => t.id)).to.deep.equal([once.id, ...[cron, words].sort((a, b) => a.nextAt - b.nextAt || a.name.localeCompare(b.name)).map((t) => t.id)])
    expect((await api('?groupId=555')).body.data.map((t: any) => t.id).sort()).to.deep.equal([cron.id, once.id].sort())
    const page = await api('?limit=1&offset=1')
    expect(page.body).to.deep.include({ total: 3, limit: 1, offset: 1 })
    expect(page.body.data).to.have.length(1)
  })

  it('answers 400 with a message for bad input, never 500; 404 for an unknown task', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...base, schedule: '61 8 * * *' }, /not a cron expression/],
      [{ ...base, schedule: '* * * * *' }, /more often than every 30 minutes/],
      [{ ...base, schedule: '2020-01-01 08:00' }, /already past/],
      [{ ...base, schedule: 'whenever' }, /No time found/],
      [{ ...base, target: { groupId: '555', userId: '20001' } }, /^target: target must name a groupId or a userId, not both$/],
      [{ ...base, target: {} }, /groupId or a userId/],
      [{ ...base, target: { groupId: 'a/b' } }, /target.groupId: groupId must be 1-64/],
      [{ ...base, tools: ['web_search', 'no_such_tool', 'nor_this'] }, /^tools: unknown tools no_such_tool, nor_this$/],
      [{ ...base, presetId: 'no-such-preset' }, /^presetId: no preset no-such-preset$/],
      [{ ...base, channel: 'nowhere' }, /^channel: no channel nowhere$/],
      [{ ...base, name: 'n'.repeat(101) }, /^name: name is longer than 100 characters$/],
      [{ ...base, prompt: 'p'.repeat(4001) }, /prompt is longer than 4000/],
      [{ ...base, schedule: '每'.repeat(201) }, /schedule is longer than 200/],
      [{ ...base, name: '  ' }, /^name is required$/],
      [{ ...base, missed: 'never' }, /missed must be skip or late/],
      [{ ...base, monthlyBudget: -1 }, /monthlyBudget must be 0 or more/],
      [{ ...base, extra: 1 }, /extra|Unrecognized/i],
      [{ prompt: 'x', schedule: '0 8 * * *', target: { groupId: '1' } }, /^name is required$/],
      [[1], /JSON object/]
    ]
    for (const [body, msg] of cases) {
      const r = await api('', 'POST', body)
      expect(r.status, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`).to.equal(400)
      expect(r.body.code).to.equal(-1)
      expect(r.body.message).to.match(msg)
    }
    expect(svc().list()).to.deep.equal([])
    for (const [path, method] of [['/x', 'GET'], ['/t12345x', 'DELETE'], ['/..%2Fx/run', 'POST'], ['/T00000/pause', 'POST']] as const) {
      const r = await api(path, method)
      expect(r.status, path).to.equal(400)
      expect(r.body.message).to.equal('id must look like t0a1b2')
    }
    for (const [path, method] of [['/tzzzzz', 'GET'], ['/tzzzzz', 'DELETE'], ['/tzzzzz/run', 'POST'], ['/tzzzzz/runs', 'GET'], ['/tzzzzz/resume', 'POST']] as const) {
      const r = await api(path, method)
      expect(r.status, path).to.equal(404)
      expect(r.body).to.deep.equal({ code: -1, data: null, message: 'No task tzzzzz' })
    }
    expect((await api('/tzzzzz', 'PUT', base)).status).to.equal(404)
    expect((await fetch(`${s.base}/api/tasks`)).status).to.equal(401)
  })

  it('a known tool, preset and channel are taken; GET /:id, PUT and DELETE', async () => {
    const tool = s.lx.rt.need('tools').registry.list({ includeDisabled: true })[0]!.name
    const preset = s.lx.rt.need('presets').list()[0]!.id
    const t = await create({ ...base, tools: [tool, tool], presetId: preset, channel: 'fake', model: 'gpt-task' })
    expect(t).to.deep.include({ tools: [tool], presetId: preset, channel: 'fake', model: 'gpt-task' })
    const got = await api(`/${t.id}`)
    expect(got.status, got.text).to.equal(200)
    expect(got.body.data).to.deep.include({ id: t.id, runs: [] })
    const put = await api(`/${t.id}`, 'PUT', { ...base, name: 'Evening news', schedule: '每天晚上9点', target: { userId: '20001' } })
    expect(put.status, put.text).to.equal(200)
    expect(put.body.data).to.deep.include({ id: t.id, name: 'Evening news', scheduleText: '每天晚上9点', target: { userId: '20001' }, tools: [] })
    expect(put.body.data.next).to.match(/ 21:00$/)
    expect((await api(`/${t.id}`, 'PUT', { ...base, schedule: 'soon-ish' })).status).to.equal(400)
    expect(svc().get(t.id)?.name, 'a refused change changes nothing').to.equal('Evening news')
    const del = await api(`/${t.id}`, 'DELETE')
    expect(del.body).to.deep.equal({ code: 0, data: { success: true }, message: 'ok' })
    expect((await api(`/${t.id}`)).status).to.equal(404)
  })

  it('pause removes the next time, resume sets it again from now', async () => {
    const t = await create(base)
    expect(t.nextAt).to.be.a('number')
    const paused = await api(`/${t.id}/pause`, 'POST')
    expect(paused.status, paused.text).to.equal(200)
    expect(paused.body.data).to.include({ paused: 'manual', next: null })
    expect(paused.body.data.nextAt).to.equal(undefined)
    expect((await api('/upcoming')).body.data, 'a paused task has no next times').to.deep.equal([])
    const resumed = await api(`/${t.id}/resume`, 'POST')
    expect(resumed.body.data.paused).to.equal(undefined)
    expect(resumed.body.data.nextAt).to.equal(t.nextAt)
    expect(svc().get(t.id)?.nextAt).to.equal(t.nextAt)
  })

  it('run now: the model\'s answer is sent and recorded with tokens and a cost; the runs, upcoming and spent', async () => {
    const sent: Array<[string, unknown]> = []
    const saved = g.Bot
    g.Bot = { uin: 42, pickGroup: (gid: unknown) => ({ sendMsg: async (msg: unknown) => { sent.push([String(gid), msg]); return { message_id: 1 } } }) }
    try {
      const t = await create(base)
      fake.enqueue({ content: '1. X 发布新版\n2. X 融资\n3. X 开会', usage: { prompt_tokens: 1000, completion_tokens: 500 } })
      const r = await api(`/${t.id}/run`, 'POST')
      expect(r.status, r.text).to.equal(200)
      const run = r.body.data
      expect(run).to.deep.include({ taskId: t.id, status: 'ok', trigger: 'manual', delivered: true, answer: '1. X 发布新版\n2. X 融资\n3. X 开会', model: 'gpt-task' })
      expect(run.tokens).to.deep.equal({ input: 1000, output: 500, cached: 0 })
      // 1000 × 2 + 500 × 8 per million
      expect(run.cost).to.be.closeTo(0.006, 1e-9)
      expect(JSON.stringify(fake.chatRequests().at(-1)?.body.messages)).to.include('搜索关于X的新闻并用三行总结')
      expect(JSON.stringify(sent)).to.include('X 融资')
      expect(sent.every(([gid]) => gid === '555')).to.equal(true)
      fake.enqueue({ status: 400, errorMessage: 'upstream refuses' })
      const failed = (await api(`/${t.id}/run`, 'POST')).body.data
      expect(failed.status).to.equal('failed')
      expect(failed.error).to.be.a('string').and.not.equal('')
      const runs = await api(`/${t.id}/runs`)
      expect(runs.body.data.map((x: any) => x.status)).to.deep.equal(['failed', 'ok'])
      const page = await api(`/${t.id}/runs?limit=1&offset=1`)
      expect(page.body).to.deep.include({ total: 2, limit: 1, offset: 1 })
      expect(page.body.data.map((x: any) => x.id)).to.deep.equal([run.id])
      const got = (await api(`/${t.id}?limit=1`)).body.data
      expect(got.runs.map((x: any) => x.id)).to.deep.equal([failed.id])
      expect(got.lastRun).to.deep.include({ id: failed.id, status: 'failed' })
      expect(got.spentThisMonth).to.be.closeTo(0.006, 1e-9)
      expect(got).to.include({ runs: got.runs }).and.not.have.property('failures', 0)
      const spent = (await api('/spent')).body.data
      expect(spent).to.deep.include({ budget: 0, currency: 'CNY' })
      expect(spent.spent).to.be.closeTo(0.006, 1e-9)
      expect(spent.month).to.match(/^\d{4}-\d\d$/)
      const up = (await api('/upcoming?days=3')).body.data
      expect(up.length).to.be.within(2, 4)
      expect(up[0]).to.include({ taskId: t.id, name: 'Morning news', at: t.nextAt })
      expect(up.every((u: any) => / 08:00$/.test(u.next))).to.equal(true)
      expect((await api('/upcoming?days=x')).status, 'an invalid number becomes the default').to.equal(200)
    } finally { g.Bot = saved }
  })

  it('without the host a run is recorded as failed, naming why', async () => {
    const saved = g.Bot
    delete g.Bot
    try {
      const t = await create(base)
      const run = (await api(`/${t.id}/run`, 'POST')).body.data
      expect(run).to.include({ status: 'failed', delivered: false })
      expect(run.error).to.include('no account')
    } finally { g.Bot = saved }
  })

  it('the OpenAPI document has every task route, and the GET answers fit it', async () => {
    const t = await create({ ...base, schedule: '每天早上8点' })
    fake.enqueue({ content: 'done' })
    const saved = g.Bot
    g.Bot = { uin: 42, pickGroup: () => ({ sendMsg: async () => ({ message_id: 1 }) }) }
    try { await api(`/${t.id}/run`, 'POST') } finally { g.Bot = saved }
    const doc = await (await fetch(`${s.base}/api/openapi.json`)).json() as OpenApiDocument
    const ops = Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/tasks')).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
    expect(ops.sort()).to.deep.equal([
      'DELETE /api/tasks/{id}', 'GET /api/tasks', 'GET /api/tasks/spent', 'GET /api/tasks/upcoming', 'GET /api/tasks/{id}', 'GET /api/tasks/{id}/runs',
      'POST /api/tasks', 'POST /api/tasks/{id}/pause', 'POST /api/tasks/{id}/resume', 'POST /api/tasks/{id}/run', 'PUT /api/tasks/{id}'
    ])
    const check = answerChecker(doc)
    const failures: string[] = []
    for (const [path, url] of [['/api/tasks', '/api/tasks'], ['/api/tasks', '/api/tasks?limit=5'], ['/api/tasks/upcoming', '/api/tasks/upcoming'], ['/api/tasks/spent', '/api/tasks/spent'],
      ['/api/tasks/{id}', `/api/tasks/${t.id}`], ['/api/tasks/{id}/runs', `/api/tasks/${t.id}/runs`]] as const) {
      const r = await s.api(url)
      expect(r.status, url).to.equal(200)
      failures.push(...check(doc.paths[path]!.get as Operation, `GET ${url}`, r))
    }
    const made = await api('', 'POST', { ...base, name: 'Checked' })
    failures.push(...check(doc.paths['/api/tasks']!.post as Operation, 'POST /api/tasks', made))
    expect(failures, failures.join('\n')).to.deep.equal([])
    const broken = (await s.api(`/api/tasks/${t.id}`)).body
    broken.data.schedule = { kind: 'weekly' }
    expect(check(doc.paths['/api/tasks/{id}']!.get as Operation, 'GET (altered)', { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: broken, text: '' })).to.have.length(1)
  })

  it('answers 503 naming why when the tasks service is absent', async () => {
    const rt = s.lx.rt as unknown as { optional: (name: string) => unknown }
    const real = rt.optional
    rt.optional = (name: string) => name === 'tasks' ? undefined : real.call(s.lx.rt, name)
    try {
      const r = await api('')
      expect(r.status).to.equal(503)
      expect(r.body.message).to.match(/Scheduled tasks are not running/)
    } finally { rt.optional = real }
  })
})
