// #lx任务 and #lx任务列表 through the standalone host with the real plugin and the fake model: the master makes
// a task in a group (from words and from a cron expression), it is listed, run now posts the model's answer
// into the group, pause, resume and delete; a member is refused; a group admin only with tasks.groupAdminsMay,
// and only for their own group.
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import type { Runtime } from '../../lib/runtime.js'

describe('tasks: the chat command (standalone host)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let rt: Runtime
  const G = '7100'
  const OTHER = '7200'
  const svc = () => rt.need('tasks')
  const last = (): string => p.host.transcript.at(-1)?.text ?? ''
  const inGroup = async (text: string, user = MASTER, role: 'member' | 'admin' | 'owner' = 'member', group = G): Promise<string> => {
    await p.host.sendGroup(group, user, text, { role })
    return last()
  }
  const setAdminsMay = async (on: boolean): Promise<void> => { await rt.config.update({ tasks: { ...rt.config.get().tasks, groupAdminsMay: on } }) }

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-tasks-cmd-')
    rt = p.run.rt
    await rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }],
      reminders: { ...rt.config.get().reminders, timezone: 'Asia/Shanghai' }
    })
  })
  afterEach(async () => {
    fake.reset()
    await setAdminsMay(false)
    for (const t of svc().list()) await svc().remove(t.id, { userId: MASTER, isMaster: true, via: 'chat' })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })

  it('the master makes a task in a group from words; it is listed; run now posts the answer there; pause, resume, delete', async () => {
    const made = await inGroup('#lx任务 每天早上8点 搜索关于X的新闻并用三行总结')
    const [task] = svc().list({ groupId: G })
    expect(task, made).to.not.equal(undefined)
    expect(task).to.deep.include({ prompt: '搜索关于X的新闻并用三行总结', target: { groupId: G }, scheduleText: '每天 早上8点', byMaster: true })
    expect(task!.createdBy).to.deep.equal({ userId: MASTER, via: 'chat' })
    expect(made).to.include(`已创建定时任务 [${task!.id}]`).and.include('每天 08:00').and.match(/下次运行 \d{4}-\d\d-\d\d 08:00/)

    expect(await inGroup('#lx任务列表')).to.include(`[${task!.id}] 搜索关于X的新闻并用三行总结：每天 08:00，下次`)

    fake.enqueue({ content: 'X 今日三件事：一、二、三' })
    const since = p.host.transcript.length
    await inGroup(`#lx任务 运行 ${task!.id}`)
    const posted = p.host.transcript.slice(since).filter((e) => e.targetId === G && e.text.includes('X 今日三件事'))
    expect(posted, JSON.stringify(p.host.transcript.slice(since).map((e) => e.text))).to.have.length(1)
    expect(JSON.stringify(fake.chatRequests().at(-1)?.body.messages)).to.include('搜索关于X的新闻并用三行总结')
    const [run] = svc().runsOf(task!.id)
    expect(run).to.deep.include({ status: 'ok', trigger: 'manual', delivered: true, answer: 'X 今日三件事：一、二、三' })
    expect(run!.tokens.input).to.be.greaterThan(0)

    fake.enqueue({ status: 400, errorMessage: 'the model refuses' })
    expect(await inGroup(`#lx任务 运行 ${task!.id}`)).to.match(new RegExp(`^任务 \\[${task!.id}\\] 运行失败：.+`))
    expect(svc().runsOf(task!.id).map((r) => r.status)).to.deep.equal(['failed', 'ok'])
    expect(await inGroup('#lx tasks'), 'the English alias').to.include(`[${task!.id}]`)

    expect(await inGroup(`#lx任务 暂停 ${task!.id}`)).to.include(`已暂停任务 [${task!.id}]`)
    expect(svc().get(task!.id)).to.include({ paused: 'manual' }).and.not.have.property('nextAt')
    expect(await inGroup('#lx任务列表')).to.include('已暂停')
    expect(await inGroup(`#lx任务 恢复 ${task!.id}`)).to.match(/已恢复任务 .*下次运行 \d{4}-\d\d-\d\d 08:00/)
    expect(svc().get(task!.id)?.nextAt).to.be.a('number')
    expect(await inGroup(`#lx任务 删除 ${task!.id}`)).to.include(`已删除任务 [${task!.id}]`)
    expect(svc().get(task!.id)).to.equal(undefined)
    expect(await inGroup(`#lx任务 删除 ${task!.id}`)).to.include(`没有编号为 ${task!.id} 的任务`)
    expect(await inGroup('#lx任务列表')).to.include('没有定时任务')
  })

  it('a cron form, a private task for the master, the list of all in a private chat, and the usage and schedule errors', async () => {
    expect(await inGroup('#lx任务 cron "0 9 * * 1" 总结本周群里聊了什么')).to.include('cron 0 9 * * 1')
    expect(await inGroup('#lx task every Monday 9:00 post the weekly summary'), 'the English alias').to.include('每周一 09:00')
    expect(svc().list({ groupId: G }).find((t) => t.prompt === 'post the weekly summary')?.scheduleText).to.equal('every Monday 9:00')
    await p.host.sendPrivate(MASTER, '#lx任务 明天下午3点 发一条天气预报')
    expect(last()).to.match(/已创建定时任务 \[t[0-9a-z]{5}\]：一次：\d{4}-\d\d-\d\d 15:00/)
    const mine = svc().list().find((t) => t.target.userId === MASTER)
    expect(mine).to.deep.include({ prompt: '发一条天气预报', target: { userId: MASTER } })
    await svc().create({ userId: MASTER, isMaster: true, via: 'dashboard' }, { name: 'For Alice', prompt: 'hi', schedule: '0 7 * * *', target: { userId: '20001' } })
    await p.host.sendPrivate(MASTER, '#lx任务列表')
    expect(last()).to.include('定时任务（4 个）').and.include(`（群 ${G}）`).and.include('For Alice：cron 0 7 * * *，下次').and.include('（私聊 20001）').and.not.include(`私聊 ${MASTER}`)
    expect(await inGroup('#lx任务列表'), 'a group lists only its own').to.include('定时任务（2 个）').and.not.include('天气预报')
    expect(await inGroup('#lx任务')).to.include('用法')
    expect(await inGroup('#lx任务 每天早上8点')).to.include('用法')
    // refused schedules are told in the chat's language (lib/i18n.ts tasks.err.*), never the parser's English
    expect(await inGroup('#lx任务 cron "* * * * *" 太频繁')).to.include('运行太频繁了').and.include('30 分钟').and.not.match(/[A-Za-z]{4,} [a-z]{3,}/)
    expect(await inGroup('#lx任务 cron "61 8 * * *" 坏的')).to.include('不是有效的 cron 表达式')
    expect(await inGroup('#lx任务 随便什么时候 做点事')).to.include('没看懂时间')
    expect(svc().list()).to.have.length(4)
  })

  it('a member is refused; a group admin only with tasks.groupAdminsMay, and only in their own group', async () => {
    const member = '64001'
    const admin = '64002'
    expect(await inGroup('#lx任务 每天早上8点 发早安', member)).to.include('只有主人可以管理定时任务')
    expect(await inGroup('#lx任务列表', member)).to.include('只有主人可以管理定时任务')
    expect(await inGroup('#lx任务 每天早上8点 发早安', admin, 'admin'), 'groupAdminsMay is off').to.include('只有主人可以管理定时任务')
    expect(await inGroup('#lx任务列表', admin, 'admin'), 'nor the list').to.include('只有主人可以管理定时任务')
    expect(svc().list()).to.deep.equal([])
    await setAdminsMay(true)
    expect(await inGroup('#lx任务列表', admin, 'admin')).to.include('没有定时任务')
    expect(await inGroup('#lx任务 每天早上8点 发早安', admin, 'admin')).to.include('已创建定时任务')
    const [own] = svc().list({ groupId: G })
    expect(own).to.deep.include({ byMaster: false, target: { groupId: G } })
    expect(await inGroup('#lx任务 每天早上8点 发早安', member), 'a member still not').to.include('只有主人可以管理定时任务')
    await inGroup('#lx任务 每天晚上9点 发晚安', MASTER, 'member', OTHER)
    const [theirs] = svc().list({ groupId: OTHER })
    expect(await inGroup(`#lx任务 暂停 ${theirs!.id}`, admin, 'admin'), 'not another group\'s task').to.include('只有主人可以管理定时任务')
    expect(svc().get(theirs!.id)?.paused).to.equal(undefined)
    expect(await inGroup(`#lx任务 暂停 ${own!.id}`, admin, 'admin')).to.include('已暂停任务')
    await p.host.sendPrivate(admin, '#lx任务列表')
    expect(last(), 'an admin in a private chat is no group\'s admin').to.include('只有主人可以管理定时任务')
  })
})
