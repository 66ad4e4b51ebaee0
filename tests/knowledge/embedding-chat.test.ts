// The chat path uses the same hybrid search (HTTP /api/chat with the fake model and the fake
// embeddings server): a paraphrase that shares no word with the passage reaches the model by meaning,
// and a down embeddings endpoint never fails the turn (BM25 alone).
import { expect } from 'chai'
import { splitUserContent } from '../support/user-text.js'
import { resetChat, sentMessages, startChatEnv, type ChatEnv } from '../chat/helpers.js'
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'

describe('knowledge: found by meaning in chat', function () {
  this.timeout(60_000)
  let env: ChatEnv
  let fake: FakeEmbeddings
  before(async () => {
    fake = await startFakeEmbeddings({ dims: 1024 })
    env = await startChatEnv()
    await env.s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { enabled: true, maxResultsInPrompt: 1, embedding: { baseUrl: fake.url, apiKey: 'k', model: 'm', batchSize: 0 } } })
    const kb = env.s.lx.rt.need('knowledge')
    await kb.create({ title: '退款政策', content: '购买后七天内可以申请退款，款项三个工作日内原路返回。', presetId: 'default' })
    await kb.create({ title: '停车指引', content: '地下二层提供停车服务，满两百元免费两小时。', presetId: 'default' })
    await kb.vectors!.whenIdle()
  })
  after(async () => { await env?.close(); await fake?.close() })
  beforeEach(async () => { await resetChat(env) })
  const tail = (): string => {
    const msgs = sentMessages(env.fake.chatRequests().at(-1)?.body)
    return splitUserContent(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '').tail
  }
  const chat = (message: string): ReturnType<ChatEnv['s']['api']> => env.s.api('/api/chat', { method: 'POST', json: { message, userId: 'e1' } })

  it('gives the model the passage a paraphrase means', async () => {
    const r = await chat('东西不想要了，钱能返还费用吗')
    expect(r.status, r.text).to.equal(200)
    expect(tail()).to.include('原路返回')
  })

  it('answers by words alone when the embeddings endpoint is down', async () => {
    fake.down = true
    try {
      const r = await chat('停车服务在几层')
      expect(r.status, r.text).to.equal(200)
      expect(tail()).to.include('地下二层')
    } finally { fake.down = false }
  })
})
