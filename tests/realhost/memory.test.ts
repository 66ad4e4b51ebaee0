// Memories users can trust in the real TRSS-Yunzai host (README "Memory"), driven through its OneBot v11
// adapter with the fake model: a friend's private chat, then the background extraction round (every
// minute, the shortest interval) whose scripted answer has a stated and an inferred fact (the inferred one below
// memory.reviewBelow); the question about the guess arrives as a private send (memory.askUser, the host's
// friend list); `#lx我的记忆` says "你说过…" and "我推测…【待确认】"; the pending guess is not in the next
// prompt; `#lx记忆确认 <id>` confirms it and the next chat's model request carries it.
// Set-up as in trss.test.ts (tests/realhost/README.md).
import { expect } from 'chai'
import { sentMessages } from '../chat/helpers.js'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { FakeOneBot, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const EXTRACT = 'Extract long-term facts'
const STATED = '住在杭州'
const INFERRED = '工作压力可能很大'

describe('real TRSS-Yunzai host: memories (provenance, pending, confirm)', function () {
  this.timeout(180_000)
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'memory', { botId: BOT, masterId: MASTER })
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // the first extraction round learns a stated and an inferred fact; later rounds nothing new
    let rounds = 0
    fake.respond = (body) => {
      if (!JSON.stringify(body?.messages ?? '').includes(EXTRACT)) return defaultBehavior(body)
      return { content: rounds++ > 0 ? '[]' : JSON.stringify([
        { content: STATED, category: 'profile', confidence: 0.95, kind: 'stated' },
        { content: INFERRED, category: 'custom', confidence: 0.5, kind: 'inferred' }
      ]) }
    }
    writePluginConfig(p.dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { pollIntervalMinutes: 1, reviewBelow: 0.7, askUser: true },
      delivery: { quote: false, atSender: false, stream: 'off' }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, FRIEND], []))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  /** The friend says `text`; resolves with the bot's first private message to them after it. */
  async function say (text: string, match: (t: string) => boolean = () => true, timeoutMs = 30_000): Promise<string> {
    const since = Date.now()
    await bot!.privateMessage(FRIEND, text)
    return (await bot!.waitForSent((s) => s.userId === String(FRIEND) && match(s.text), timeoutMs, since)).text
  }
  /** What the model was given with the last chat request (system prompt and messages: where memories go is
   * the prompt's business; the users' own texts here never contain the memories' wording). */
  const memoryInPrompt = (): string => {
    const req = fake!.chatRequests().filter((r) => !JSON.stringify(r.body).includes(EXTRACT)).at(-1)
    return sentMessages(req?.body).map((m) => m.content).join('\n')
  }

  it('a private chat\'s extraction: the guess asked in private, listed as pending, unused until #lx记忆确认, then in the next prompt', async () => {
    const since = Date.now()
    await say('我在杭州做程序员，每天都加班到很晚')
    // the round runs on its own timer (within a minute); its question is sent once the memories are saved
    const question = (await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('我推测了这些'), 90_000, since)).text
    const id = Number(new RegExp(`#(\\d+) ${INFERRED}`).exec(question)?.[1])
    expect(id, question).to.be.greaterThan(0)
    expect(question).to.include(`#lx记忆确认 ${id}`).and.not.include(STATED)
    expect(bot!.sent.filter((s) => s.groupId !== undefined), 'nothing in a group').to.have.length(0)

    const list = await say('#lx我的记忆', (t) => t.includes('我记得'))
    expect(list).to.match(new RegExp(`#\\d+ 你说过：${STATED}`))
    expect(list).to.include(`#${id} 我推测：${INFERRED}`).and.include('【待确认】')

    // each wait is for the very answer (the fake model echoes): another private message (a late reply, a
    // question of the asker) must not stand in for it
    await say('今天又加班了，压力好大', (t) => t.includes('echo: 今天又加班了'))
    expect(memoryInPrompt()).to.include(STATED).and.not.include(INFERRED)

    expect(await say(`#lx记忆确认 ${id}`, (t) => t.includes(`第 ${id} 条记忆`))).to.include('已确认')
    await say('压力好大怎么办', (t) => t.includes('echo: 压力好大怎么办'))
    expect(memoryInPrompt()).to.include(INFERRED).and.include(STATED)
  })
})
