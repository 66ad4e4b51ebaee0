// Openers after silence through the standalone host: group messages, the fake model, and the runtime
// clock on sinon fake timers (setTimeout and Date, installed before the plugin starts so its check timer
// is a fake one). Times are wall-clock times in Asia/Shanghai (reminders.timezone), a zone without DST.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { spokenMessages } from '../chat/helpers.js'
import type { InitiativeSettings } from '../../lib/config/schema.js'
import { CHECK_MS } from '../../lib/initiative/service.js'

const PROMPT = '群里已经冷场一阵子了'
const MIN = 60_000
const HOUR = 60 * MIN
/** An instant given as a wall-clock time in Asia/Shanghai (UTC+8 all year). */
const at = (day: number, hour: number, minute = 0): number => Date.UTC(2027, 0, day, hour - 8, minute)

describe('openers after silence (standalone host, fake clock)', function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let clock: sinon.SinonFakeTimers
  let day = 9

  before(async () => {
    clock = sinon.useFakeTimers({ now: at(day, 8), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('trss', 'lingxi-initiative-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }], reminders: { timezone: 'Asia/Shanghai' } })
  })
  after(async () => {
    clock?.restore()
    await p?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    fake.reset()
    let k = 0
    fake.respond = () => ({ content: `最近大家在忙什么呀 ${++k}` })
    // each test on a day of its own (time only goes forward), starting at 08:00 there
    clock.setSystemTime(at(++day, 8))
    await p.run.rt.config.update({ initiative: { enabled: false }, groups: retired as never })
  })
  // the stubs' own sandbox: sinon.restore() would also undo the fake timers
  const stubs = sinon.createSandbox()
  /** each test's groups, turned off for the tests after it (whose days would otherwise open them again) */
  const used = new Set<string>()
  const retired: Record<string, unknown> = {}
  afterEach(() => {
    stubs.restore()
    for (const id of used) retired[id] = { initiative: { enabled: false } }
  })

  const svc = () => p.run.rt.need('initiative')
  const settings = async (over: Partial<InitiativeSettings> = {}, groups: Record<string, unknown> = {}): Promise<void> => {
    await p.run.rt.config.update({
      initiative: { enabled: true, quietHours: 3, hours: '09:00-22:00', dailyCap: 1, cooldownHours: 0, answerWindowMinutes: 60, ...over },
      groups: { ...retired, ...groups } as never
    })
  }
  /** Model calls made for openers. */
  const openerCalls = (): number => fake.chatRequests().filter((r) => spokenMessages(r.body).at(-1)?.content.startsWith(PROMPT)).length
  const botSays = (groupId: string): string[] => p.host.transcript.filter((t) => t.target === 'group' && t.targetId === groupId).map((t) => t.text)
  /** Moves the clock to `until`, check by check, each check's turns finished. */
  const advanceTo = async (until: number): Promise<void> => {
    while (Date.now() + CHECK_MS <= until) {
      await clock.tickAsync(CHECK_MS)
      await svc().idle()
    }
    if (Date.now() < until) await clock.tickAsync(until - Date.now())
    await svc().idle()
  }
  /** A member's message at the time `when` (the clock is moved there first). */
  const say = async (groupId: string, when: number, text = '今天好热啊', o: { at?: boolean, userId?: string } = {}): Promise<void> => {
    used.add(groupId)
    await advanceTo(when)
    await p.host.sendGroup(groupId, o.userId ?? '20001', text, o.at ? { at: true } : {})
    await p.run.rt.need('proactive').idle()
  }

  it('off by default: a group quiet all day gets no opener', async () => {
    expect(p.run.rt.config.get().initiative.enabled).to.equal(false)
    await say('800', at(day, 9))
    await advanceTo(at(day, 21))
    expect(openerCalls()).to.equal(0)
    expect(botSays('800')).to.deep.equal([])
  })

  it('opens after the quiet hours within the window: one model turn on the group log, the answer sent and logged', async () => {
    await settings()
    await say('801', at(day, 9), '周末去爬山的照片发一下')
    await advanceTo(at(day, 11, 55))
    expect(openerCalls(), 'not quiet for 3 hours yet').to.equal(0)
    await advanceTo(at(day, 12, 5))
    expect(openerCalls()).to.equal(1)
    expect(botSays('801')).to.deep.equal(['最近大家在忙什么呀 1'])
    const asked = spokenMessages(fake.chatRequests()[0]?.body).at(-1)?.content ?? ''
    expect(asked).to.include('周末去爬山的照片发一下')
    expect(fake.offeredTools(0), 'tools are off').to.deep.equal([])
    const last = p.run.rt.need('groupLog').recent('801', 1)[0]
    expect(last).to.include({ fromBot: true, text: '最近大家在忙什么呀 1' })
    expect(p.run.rt.need('conversations').store.history('group:801:initiative')).to.have.length(2)
    await advanceTo(at(day, 21, 55))
    expect(openerCalls(), 'the daily cap (1)').to.equal(1)
  })

  it('never at night: a quiet spell that ends at 02:00 waits for the window to open', async () => {
    await settings()
    await say('802', at(day, 21, 30))
    await advanceTo(at(day + 1, 8, 55))
    expect(openerCalls(), 'nothing through the night').to.equal(0)
    expect(botSays('802')).to.deep.equal([])
    await advanceTo(at(day + 1, 9, 5))
    expect(openerCalls(), 'at 09:00').to.equal(1)
    expect(botSays('802')).to.have.length(1)
    day++
  })

  it('a window past midnight ("20:00-02:00") opens at night and not in the day', async () => {
    await settings({ hours: '20:00-02:00' })
    await say('809', at(day, 9))
    await advanceTo(at(day, 19, 55))
    expect(openerCalls()).to.equal(0)
    await advanceTo(at(day, 20, 5))
    expect(openerCalls()).to.equal(1)
  })

  it('daily cap: answered openers, still one a day; the next day another', async () => {
    await settings({ quietHours: 1, dailyCap: 1 })
    await say('803', at(day, 9))
    await advanceTo(at(day, 10, 5))
    expect(openerCalls()).to.equal(1)
    await say('803', at(day, 10, 10), '在搬家')
    await advanceTo(at(day, 21, 55))
    expect(openerCalls(), 'the cap holds for the day').to.equal(1)
    await advanceTo(at(day + 1, 9, 5))
    expect(openerCalls(), 'a new local day').to.equal(2)
    day++
  })

  it('cooldown: at least cooldownHours between two openers', async () => {
    await settings({ quietHours: 1, dailyCap: 5, cooldownHours: 4 })
    await say('804', at(day, 9))
    await advanceTo(at(day, 10, 5))
    expect(openerCalls()).to.equal(1)
    await say('804', at(day, 10, 10), '在搬家')
    await advanceTo(at(day, 13, 55))
    expect(openerCalls(), 'quiet again since 11:10, but cooling down until 14:00').to.equal(1)
    await advanceTo(at(day, 14, 5))
    expect(openerCalls()).to.equal(2)
  })

  it('two unanswered openers stop it; a member talking to the bot, or the master, starts it again', async () => {
    await settings({ quietHours: 1, dailyCap: 10, answerWindowMinutes: 30 })
    await say('805', at(day, 9))
    await advanceTo(at(day, 11, 15))
    expect(openerCalls(), 'at 10:00 and 11:00, nobody answered').to.equal(2)
    await advanceTo(at(day, 15))
    expect(openerCalls(), 'stopped').to.equal(2)
    expect(svc().get('805')?.unanswered).to.equal(2)
    // a member talks to the bot: resumed
    await say('805', at(day, 15), '灵犀你在吗', { at: true })
    expect(svc().get('805')?.unanswered).to.equal(0)
    await advanceTo(at(day, 16, 5))
    expect(openerCalls(), 'an hour after the last message (the bot answered the member)').to.equal(3)
    await advanceTo(at(day, 20))
    expect(openerCalls(), 'stopped again after the next two unanswered').to.equal(4)
    // the master resumes it by command
    await p.host.sendGroup('805', MASTER, '#lx开场 状态')
    expect(botSays('805').at(-1)).to.match(/连续无人回应 2 次.*已停止/)
    await p.host.sendGroup('805', MASTER, '#lx开场 恢复')
    expect(botSays('805').at(-1)).to.equal('已恢复群 805 的冷场开话题。')
    await advanceTo(at(day, 20, 30))
    expect(openerCalls()).to.equal(5)
  })

  it('a member answering within the window keeps it going', async () => {
    await settings({ quietHours: 1, dailyCap: 10, answerWindowMinutes: 30 })
    await say('806', at(day, 9))
    for (let n = 1; n <= 4; n++) {
      while (openerCalls() < n && Date.now() < at(day, 21)) await advanceTo(Date.now() + CHECK_MS)
      expect(openerCalls()).to.equal(n)
      await say('806', Date.now() + 10 * MIN, `回应 ${n}`, { userId: '20002' })
    }
    expect(svc().get('806')?.unanswered).to.equal(0)
  })

  it('the account-risk guard pauses it while the group is guarded', async () => {
    await settings()
    const guard = p.run.rt.need('guard')
    let guarded = true
    stubs.stub(guard, 'pausesProactive').callsFake((g: string) => g === '807' && guarded)
    await say('807', at(day, 9))
    await advanceTo(at(day, 14))
    expect(openerCalls()).to.equal(0)
    guarded = false
    await advanceTo(at(day, 14, 5))
    expect(openerCalls()).to.equal(1)
  })

  it('[skip] sends nothing (and is not counted as an opener); a later spell may open', async () => {
    await settings({ quietHours: 1, dailyCap: 1 })
    fake.respond = () => ({ content: '[skip]' })
    await say('808', at(day, 9))
    await advanceTo(at(day, 10, 5))
    expect(openerCalls()).to.equal(1)
    expect(botSays('808')).to.deep.equal([])
    expect(svc().get('808')).to.include({ dayCount: 0, unanswered: 0 })
    fake.respond = () => ({ content: '有人看了昨晚的球赛吗' })
    await advanceTo(at(day, 10, 55))
    expect(openerCalls(), 'a skipped try waits one more quiet spell').to.equal(1)
    await advanceTo(at(day, 11, 10))
    expect(openerCalls()).to.equal(2)
    expect(botSays('808')).to.deep.equal(['有人看了昨晚的球赛吗'])
  })

  it('draws on the knowledge bases the group names: a few matching passages in the request', async () => {
    const kb = p.run.rt.need('knowledge')
    await kb.bases.create({ id: 'hiking', name: '徒步' })
    await kb.create({ title: '香山路线', content: '香山爬山路线：从东门上山，经过香炉峰，大约两个小时。周末人多，建议早上出发。', baseId: 'hiking' })
    await settings({}, { 813: { knowledge: ['hiking'] } })
    await say('813', at(day, 9), '周末有人去爬山吗')
    await advanceTo(at(day, 12, 5))
    expect(openerCalls()).to.equal(1)
    const asked = spokenMessages(fake.chatRequests().at(-1)?.body).at(-1)?.content ?? ''
    expect(asked).to.include('群资料里的几段内容')
    expect(asked).to.include('《香山路线》 香山爬山路线')
  })

  it('a master resumes a stopped group from a private chat; others cannot', async () => {
    await settings({ quietHours: 1, dailyCap: 10, answerWindowMinutes: 30 })
    await say('814', at(day, 9))
    await advanceTo(at(day, 12))
    expect(svc().get('814')?.unanswered).to.equal(2)
    const privately = (id: string): string[] => p.host.transcript.filter((t) => t.target === 'private' && t.targetId === id).map((t) => t.text)
    await p.host.sendGroup('814', '20001', '#lx开场 恢复')
    expect(svc().get('814')?.unanswered, 'not a master').to.equal(2)
    await p.host.sendPrivate(MASTER, '#lx开场 恢复 814')
    expect(privately(MASTER).at(-1)).to.equal('已恢复群 814 的冷场开话题。')
    expect(svc().get('814')?.unanswered).to.equal(0)
    await p.host.sendPrivate(MASTER, '#lx开场 状态')
    expect(privately(MASTER).at(-1)).to.include('用法')
  })

  it('groups.<id>.enabled false or groups.<id>.initiative.enabled false: never; a group may turn it on alone', async () => {
    await settings({}, { 810: { enabled: false }, 811: { initiative: { enabled: false } } })
    await say('810', at(day, 9))
    await say('811', at(day, 9))
    await advanceTo(at(day, 13))
    await p.run.rt.config.update({ initiative: { enabled: false }, groups: { ...retired, 812: { initiative: { enabled: true, quietHours: 1 } } } as never })
    await say('812', at(day, 13))
    await advanceTo(at(day, 14, 5))
    expect(botSays('810').concat(botSays('811'))).to.deep.equal([])
    expect(botSays('812')).to.have.length(1)
    expect(openerCalls()).to.equal(1)
  })
})
