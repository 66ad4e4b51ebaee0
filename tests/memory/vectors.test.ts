// Recall by meaning (lib/memory/README.md, "Recall by meaning"), through the QQ path of the standalone host
// with the real plugin, a fake model and the fake embeddings server (tests/support/fake-embeddings.ts: a
// paraphrase lands near its memory while BM25 sees no shared word). Waits are on the vectors' own promise
// (whenIdle), never on time.
import { expect } from 'chai'
import { sentMessages } from '../chat/helpers.js'
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { splitUserContent } from '../support/user-text.js'

// the memory says 宠物/过敏, the message 猫狗/不耐受: no character in common, the same meaning to the fake embedder
const MEMORY = '对宠物过敏'
const QUESTION = '养猫狗会不耐受吗'
const inferredPrivate = { kind: 'inferred' as const, chat: 'private' as const, at: 0 }

describe('memory: recall by meaning (hybrid BM25 + vectors)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let embed: FakeEmbeddings
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    embed = await startFakeEmbeddings({ dims: 256, maxBatch: 4 })
    p = await startPluginHost('miao', 'lingxi-memory-vectors-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      web: { allowPrivateHosts: ['127.0.0.1'] }
    })
  })
  after(async () => { await p?.stop(); await fake?.close(); await embed?.close() })
  const rt = (): PluginHost['run']['rt'] => p.run.rt
  const idle = (): Promise<void> => rt().need('memory').meaning!.whenIdle()
  /** The tail after the user's text of the last chat request (the message's memories). */
  const tail = (): string => {
    const user = sentMessages(fake.chatRequests().at(-1)?.body).filter((m) => m.role === 'user').at(-1)?.content ?? ''
    return splitUserContent(user).tail
  }
  const setEmbedding = (): Promise<unknown> => rt().config.update({ knowledge: { embedding: { baseUrl: embed.url, apiKey: 'sk-embed', model: 'fake-embed', batchSize: 0 } } })

  it('a paraphrased question recalls the memory BM25 misses once the memories have vectors (embedded in batches, the limit learned)', async () => {
    const mem = rt().need('memory')
    await mem.add({ userId: '61001', content: MEMORY, category: 'profile', confidence: 0.9, origin: inferredPrivate, source: 'auto' })
    for (const c of ['在杭州做设计师', '最近在学日语', '周末喜欢爬山', '每天早上跑步', '喜欢吃辣']) await mem.add({ userId: '61001', content: c, category: 'topic', confidence: 0.9, origin: inferredPrivate, source: 'auto' })
    await p.host.sendPrivate('61001', QUESTION)
    expect(tail()).to.not.include(MEMORY) // BM25 alone: no shared word
    await setEmbedding()
    await idle()
    expect(mem.meaning!.size).to.equal(6)
    // the first request of 6 texts was refused (the fake takes 4): the knowledge client learned the limit
    expect(embed.batches().slice(0, 3)).to.deep.equal([6, 4, 2])
    await p.host.sendPrivate('61001', QUESTION)
    expect(tail()).to.include(MEMORY)
    expect(tail()).to.not.include('杭州') // an unrelated memory is below memory.vectorMinScore
    const use = { now: Date.now(), privateInGroups: false }
    const [hit] = await mem.search({ query: QUESTION, userId: '61001', use })
    expect(hit?.content).to.equal(MEMORY)
    // a rewritten memory is embedded again, its old vector never served
    await mem.update(hit!.id, { content: '喜欢看科幻电影' })
    expect((await mem.search({ query: QUESTION, userId: '61001', use })).map((h) => h.id)).to.not.include(hit!.id)
    await idle()
    expect(mem.meaning!.size).to.equal(6)
    expect((await mem.search({ query: QUESTION, userId: '61001', use })).map((h) => h.id)).to.not.include(hit!.id)
  })

  it('a deleted, an erased or a superseded memory is never recalled by vector again', async () => {
    const mem = rt().need('memory')
    const use = { now: Date.now(), privateInGroups: false }
    const ids: number[] = []
    for (const user of ['61002', '61003', '61004']) {
      ids.push((await mem.add({ userId: user, content: MEMORY, category: 'profile', confidence: 0.9, origin: inferredPrivate, source: 'auto' })).id)
      await mem.add({ userId: user, content: '在杭州做设计师', category: 'profile', confidence: 0.9, origin: inferredPrivate, source: 'auto' })
    }
    await idle()
    for (const user of ['61002', '61003', '61004']) expect((await mem.search({ query: QUESTION, userId: user, use })).map((h) => h.content)).to.deep.equal([MEMORY])
    const before = mem.meaning!.size
    await mem.remove(ids[0]!, false) // soft delete (the dashboard's)
    await p.host.sendPrivate('61003', '#lx忘记我') // erases everything of the user
    const newer = await mem.add({ userId: '61004', content: '已经不过敏了', category: 'profile', confidence: 1, origin: { kind: 'stated', chat: 'private', at: 0 } })
    await mem.update(ids[2]!, { status: 'superseded', supersededBy: newer.id })
    await idle()
    expect(mem.meaning!.size).to.equal(before - 3 + 1) // two vectors gone with their memories, one added
    for (const user of ['61002', '61003', '61004']) expect((await mem.search({ query: QUESTION, userId: user, use })).map((h) => h.content)).to.not.include(MEMORY)
    await p.host.sendPrivate('61002', QUESTION)
    expect(tail()).to.not.include(MEMORY)
  })

  it('a memory learnt in a private chat and found by vector is not used in a group (unless its user allows it)', async () => {
    const mem = rt().need('memory')
    await mem.add({ userId: '61005', content: MEMORY, category: 'profile', confidence: 0.9, origin: inferredPrivate, source: 'auto' })
    await idle()
    await p.host.sendPrivate('61005', QUESTION)
    expect(tail()).to.include(MEMORY) // found by vector here
    const asked = fake.chatRequests().length
    await p.host.sendGroup('7105', '61005', QUESTION, { at: true, nickname: '小林' })
    expect(fake.chatRequests()).to.have.length(asked + 1) // the group's turn was answered, without the memory
    expect(JSON.stringify(fake.chatRequests().at(-1)?.body)).to.not.include(MEMORY)
    await p.host.sendPrivate('61005', '#lx记忆公开 开')
    await p.host.sendGroup('7105', '61005', QUESTION, { at: true, nickname: '小林' })
    expect(tail()).to.include(MEMORY) // allowed: the same vector path answers
  })

  it('the endpoint down: BM25 alone, logged once, hybrid again when it answers', async () => {
    const mem = rt().need('memory')
    await mem.add({ userId: '61006', content: MEMORY, category: 'profile', confidence: 0.9, origin: inferredPrivate, source: 'auto' })
    await mem.add({ userId: '61006', content: '最近在学日语', category: 'topic', confidence: 0.9, origin: inferredPrivate, source: 'auto' })
    await idle()
    embed.down = true
    try {
      await p.host.sendPrivate('61006', QUESTION)
      expect(tail()).to.not.include(MEMORY)
      await p.host.sendPrivate('61006', '日语难不难学')
      expect(tail()).to.include('最近在学日语') // BM25 still answers
      const warnings = rt().log.query({ level: 'warn', limit: 200 }).filter((e) => e.message.includes('Memory recall uses BM25 alone'))
      expect(warnings).to.have.length(1)
    } finally { embed.down = false }
    await p.host.sendPrivate('61006', QUESTION)
    expect(tail()).to.include(MEMORY)
  })
})
