// Streamed answers (README "Streamed answers", lib/delivery/stream.ts) in the real TRSS-Yunzai host,
// driven through its OneBot v11 adapter: the fake model writes one sentence every 1.5 s, and the pieces
// of a private answer reach the OneBot side one by one while the model still writes; a group (stream
// `private` by default) gets the answer as one message. Set-up as in trss.test.ts (tests/realhost/README.md).
import { expect } from 'chai'
import { SENTENCES, startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { FakeOneBot, type Sent, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const MEMBER = 10003
const GROUP = 21011
const STEP_MS = 1500
const CHUNKS = [SENTENCES[0]!, `${SENTENCES[1]!}\n\n`, SENTENCES[2]!, `${SENTENCES[3]!}\n\n`, SENTENCES[4]!]

describe('real TRSS-Yunzai host: streamed answers', function () {
  this.timeout(60_000)
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'stream', { botId: BOT, masterId: MASTER })
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    fake.respond = (body) => {
      const last = JSON.stringify(body?.messages?.at(-1)?.content ?? '')
      if (last.includes('STREAM')) return { chunks: CHUNKS, chunkDelayMs: STEP_MS }
      return defaultBehavior(body)
    }
    writePluginConfig(p.dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false },
      delivery: { quote: false, atSender: false } // stream: private, the default
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, FRIEND, MEMBER], [GROUP]))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  /** The chat requests answering STREAM questions, newest last. */
  const streamRequests = (): NonNullable<FakeOpenAI>['requests'] =>
    fake!.chatRequests().filter((r) => JSON.stringify(r.body?.messages?.at(-1)?.content ?? '').includes('STREAM'))

  it('a private answer reaches the OneBot side in pieces, the first while the model still writes', async () => {
    const since = Date.now()
    const toFriend = (s: Sent): boolean => s.userId === String(FRIEND)
    await bot!.privateMessage(FRIEND, 'STREAM 分段说')
    const first = await bot!.waitForSent(toFriend, 30_000, since)
    const req = streamRequests().at(-1)
    expect(req, 'the model was asked').to.not.equal(undefined)
    expect(req?.ended, 'the model was still writing when the first piece arrived').to.not.equal(true)
    expect(first.text).to.equal(SENTENCES[0])
    // the model ends after 5 chunks (7.5 s); then the last piece follows
    const end = Date.now() + 30_000
    while (!(req?.ended && bot!.sent.filter((s) => s.time >= since && toFriend(s)).length >= 3) && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const all = bot!.sent.filter((s) => s.time >= since && toFriend(s))
    expect(all.map((s) => s.text)).to.deep.equal([SENTENCES[0], SENTENCES[1], `${SENTENCES[2]}${SENTENCES[3]}`, SENTENCES[4]])
    expect(all.every((s) => /^send_(private_)?msg$/.test(s.action)), all.map((s) => s.action).join(', ')).to.equal(true)
    // the pieces came apart in time, as the model wrote them
    expect(all[1]!.time - all[0]!.time).to.be.at.least(STEP_MS - 500)
  })

  it('in a group (stream private by default) the answer is one message after the model finished', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP, MEMBER, ' STREAM 群里', { atBot: true })
    const first = await bot!.waitForSent((s) => s.groupId === String(GROUP), 30_000, since)
    expect(streamRequests().at(-1)?.ended).to.equal(true)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const all = bot!.sent.filter((s) => s.time >= since && s.groupId === String(GROUP))
    expect(all).to.have.length(1)
    expect(first.text).to.include(SENTENCES[0]).and.include(SENTENCES[4])
  })
})
