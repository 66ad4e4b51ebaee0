// A chat turn through the standalone host with the fake model: the model calls web_search, then
// fetch_url on a result, and gets the provider's results and the page's readable text as tool
// messages; the bot's answer reaches the chat. A private address the model asks for is refused.
// web_search is offered only while a provider can be tried.
import { expect } from 'chai'
import type { ConfigInput } from '../../lib/config/schema.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { sentMessages } from '../chat/helpers.js'
import { startFakeProvider, startPageServer, type FakeProvider, type PageServer } from './fakes.js'

type Providers = NonNullable<NonNullable<NonNullable<ConfigInput['webTools']>['search']>['providers']>

describe('web tools in a chat turn (standalone host, fake model)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let searx: FakeProvider
  let pages: PageServer
  const toolMessages = (): string[] => sentMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role === 'tool').map((m) => m.content)

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    searx = await startFakeProvider('searxng')
    pages = await startPageServer()
    p = await startPluginHost('trss', 'lingxi-webtools-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }],
      webTools: { search: { providers: [{ name: 'searx', type: 'searxng', baseUrl: searx.url }] } }
    })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
    await searx?.close()
    await pages?.close()
  })

  it('the model searches, reads a result page, and answers with what it read', async () => {
    searx.results = [{ title: 'Fox Facts', url: `${pages.url}/article`, snippet: 'All about <b>foxes</b>' }]
    await p.run.rt.config.update({ webTools: { fetch: { allowPrivate: true } } })
    fake.reset()
    fake.enqueue(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'fox facts' } }] },
      { toolCalls: [{ name: 'fetch_url', arguments: { url: `${pages.url}/article` } }] },
      { content: '狐狸有红狐和北极狐。' }
    )
    await p.host.sendPrivate('20001', '帮我查一下狐狸的资料')
    const requests = fake.chatRequests()
    expect(requests.length).to.equal(3)
    const offered = fake.offeredTools(0)
    expect(offered).to.include('web_search').and.include('fetch_url')
    const [searchResult, pageText] = toolMessages()
    expect(JSON.parse(searchResult!)).to.deep.equal({ query: 'fox facts', provider: 'searx', results: [{ title: 'Fox Facts', url: `${pages.url}/article`, snippet: 'All about foxes' }] })
    expect(pageText).to.include('Title: Fox Facts').and.include('• Arctic fox').and.not.include('HOME-NAV-LINK').and.not.include('SCRIPT-TEXT')
    expect(new URL(searx.requests[0]!.url, 'http://x').searchParams.get('q')).to.equal('fox facts')
    expect(p.host.transcript.at(-1)?.text).to.include('狐狸有红狐和北极狐')
  })

  it('a loopback address the model asks for is refused (allowPrivate off) and the model is told why', async () => {
    await p.run.rt.config.update({ webTools: { fetch: { allowPrivate: false } } })
    fake.reset()
    const before = pages.hits.length
    fake.enqueue({ toolCalls: [{ name: 'fetch_url', arguments: { url: `${pages.url}/article` } }] }, { content: '读不了' })
    await p.host.sendPrivate('20001', '读一下这个本机页面')
    expect(toolMessages()[0]).to.match(/^Error: Address 127\.0\.0\.1 is not public/)
    expect(pages.hits.length).to.equal(before)
  })

  it('web_search is offered only while a provider can be tried: none, all disabled, or a keyed one without a key leave it out', async () => {
    const offeredWith = async (providers: Providers): Promise<string[]> => {
      await p.run.rt.config.update({ webTools: { search: { providers } } })
      fake.reset()
      fake.enqueue({ content: 'ok' })
      await p.host.sendPrivate('20002', '你好')
      return fake.offeredTools(0)
    }
    try {
      expect(await offeredWith([])).to.include('fetch_url').and.not.include('web_search')
      expect(await offeredWith([{ name: 'off', type: 'searxng', baseUrl: searx.url, enabled: false }])).to.not.include('web_search')
      expect(await offeredWith([{ name: 'keyless', type: 'tavily' }])).to.not.include('web_search')
      expect(await offeredWith([{ name: 'keyed', type: 'tavily', apiKeys: [{ key: 'tvly-test-123456' }] }])).to.include('web_search')
      expect(await offeredWith([{ name: 'searx', type: 'searxng', baseUrl: searx.url }])).to.include('web_search')
    } finally {
      await p.run.rt.config.update({ webTools: { search: { providers: [{ name: 'searx', type: 'searxng', baseUrl: searx.url }] } } })
    }
  })
})
