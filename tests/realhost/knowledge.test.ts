// The knowledge base in the real TRSS-Yunzai host (README "Knowledge base"), driven through its OneBot v11
// adapter: the master's login link, a PDF uploaded to POST /api/knowledge/files on the plugin's own port
// (multipart, bound to the default preset), processed to `ready`; then a friend's question in a private
// chat reaches the model with the PDF's passage and its source after the question, and the answer that
// cites it reaches the OneBot side. Set-up as in trss.test.ts (tests/realhost/README.md).
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sentMessages } from '../chat/helpers.js'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { splitUserContent } from '../support/user-text.js'
import { FakeOneBot, worldOf } from './support/onebot.js'
import { endHostSuite, masterSession, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const PDF = fileURLToPath(new URL('../fixtures/knowledge/safety.pdf', import.meta.url))
const PASSAGE = '消防演练在每年十月的第二个周五举行'
const SOURCE = '《安全管理制度》 › 第二章 消防安全 · 第 2 页'

describe('real TRSS-Yunzai host: a file in the knowledge base, cited in an answer', function () {
  this.timeout(60_000)
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'knowledge', { botId: BOT, masterId: MASTER })
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // the fake model cites the source it was given, as a model told to would
    fake.respond = (body) => {
      const last = JSON.stringify(body?.messages?.at(-1)?.content ?? '')
      if (last.includes(PASSAGE)) return { content: `根据《安全管理制度》第二章：${PASSAGE}。` }
      return defaultBehavior(body)
    }
    writePluginConfig(p.dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false },
      delivery: { quote: false, atSender: false, stream: 'off' }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, FRIEND], []))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  const own = (): string => `http://127.0.0.1:${p!.lingxiPort}`

  /** A session on the plugin's own port, from the master's `#lx面板` link. */
  const session = async (): Promise<string> => await masterSession(bot!, MASTER, own())

  it('a PDF uploaded over HTTP becomes ready; a friend\'s question gets its passage with the source, and the answer cites it', async () => {
    const auth = { Authorization: `Bearer ${await session()}` }
    const form = new FormData()
    form.append('presetId', 'default')
    form.append('file', new Blob([readFileSync(PDF)], { type: 'application/pdf' }), 'safety.pdf')
    const up = await fetch(`${own()}/api/knowledge/files`, { method: 'POST', headers: auth, body: form })
    expect(up.status, await up.clone().text()).to.equal(201)
    const [doc] = ((await up.json()) as { data: Array<{ id: string; status: string }> }).data
    expect(doc).to.not.equal(undefined)
    // processing happens in the background: the document says when it is done
    let status = doc!.status
    const end = Date.now() + 30_000
    while (status === 'processing' && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const got = await fetch(`${own()}/api/knowledge/${doc!.id}`, { headers: auth })
      status = ((await got.json()) as { data: { status: string; chunks: number } }).data.status
    }
    expect(status).to.equal('ready')

    const since = Date.now()
    await bot!.privateMessage(FRIEND, '消防演练是什么时候？')
    const answer = await bot!.waitForSent((s) => s.userId === String(FRIEND), 30_000, since)
    const body = fake!.chatRequests().at(-1)?.body
    const newest = sentMessages(body).filter((m) => m.role === 'user').at(-1)!.content
    const { tail } = splitUserContent(newest)
    expect(newest.indexOf('消防演练是什么时候')).to.be.below(newest.indexOf(PASSAGE))
    expect(tail).to.include(PASSAGE).and.include(SOURCE)
    expect(tail, 'a passage, not the whole file').to.not.include('电热毯')
    expect(answer.text).to.include('《安全管理制度》').and.include(PASSAGE)
  })
})
