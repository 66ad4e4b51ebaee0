// The QQ path in the standalone host (the real plugin, the fake model): a PDF uploaded to the
// knowledge base, bound to the chat's preset; a group question @bot gets the PDF's passage, with its
// source, after the user's text in the newest user message (lib/chat/README.md, "Request layout");
// the why record lists the passage given; search_knowledge answers passages; a removed document is
// never given again.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { contextOf, sentMessages } from '../chat/helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { splitUserContent } from '../support/user-text.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/knowledge/', import.meta.url))
const PASSAGE = '消防演练在每年十月的第二个周五举行'

describe('knowledge: a file\'s passage reaches the model in a QQ group (standalone host)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let docId = ''
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-kb-qq-')
    const rt = p.run.rt
    await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test', models: ['gpt-test'] }], trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0 } })
    const kb = rt.need('knowledge')
    const preset = (await rt.need('presetResolver').resolve({ userId: '72001', groupId: '73001', isMaster: false, via: 'bot', conversationId: 'group:73001' })).id
    const doc = await kb.addFile({ name: 'safety.pdf', bytes: readFileSync(FIXTURES + 'safety.pdf'), presetId: preset })
    await kb.processed(doc.id)
    expect(kb.get(doc.id).status).to.equal('ready')
    docId = doc.id
  })
  after(async () => { await p?.stop(); await fake?.close() })

  it('a group question @bot: the passage and its source follow the user\'s text; the why record lists it', async () => {
    fake.reset()
    fake.enqueue({ content: '根据《安全管理制度》第二章，消防演练在每年十月的第二个周五举行。' })
    const res = await p.host.sendGroup('73001', '72001', '消防演练是什么时候？', { at: true })
    expect(res.stage).to.equal('handled')
    const body = fake.chatRequests().at(-1)?.body
    const newest = sentMessages(body).filter((m) => m.role === 'user').at(-1)!.content
    const { tail } = splitUserContent(newest)
    expect(newest.indexOf('消防演练是什么时候')).to.be.below(newest.indexOf(PASSAGE))
    expect(tail).to.include(PASSAGE).and.include('### 《安全管理制度》 › 第二章 消防安全 · 第 2 页')
    expect(tail, 'a passage, not the whole file').to.not.include('电热毯')
    expect(sentMessages(body).filter((m) => m.role === 'system').map((m) => m.content).join('\n')).to.not.include(PASSAGE)
    expect(contextOf(body)).to.include(PASSAGE)
    const why = p.run.rt.need('why').store.lastFor('72001', '73001')
    expect(why?.knowledge).to.have.length(1)
    expect(why!.knowledge[0]).to.include({ documentId: docId, title: '安全管理制度 › 第二章 消防安全 · 第 2 页' })
    expect(why!.knowledge[0]!.excerpt).to.include(PASSAGE)
    expect(p.host.transcript.at(-1)?.text).to.include('十月的第二个周五')
  })

  it('search_knowledge answers passages with their heading and page', async () => {
    fake.reset()
    fake.enqueue({ toolCalls: [{ name: 'search_knowledge', arguments: { query: '灭火器 检查' } }] }, { content: '每月检查一次。' })
    await p.host.sendGroup('73001', '72002', '灭火器多久检查一次？', { at: true })
    const second = sentMessages(fake.chatRequests().at(-1)?.body)
    const tool = second.find((m) => m.role === 'tool')?.content ?? ''
    expect(tool).to.include('灭火器每月检查一次压力表').and.include('"page": 2').and.include('"heading": "第二章 消防安全"')
    expect(tool).to.not.include('电热毯')
  })

  it('a removed document is never given again', async () => {
    await p.run.rt.need('knowledge').remove(docId)
    fake.reset()
    fake.enqueue({ content: '不知道。' })
    await p.host.sendGroup('73001', '72003', '消防演练是什么时候？', { at: true })
    // (the group's earlier answers are history; the passages of this turn are the newest message's tail)
    const newest = sentMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role === 'user').at(-1)!.content
    expect(splitUserContent(newest).tail).to.not.include(PASSAGE).and.not.include('《安全管理制度》')
    expect(p.run.rt.need('why').store.lastFor('72003', '73001')?.knowledge).to.deep.equal([])
  })
})
