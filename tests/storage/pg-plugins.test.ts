// Two copies of the plugin (their own data folders) on one PostgreSQL (README "Several bots"): a
// conversation written through one's POST /api/chat is listed by the other's GET /api/conversations, and
// a deletion on the other reaches the first.
import { expect } from 'chai'
import type { Conversation } from '../../lib/chat/store.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { postgresOrSkip } from '../support/postgres.js'
import type { TestServer } from '../support/server.js'
import { startTwoOn, whenRemote } from '../support/shared-instances.js'

/** Resolves at the first remote change of the conversations of `s` for which `done` holds. */
function remoteConversation (s: TestServer, done: (id: string, c: Conversation | undefined) => boolean): Promise<number> {
  return whenRemote((l: (id: string, c: Conversation | undefined) => void) => s.lx.rt.need('conversations').store.onRemote(l), done)
}

describe('storage: two plugin instances on one PostgreSQL', function () {
  this.timeout(30_000)
  let fake: FakeOpenAI | undefined
  let one: TestServer | undefined
  let two: TestServer | undefined
  before(async function () {
    const url = await postgresOrSkip(this)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // startTestServer passes process.env (with its own LINGXI_DATA_DIR) to the plugin
    ;[one, two] = await startTwoOn(url)
    await one.lx.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
  })
  after(async () => {
    await one?.close()
    await two?.close()
    await fake?.close()
  })

  it('a conversation written through one instance is listed by the other; a deletion on the other reaches the first', async () => {
    expect(one!.dataDir).to.not.equal(two!.dataDir)
    const seen = remoteConversation(two!, (id, c) => id === 'private:u-shared' && c?.messages.length === 2)
    const r = await one!.api('/api/chat', { method: 'POST', json: { message: 'hello from one', userId: 'u-shared' } })
    expect(r.status, r.text).to.equal(200)
    await seen
    const list = await two!.api('/api/conversations?userId=u-shared')
    expect(list.status, list.text).to.equal(200)
    expect(list.body.data.total).to.equal(1)
    expect(list.body.data.conversations[0]).to.deep.include({ id: 'private:u-shared', messageCount: 2, lastMessage: 'echo: hello from one' })
    const all = await two!.api('/api/conversations')
    expect(all.body.data.conversations.map((c: { id: string }) => c.id)).to.include('private:u-shared')

    const gone = remoteConversation(one!, (id, c) => id === 'private:u-shared' && c === undefined)
    const deleted = two!.lx.rt.need('conversations').store.delete('private:u-shared')
    await gone
    expect(await deleted).to.equal(true)
    const after = await one!.api('/api/conversations')
    expect(after.body.data.conversations.map((c: { id: string }) => c.id)).to.not.include('private:u-shared')
  })
})
