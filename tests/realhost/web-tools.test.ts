// The web tools in the real TRSS-Yunzai host, driven through its OneBot v11 adapter: the plugin bundle
// with its web dependencies (undici, linkedom, Readability, ipaddr.js) loads in the host, a private
// message makes the fake model call web_search (a fake SearXNG on 127.0.0.1) and fetch_url (a page
// server), the model gets the results and the page's readable text, and the answer reaches QQ as a
// private message. (The refusal of non-public addresses: tests/web-tools.)
// Set-up as in trss.test.ts (tests/realhost/README.md); skipped in one line without the snapshot.
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { sentMessages } from '../chat/helpers.js'
import { startFakeProvider, startPageServer, type FakeProvider, type PageServer } from '../web-tools/fakes.js'
import { FakeOneBot, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const USER = 12001

describe('real TRSS-Yunzai host: web_search and fetch_url in a chat', function () {
  this.timeout(60_000)
  let dataDir = ''
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let searx: FakeProvider | undefined
  let pages: PageServer | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined
  const toolMessages = (): string[] => sentMessages(fake!.chatRequests().at(-1)?.body).filter((m) => m.role === 'tool').map((m) => m.content)

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'web', { botId: BOT, masterId: MASTER })
    dataDir = p.dataDir
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    searx = await startFakeProvider('searxng')
    pages = await startPageServer()
    // the page server is on 127.0.0.1: reading it needs the switch
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      webTools: { search: { providers: [{ name: 'searx', type: 'searxng', baseUrl: searx.url }] }, fetch: { allowPrivate: true } }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER, USER], []))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake, searx, pages] })
  })

  it('the model searches, reads the page, and the answer reaches QQ', async () => {
    searx!.results = [{ title: 'Fox Facts', url: `${pages!.url}/article`, snippet: 'All about <b>foxes</b>' }]
    fake!.enqueue(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'fox facts' } }] },
      { toolCalls: [{ name: 'fetch_url', arguments: { url: `${pages!.url}/article` } }] },
      { content: '狐狸有红狐和北极狐（网上查到的）。' }
    )
    const since = Date.now()
    await bot!.privateMessage(USER, '帮我上网查一下狐狸')
    const sent = await bot!.waitForSent((s) => s.text.includes('北极狐'), 30_000, since)
    expect(sent.groupId ?? '').to.equal('')
    const [search, page] = toolMessages()
    expect(JSON.parse(search!).results[0]).to.deep.equal({ title: 'Fox Facts', url: `${pages!.url}/article`, snippet: 'All about foxes' })
    expect(page).to.include('Title: Fox Facts').and.include('• Red fox').and.not.include('HOME-NAV-LINK').and.not.include('SCRIPT-TEXT')
  })
})
