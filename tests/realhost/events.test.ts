// Event reactions in the real TRSS-Yunzai host (issue 18 point 5), driven through its OneBot v11
// adapter as a protocol implementation pushes them: a poke (notify/poke), a new member
// (group_increase) and a recalled message (group_recall), each in a group whose probabilities are 1
// and in one whose are 0 (groups.<id>.events), with the fake model. The host's own example plugin
// also greets newcomers ("欢迎新人！"): the plugin's answers are told apart by the fake model's echo.
// Set-up as in trss.test.ts (tests/realhost/README.md); skipped in one line without the snapshot.
import { join } from 'node:path'
import { expect } from 'chai'
import { stringify } from 'yaml'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { sentMessages, spokenMessages } from '../chat/helpers.js'
import { FakeOneBot, type Sent, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import { groupLogged, pluginProblems, type HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const MEMBER = 12001
const NEWCOMER = 12002
/** writes the message that is recalled: no earlier event of theirs, so TRSS's per-user cooldown is not armed */
const AUTHOR = 12003
const ON = 21001
const OFF = 21002

describe('real TRSS-Yunzai host: reactions to pokes, new members and recalls', function () {
  this.timeout(60_000)
  let dataDir = ''
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'events', { botId: BOT, masterId: MASTER })
    dataDir = p.dataDir
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // the plugin's own settings, as a user writes them: every reaction on in one group, off in the other
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      tools: { eventProbability: 0 },
      groups: { [String(ON)]: { events: { poke: 1, join: 1, recall: 1 } }, [String(OFF)]: { events: { poke: 0, join: 0, recall: 0 } } }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, MEMBER, AUTHOR], [ON, OFF]))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  /** The plugin's answers in a group since `since` (the fake model echoes; the host's own greeting does not). */
  const reactions = (groupId: number, since: number): Sent[] => bot!.sent.filter((s) => s.time >= since && s.groupId === String(groupId) && s.text.startsWith('echo: '))
  const reactionIn = (groupId: number, since: number, text: string | RegExp): Promise<Sent> =>
    bot!.waitForSent((s) => s.groupId === String(groupId) && s.text.startsWith('echo: ') && (typeof text === 'string' ? s.text.includes(text) : text.test(s.text)), 30_000, since)

  it('a poke of the bot gets a reaction at probability 1 and none at 0', async () => {
    const since = Date.now()
    bot!.notice({ notice_type: 'notify', sub_type: 'poke', group_id: OFF, user_id: MEMBER, target_id: BOT })
    bot!.notice({ notice_type: 'notify', sub_type: 'poke', group_id: ON, user_id: MEMBER, target_id: BOT })
    const r = await reactionIn(ON, since, '戳了戳你')
    expect(r.text).to.match(/^echo: （.*戳了戳你）$/)
    expect(reactions(OFF, since), 'probability 0').to.deep.equal([])
  })

  it('a new member gets a welcome with their name at join=1, none at 0, and the bot joining none', async () => {
    const since = Date.now()
    bot!.notice({ notice_type: 'group_increase', sub_type: 'approve', group_id: OFF, user_id: NEWCOMER, operator_id: NEWCOMER })
    bot!.notice({ notice_type: 'group_increase', sub_type: 'invite', group_id: ON, user_id: BOT, operator_id: MEMBER })
    bot!.notice({ notice_type: 'group_increase', sub_type: 'approve', group_id: ON, user_id: NEWCOMER, operator_id: NEWCOMER })
    const r = await reactionIn(ON, since, '刚加入了群聊')
    // the notice names only the id: the name comes from the host's member info (get_group_member_info)
    expect(r.text).to.match(new RegExp(`^echo: （user${NEWCOMER}刚加入了群聊`))
    // welcomes only: a reaction of the poke test before may still arrive after `since` on a loaded machine
    const welcomes = reactions(ON, since).filter((x) => x.text.includes('刚加入了群聊'))
    expect(welcomes.map((x) => x.text), 'one welcome: not for the bot itself').to.have.length(1)
    expect(reactions(OFF, since), 'join=0').to.deep.equal([])
  })

  it('a recalled message gets a light remark at recall=1 that never holds the recalled text; none at 0', async () => {
    const secret = '真机里的秘密：周五晚上八点老地方集合'
    // TRSS arms its cooldowns on every group event, notices too (groupCD 500 ms per group, singleCD 2 s
    // per member), and drops messages while they run: the earlier notices must be 500 ms behind, and
    // the author is someone those notices were not about
    await new Promise((resolve) => setTimeout(resolve, 600))
    const since = Date.now()
    const onId = await bot!.groupMessage(ON, AUTHOR, secret)
    const offId = await bot!.groupMessage(OFF, AUTHOR, `${secret}！`)
    await groupLogged(dataDir, secret, host)
    bot!.notice({ notice_type: 'group_recall', group_id: OFF, user_id: AUTHOR, operator_id: AUTHOR, message_id: offId })
    bot!.notice({ notice_type: 'group_recall', group_id: ON, user_id: AUTHOR, operator_id: AUTHOR, message_id: onId })
    const r = await reactionIn(ON, since, '撤回了一条消息')
    expect(r.text).to.equal(`echo: （user${AUTHOR}撤回了一条消息）`)
    expect(r.text).to.not.include('老地方')
    // the model was never shown it: neither as the input nor in the group log context
    const request = fake!.chatRequests().find((q) => spokenMessages(q.body).at(-1)?.content.includes('撤回了一条消息'))
    expect(JSON.stringify(request?.body)).to.not.include('老地方')
    expect(reactions(OFF, since), 'recall=0').to.deep.equal([])
    expect(reactions(ON, since)).to.have.length(1)

    // recalled by someone else (an admin): both named, the operator as the host knows them
    const again = Date.now()
    bot!.notice({ notice_type: 'group_recall', group_id: ON, user_id: AUTHOR, operator_id: MEMBER, message_id: onId })
    const other = await reactionIn(ON, again, '的一条消息')
    expect(other.text).to.equal(`echo: （user${MEMBER}撤回了user${AUTHOR}的一条消息）`)
  })

  it("loads the two new handlers with no error or warning about the plugin in the host's log", () => {
    const bad = pluginProblems(host!.output())
    expect(bad, bad.join('\n')).to.deep.equal([])
  })

})
