// Knowledge bound to the active preset reaches the model after the user's message (passages); search_knowledge finds it.
import { splitUserContent } from '../support/user-text.js'
import { expect } from 'chai'
import { resetChat, sentMessages, startChatEnv, type ChatEnv } from '../chat/helpers.js'
import { ZH_DOCS } from './corpus.js'

describe('knowledge: in chat', function () {
  this.timeout(30_000)
  let env: ChatEnv
  before(async () => {
    env = await startChatEnv()
    const kb = env.s.lx.rt.need('knowledge')
    for (const d of ZH_DOCS) await kb.create({ ...d, presetId: 'default' })
    await kb.create({ title: 'Unbound', content: '火锅 secret that belongs to no preset' })
    await kb.create({ title: 'Other preset', content: '火锅 notes bound to another preset', presetId: 'someone-else' })
  })
  after(async () => { await env?.close() })
  beforeEach(async () => {
    await resetChat(env)
    await env.s.lx.rt.config.update({ knowledge: { enabled: true, maxResultsInPrompt: 3 } })
  })
  // read for this message: after the user's text in the newest message, never in the system message
  // (lib/chat/README.md, "Request layout")
  const systemOf = (): string => {
    const msgs = sentMessages(env.fake.chatRequests().at(-1)?.body)
    const tail = splitUserContent(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '').tail
    expect(msgs.find((m) => m.role === 'system')?.content ?? '', 'the system message stays the same').to.not.include(tail.slice(0, 20) || '\u0000')
    return tail
  }
  const chat = (message: string): ReturnType<ChatEnv['s']['api']> => env.s.api('/api/chat', { method: 'POST', json: { message, userId: 'k1' } })

  it('puts the relevant documents of the active preset after the user\'s message', async () => {
    const preset = (await env.s.lx.rt.need('presetResolver').resolve({ userId: 'k1', isMaster: false, via: 'api', conversationId: 'private:k1' })).id
    expect(preset).to.equal('default')
    const r = await chat('火锅底料怎么炒才不苦？')
    expect(r.status, r.text).to.equal(200)
    const sys = systemOf()
    expect(sys).to.include('火锅底料的炒制').and.include('牛油底料')
    expect(sys).to.not.include('belongs to no preset').and.not.include('bound to another preset')
  })

  it('respects maxResultsInPrompt and knowledge.enabled', async () => {
    await env.s.lx.rt.config.update({ knowledge: { maxResultsInPrompt: 1 } })
    await chat('猫砂 火锅 咖啡')
    expect(systemOf().match(/^### /gm)).to.have.length(1)
    await env.s.lx.rt.config.update({ knowledge: { enabled: false } })
    await chat('火锅底料怎么炒')
    expect(systemOf()).to.not.include('牛油底料')
  })

  it('the built-in search_knowledge tool searches every document', async () => {
    const names = (await env.s.api('/api/tools/list')).body.data.map((t: { name: string }) => t.name)
    expect(names).to.include('search_knowledge')
    const hits = await env.s.lx.rt.need('knowledge').search('secret that belongs')
    expect(hits[0]?.title).to.equal('Unbound')
  })
})
