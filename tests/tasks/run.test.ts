// A scheduled task's run through the real plugin in the standalone host with the fake model: a morning
// digest calls web_search (a fake SearXNG) and its three-line answer reaches the group once at 08:00 (sinon
// fake timers), with its tokens, cached tokens and cost recorded; only the task's tools are offered, and a
// tool the model names outside them is not run; a model failure is a failed run; a private task reaches
// the user privately; the group log holds the digest.
import { expect } from 'chai'
import sinon from 'sinon'
import type { Runtime } from '../../lib/runtime.js'
import type { TaskActor } from '../../lib/tasks/service.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startFakeProvider, type FakeProvider } from '../web-tools/fakes.js'
import { sentMessages } from '../chat/helpers.js'

const MASTER: TaskActor = { userId: '10001', isMaster: true, via: 'dashboard' }

/** Real-time wait (setImmediate is not faked) until `cond` holds. */
async function until (cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = performance.now() + ms
  while (!cond()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('tasks: a run through the plugin (standalone host, fake model, fake search)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let searx: FakeProvider
  let p: PluginHost
  let rt: Runtime
  let clock: sinon.SinonFakeTimers | undefined

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    searx = await startFakeProvider('searxng')
    p = await startPluginHost('trss', 'lingxi-tasks-run-')
    rt = p.run.rt
    await rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }],
      webTools: { search: { providers: [{ name: 'searx', type: 'searxng', baseUrl: searx.url }] } },
      reminders: { ...rt.config.get().reminders, timezone: 'Asia/Shanghai' },
      pricing: { currency: 'CNY', timezone: 'Asia/Shanghai', models: [{ model: 'gpt-test', input: 2, output: 8, cachedInput: 0.5 }] }
    })
  })
  afterEach(() => { clock?.restore(); clock = undefined; fake.reset() })
  after(async () => {
    await p?.stop()
    await fake?.close()
    await searx?.close()
  })

  it('a morning digest: at 08:00 the model searches, the group gets the three lines once, and the run records tokens, cached tokens and cost', async () => {
    clock = sinon.useFakeTimers({ now: Date.parse('2026-11-26T07:58:00+08:00'), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    const tasks = rt.need('tasks')
    const task = await tasks.create(MASTER, { name: '早报', prompt: '搜索今天关于灵犀的新闻，用三行总结', schedule: '每天早上8点', target: { groupId: '8801' }, tools: ['web_search'] })
    searx.results = [{ title: '灵犀发布新版本', url: 'https://example.com/a', snippet: '支持定时任务' }]
    fake.enqueue(
      { toolCalls: [{ name: 'web_search', arguments: { query: '灵犀 新闻' } }], usage: { prompt_tokens: 300, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 200 } } },
      { content: '1. 灵犀发布新版本\n2. 支持定时任务\n3. 更多见官网', usage: { prompt_tokens: 400, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 300 } } }
    )
    const since = p.host.transcript.length
    const inGroup = (): string[] => p.host.transcript.slice(since).filter((e) => e.targetId === '8801').map((e) => e.text)
    await clock.tickAsync(2 * 60_000 - 1000)
    await tasks.idle()
    expect(inGroup(), 'not before 08:00').to.deep.equal([])
    await clock.tickAsync(1000)
    await until(() => tasks.runsOf(task.id).length > 0, 'the run recorded')
    await tasks.idle()
    expect(inGroup()).to.have.length(1)
    expect(inGroup()[0]).to.include('灵犀发布新版本').and.include('支持定时任务')
    // the task's tools only; the search went to the provider
    expect(fake.offeredTools(0)).to.deep.equal(['web_search'])
    expect(new URL(searx.requests.at(-1)?.url ?? '', 'http://x').searchParams.get('q')).to.equal('灵犀 新闻')
    // the request says it is a scheduled task, with the prompt
    const asked = sentMessages(fake.chatRequests()[0]?.body).filter((m) => m.role === 'user').at(-1)?.content ?? ''
    expect(asked).to.include('定时任务「早报」').and.include('搜索今天关于灵犀的新闻')
    const run = tasks.runsOf(task.id)[0]
    expect(run).to.include({ status: 'ok', delivered: true, trigger: 'schedule', late: false, model: 'gpt-test' })
    expect(run?.tokens).to.deep.equal({ input: 700, output: 40, cached: 500 })
    expect(run?.tools).to.deep.equal(['web_search'])
    // (700 - 500) × 2 + 500 × 0.5 + 40 × 8, per million
    expect(run?.cost).to.be.closeTo((200 * 2 + 500 * 0.5 + 40 * 8) / 1e6, 1e-9)
    expect(rt.optional('groupLog')?.recent('8801', 5).some((e) => e.text.includes('灵犀发布新版本'))).to.equal(true)
    // the next morning, not again today
    expect(tasks.get(task.id)?.nextAt).to.equal(Date.parse('2026-11-27T08:00:00+08:00'))
    await tasks.remove(task.id, MASTER)
  })

  it('a tool the model names outside the task\'s list is not run; with no tools none are offered', async () => {
    const tasks = rt.need('tasks')
    const task = await tasks.create(MASTER, { name: '倒数', prompt: '告诉大家离新年还有几天', schedule: '0 9 * * *', target: { groupId: '8802' }, tools: ['web_search'] })
    fake.enqueue({ toolCalls: [{ name: 'fetch_url', arguments: { url: 'https://example.com/' } }] }, { content: '还有 30 天' })
    const run = await tasks.runNow(task.id, MASTER)
    expect(fake.offeredTools(0)).to.deep.equal(['web_search'])
    const toolAnswer = sentMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role === 'tool').at(-1)?.content ?? ''
    expect(toolAnswer).to.match(/fetch_url does not exist or is not available/)
    expect(run).to.include({ status: 'ok', trigger: 'manual', answer: '还有 30 天' })
    expect(run.tools).to.deep.equal(['fetch_url'])
    const plain = await tasks.create(MASTER, { name: '问候', prompt: '跟大家说早上好', schedule: '0 9 * * *', target: { groupId: '8802' } })
    fake.reset()
    fake.enqueue({ content: '早上好' })
    await tasks.runNow(plain.id, MASTER)
    expect(fake.chatRequests()[0]?.body.tools).to.equal(undefined)
    await tasks.remove(task.id, MASTER)
    await tasks.remove(plain.id, MASTER)
  })

  it('a weekly summary of the group log: the task reads the week\'s messages with get_group_history (the daily-summary skill\'s tool) and posts the summary there', async () => {
    const tasks = rt.need('tasks')
    for (const [user, text] of [['30001', '周六去爬山吧'], ['30002', '好，我带水'], ['30003', '周日下雨就改室内']] as const) {
      await p.host.sendGroup('8804', user, text)
    }
    const task = await tasks.create(MASTER, { name: '周报', prompt: '用 get_group_history 取本周的群聊记录，总结要点和待办', schedule: '每周日晚上8点', target: { groupId: '8804' }, tools: ['get_group_history'] })
    expect(task.schedule).to.deep.equal({ kind: 'recurrence', recurrence: { kind: 'weekly', weekday: 0, hour: 20, minute: 0 } })
    fake.reset()
    fake.enqueue({ toolCalls: [{ name: 'get_group_history', arguments: { sinceHours: 168, limit: 500 } }] }, { content: '**📌 要点**：周六爬山，周日下雨改室内\n**📝 待办**：- [ ] 带水' })
    const since = p.host.transcript.length
    const run = await tasks.runNow(task.id, MASTER)
    const history = sentMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role === 'tool').at(-1)?.content ?? ''
    expect(history).to.include('周六去爬山吧').and.include('好，我带水').and.include('周日下雨就改室内')
    expect(run).to.include({ status: 'ok', delivered: true })
    expect(p.host.transcript.slice(since).filter((e) => e.targetId === '8804').map((e) => e.text).join('\n')).to.include('周六爬山')
    await tasks.remove(task.id, MASTER)
  })

  it('in a group the account-risk guard is watching, a run is skipped (guarded) and nothing is asked or posted', async () => {
    const tasks = rt.need('tasks')
    const guard = rt.need('guard')
    // the guard's own state machine is tested in tests/guard; here only its answer matters
    const stub = sinon.stub(guard, 'pausesProactive').callsFake((g: string) => g === '8805')
    try {
      const task = await tasks.create(MASTER, { name: '受限', prompt: '说点什么', schedule: '0 9 * * *', target: { groupId: '8805' } })
      fake.reset()
      const since = p.host.transcript.length
      const run = await tasks.runNow(task.id, MASTER)
      expect(run).to.include({ status: 'skipped', skipReason: 'guarded' })
      expect(fake.chatRequests()).to.have.length(0)
      expect(p.host.transcript.slice(since).filter((e) => e.targetId === '8805')).to.deep.equal([])
      await tasks.remove(task.id, MASTER)
    } finally { stub.restore() }
  })

  it('a group whose daily token quota is spent (by the task\'s own runs too) skips the next run (quota)', async () => {
    const tasks = rt.need('tasks')
    await rt.config.update({ quotas: { ...rt.config.get().quotas, group: { ...rt.config.get().quotas.group, tokensPerDay: 50 } } })
    try {
      const task = await tasks.create(MASTER, { name: '配额', prompt: '说点什么', schedule: '0 9 * * *', target: { groupId: '8806' } })
      fake.reset()
      fake.enqueue({ content: '第一次', usage: { prompt_tokens: 40, completion_tokens: 20 } })
      expect(await tasks.runNow(task.id, MASTER)).to.include({ status: 'ok' })
      const second = await tasks.runNow(task.id, MASTER)
      expect(second).to.include({ status: 'skipped', skipReason: 'quota' })
      expect(fake.chatRequests()).to.have.length(1)
      await tasks.remove(task.id, MASTER)
    } finally {
      await rt.config.update({ quotas: { ...rt.config.get().quotas, group: { ...rt.config.get().quotas.group, tokensPerDay: 0 } } })
    }
  })

  it('a model failure is a failed run with the error in words, nothing posted; a private task reaches the user privately', async () => {
    const tasks = rt.need('tasks')
    const failing = await tasks.create(MASTER, { name: '坏任务', prompt: '说点什么', schedule: '0 9 * * *', target: { groupId: '8803' } })
    fake.enqueue({ status: 500, errorMessage: 'upstream down' })
    const since = p.host.transcript.length
    const run = await tasks.runNow(failing.id, MASTER)
    expect(run.status).to.equal('failed')
    expect(run.error).to.be.a('string').and.not.equal('')
    expect(p.host.transcript.slice(since).filter((e) => e.targetId === '8803')).to.deep.equal([])
    expect(tasks.get(failing.id)?.failures).to.equal(1)
    // two more failures in a row: the task pauses itself and the master is told privately, once
    fake.enqueue({ status: 500, errorMessage: 'upstream down' })
    await tasks.runNow(failing.id, MASTER)
    fake.enqueue({ status: 500, errorMessage: 'upstream down' })
    await tasks.runNow(failing.id, MASTER)
    expect(tasks.get(failing.id)).to.include({ paused: 'failures', failures: 3 })
    const told = p.host.transcript.slice(since).filter((e) => e.targetId === '10001' && e.text.includes('坏任务'))
    expect(told).to.have.length(1)
    expect(told[0]?.text).to.include('连续 3 次').and.include(failing.id)
    await tasks.remove(failing.id, MASTER)

    fake.reset()
    const mine = await tasks.create(MASTER, { name: '提醒我', prompt: '提醒我喝水，一句话', schedule: '0 9 * * *', target: { userId: '20077' } })
    fake.enqueue({ content: '记得喝水哦' })
    const ok = await tasks.runNow(mine.id, MASTER)
    expect(ok.status).to.equal('ok')
    expect(p.host.transcript.slice(since).filter((e) => e.targetId === '20077').map((e) => e.text)).to.deep.equal(['记得喝水哦'])
    await tasks.remove(mine.id, MASTER)
  })
})
