// search_memory and search_knowledge are offered to the model only when they can find something: the
// user has a memory, the knowledge base holds a document (lib/tools/builtin/lookup.ts). Checked on the
// requests the fake model receives from POST /api/chat.
import { expect } from 'chai'
import { resetChat, startChatEnv, type ChatEnv } from '../chat/helpers.js'

describe('tools: look-ups offered only when they can find something', function () {
  this.timeout(30_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })

  /** The tool names the model was offered for one chat turn of `userId`. */
  const offered = async (userId: string): Promise<string[]> => {
    env.fake.reset()
    const r = await env.s.api('/api/chat', { method: 'POST', json: { message: 'hello', userId } })
    expect(r.status, r.text).to.equal(200)
    return env.fake.offeredTools()
  }

  it('search_memory: only to a user who has a memory, and no longer once it is gone', async () => {
    const memory = env.s.lx.rt.need('memory')
    expect(await offered('lk1')).to.include('get_current_time').and.not.include('search_memory')
    const m = await memory.add({ userId: 'lk1', content: 'likes oolong tea' })
    expect(await offered('lk1')).to.include('search_memory')
    expect(await offered('lk2'), 'another user without memories').to.not.include('search_memory')
    await memory.remove(m.id, true)
    expect(await offered('lk1')).to.not.include('search_memory')
  })

  it('search_knowledge: only while the knowledge base holds a document', async () => {
    const kb = env.s.lx.rt.need('knowledge')
    expect(await offered('lk3')).to.not.include('search_knowledge')
    const doc = await kb.create({ title: 'Tea', content: 'Oolong is a partly oxidised tea.' })
    expect(await offered('lk3')).to.include('search_knowledge')
    await kb.remove(doc.id)
    expect(await offered('lk3')).to.not.include('search_knowledge')
  })

  it('a model naming search_knowledge while nothing can be found gets "not available", not the tool', async () => {
    env.fake.enqueue({ toolCalls: [{ name: 'search_knowledge', arguments: { query: 'tea' } }] }, { content: 'done' })
    const r = await env.s.api('/api/chat', { method: 'POST', json: { message: 'search it', userId: 'lk4' } })
    expect(r.status, r.text).to.equal(200)
    const tool = (env.fake.chatRequests()[1]?.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')
    expect(tool?.content).to.match(/not available in this chat/)
  })
})
