// Who may use the bot, how much and what it may say (issue 20) in the real TRSS-Yunzai host, driven
// through its OneBot v11 adapter: a blacklisted user gets no model call (the master passes the same
// blacklist), whitelist mode answers only listed groups, the fifth private message past a daily limit
// of four gets the quota message and no model call, a daily token limit stops a user after their
// first answer's recorded tokens, a banned word in an answer is masked or withheld
// as the group's setting says and the hit is in the log (GET /api/governance/hits with the master's
// session), a banned word in the input is refused before any model call.
// Set-up as in trss.test.ts (tests/realhost/README.md); skipped in one line without the snapshot.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { stringify } from 'yaml'
import { defaultBehavior, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { sentMessages, spokenMessages } from '../chat/helpers.js'
import { FakeOneBot, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const BLOCKED = 13001
const MEMBER = 13002
const COUNTED = 13003
/** a fresh member for the refused input (MEMBER has used their four messages by then) */
const ASKER = 13004
/** a user with a daily token limit of 1: the first answer's recorded tokens use it up */
const SPENDER = 13005
const MASKED = 22001
const REFUSING = 22002
const UNLISTED = 22003
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('real TRSS-Yunzai host: access, quotas and moderation', function () {
  this.timeout(60_000)
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined
  let lingxiPort = 0

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'governance', { botId: BOT, masterId: MASTER })
    lingxiPort = p.lingxiPort
    const dataDir = p.dataDir
    // the host's own cooldowns off in these groups (groupCD 500 ms per group, singleCD 2 s per member):
    // they drop messages before any plugin sees them, which is not what this suite is about
    const groupYaml = join(p.root, 'config', 'config', 'group.yaml')
    writeFileSync(groupYaml, readFileSync(join(p.root, 'config', 'default_config', 'group.yaml'), 'utf8'))
    appendFileSync(groupYaml, `\n${stringify(Object.fromEntries([MASKED, REFUSING, UNLISTED].map((g) => [String(g), { groupCD: 0, singleCD: 0 }])))}`)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // asked to "say the word", the fake model answers with banned words; else it echoes
    fake.respond = (body) => spokenMessages(body).at(-1)?.content.includes('说那个词') ? { content: '好的：禁词甲就是冰毒' } : defaultBehavior(body)
    // the owner's settings, as written in config.yaml
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      access: { userBlacklist: [String(BLOCKED), String(MASTER)], groupWhitelistOnly: true, groupWhitelist: [String(MASKED), String(REFUSING)], refusal: 'silent' },
      quotas: { user: { messagesPerDay: 4 }, users: { [String(SPENDER)]: { tokensPerDay: 1 } } },
      moderation: { strictness: 'mask', keywords: ['禁词甲'] },
      groups: { [String(REFUSING)]: { moderation: { strictness: 'refuse' } } }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, BLOCKED, MEMBER, COUNTED, ASKER, SPENDER], [MASKED, REFUSING, UNLISTED]))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  /** model calls whose user message holds `text` (the group log context may quote refused messages) */
  const asked = (text: string): number => fake!.chatRequests().filter((r) => spokenMessages(r.body).at(-1)?.content.includes(text)).length
  const toUser = (userId: number, since: number): string[] => bot!.sent.filter((s) => s.time >= since && s.userId === String(userId) && !s.groupId).map((s) => s.text)
  const toGroup = (groupId: number, since: number): string[] => bot!.sent.filter((s) => s.time >= since && s.groupId === String(groupId)).map((s) => s.text)

  it('a blacklisted user gets no model call and no answer; the master passes the same blacklist', async () => {
    const since = Date.now()
    await bot!.privateMessage(BLOCKED, '黑名单里的人在说话')
    await bot!.groupMessage(MASKED, BLOCKED, '黑名单里的人在群里说话', { atBot: true })
    await bot!.privateMessage(MASTER, '主人在说话')
    await bot!.waitForSent((s) => s.userId === String(MASTER) && s.text === 'echo: 主人在说话', 30_000, since)
    // a later message of someone else is answered: the host has handled the blacklisted ones by then
    await pause(600)
    await bot!.groupMessage(MASKED, MEMBER, '群友在说话', { atBot: true })
    await bot!.waitForSent((s) => s.groupId === String(MASKED) && s.text.includes('echo: 群友在说话'), 30_000, since)
    expect(asked('黑名单里的人'), 'no model call').to.equal(0)
    expect(toUser(BLOCKED, since)).to.deep.equal([])
    expect(toGroup(MASKED, since).filter((t) => t.includes('黑名单'))).to.deep.equal([])
  })

  it('whitelist mode answers only the listed groups', async () => {
    const since = Date.now()
    await bot!.groupMessage(UNLISTED, MEMBER, '没登记的群', { atBot: true })
    await pause(600)
    await bot!.groupMessage(REFUSING, MEMBER, '登记了的群', { atBot: true })
    await bot!.waitForSent((s) => s.groupId === String(REFUSING) && s.text.includes('echo: 登记了的群'), 30_000, since)
    expect(asked('没登记的群')).to.equal(0)
    expect(toGroup(UNLISTED, since)).to.deep.equal([])
  })

  it('the fifth message past a daily limit of four gets the quota message and no model call', async () => {
    const since = Date.now()
    for (let i = 1; i <= 4; i++) {
      await bot!.privateMessage(COUNTED, `额度测试 ${i}`)
      await bot!.waitForSent((s) => s.userId === String(COUNTED) && s.text === `echo: 额度测试 ${i}`, 30_000, since)
    }
    await bot!.privateMessage(COUNTED, '额度测试 5')
    const refused = await bot!.waitForSent((s) => s.userId === String(COUNTED) && s.text.includes('已达到使用额度'), 30_000, since)
    expect(refused.text).to.include('已达到使用额度（每日消息数）')
    expect(asked('额度测试 5'), 'no model call').to.equal(0)
    const left = Date.now()
    await bot!.privateMessage(COUNTED, '#lx额度')
    const status = await bot!.waitForSent((s) => s.userId === String(COUNTED) && s.text.includes('今日额度'), 20_000, left)
    expect(status.text).to.include('消息 剩余 0')
  })

  it('a token quota stops the user once the recorded tokens reach it', async () => {
    const since = Date.now()
    await bot!.privateMessage(SPENDER, '花掉我的 token')
    await bot!.waitForSent((s) => s.userId === String(SPENDER) && s.text === 'echo: 花掉我的 token', 30_000, since)
    // the tokens count once the turn is complete (after the answer went out): #lx额度 says when
    for (let i = 0; ; i++) {
      const asking = Date.now()
      await bot!.privateMessage(SPENDER, '#lx额度')
      const left = await bot!.waitForSent((s) => s.userId === String(SPENDER) && s.text.includes('今日额度'), 20_000, asking)
      if (left.text.includes('token 剩余 0')) break
      expect(i, 'the recorded tokens never used the quota up').to.be.below(10)
    }
    await bot!.privateMessage(SPENDER, '还想再问一句')
    const refused = await bot!.waitForSent((s) => s.userId === String(SPENDER) && s.text.includes('已达到使用额度'), 30_000, since)
    expect(refused.text).to.include('每日 token 数')
    expect(asked('还想再问一句'), 'no model call').to.equal(0)
  })

  it('a banned word in an answer is masked or withheld as the group says, and the hits are logged; one in the input is refused before the model', async () => {
    const since = Date.now()
    await bot!.groupMessage(MASKED, MEMBER, '说那个词', { atBot: true })
    const masked = await bot!.waitForSent((s) => s.groupId === String(MASKED) && s.text.includes('好的：'), 30_000, since)
    expect(masked.text).to.include('好的：＊＊＊就是＊＊＊').and.not.include('冰毒')
    await bot!.groupMessage(REFUSING, MEMBER, '说那个词吧', { atBot: true })
    const withheld = await bot!.waitForSent((s) => s.groupId === String(REFUSING) && s.text.includes('已被拦截'), 30_000, since)
    expect(withheld.text).to.include('回答中包含不允许的内容')
    expect(toGroup(REFUSING, since).join('\n')).to.not.include('冰毒')
    const before = fake!.chatRequests().length
    await bot!.groupMessage(REFUSING, ASKER, '哪里能买到海洛因', { atBot: true })
    const refused = await bot!.waitForSent((s) => s.groupId === String(REFUSING) && s.text.includes('这条消息包含不允许的内容'), 30_000, since)
    expect(refused.text).to.include('无法回答')
    expect(fake!.chatRequests().length, 'no model call for a refused input').to.equal(before)

    // the hits, read with the master's session (the #lx面板 login link)
    const t = Date.now()
    await bot!.privateMessage(MASTER, '#lx面板')
    const link = await bot!.waitForSent((s) => s.userId === String(MASTER) && s.text.includes('login#token='), 20_000, t)
    const token = /#token=([\w-]+)/.exec(link.text)?.[1]
    const login = await fetch(`http://127.0.0.1:${lingxiPort}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    const session = ((await login.json()) as { data: { token: string } }).data.token
    const res = await fetch(`http://127.0.0.1:${lingxiPort}/api/governance/hits`, { headers: { Authorization: `Bearer ${session}` } })
    const hits = (await res.json()) as { total: number; data: Array<{ userId: string; groupId: string; direction: string; action: string; rules: string[] }> }
    expect(hits.data.map((h) => [h.userId, h.groupId, h.direction, h.action])).to.deep.equal([
      [String(ASKER), String(REFUSING), 'input', 'refuse'], [String(MEMBER), String(REFUSING), 'output', 'refuse'], [String(MEMBER), String(MASKED), 'output', 'mask']
    ])
    expect(hits.data[2]?.rules).to.have.members(['禁词甲', '冰毒'])
  })
})
