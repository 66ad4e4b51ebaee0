// Images of a message (e.g. a QQ picture) reach vision models as image parts; a model that refuses
// them gets the question again with the images as links.
import { userText } from '../support/user-text.js'
import { expect } from 'chai'
import { resetChat, startChatEnv, type ChatEnv } from './helpers.js'

describe('chat: images in a message', function () {
  this.timeout(20_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })
  const scope = { userId: 'img1', isMaster: false, via: 'bot' as const, conversationId: 'private:img1' }
  const lastUser = (i = -1): any => (env.fake.chatRequests().at(i)?.body as { messages: any[] }).messages.filter((m) => m.role === 'user').at(-1)

  it('sends the images as image_url parts beside the text', async () => {
    env.fake.enqueue({ content: 'a cat' })
    const r = await env.s.lx.rt.need('conversations').pipeline.reply(scope, '这是什么？', { images: ['https://img.example/cat.png', 'data:image/png;base64,AAAA'] })
    expect(r.response).to.equal('a cat')
    const parts = lastUser().content
    expect(userText(parts[0].text), 'the text part: the note, then the question').to.equal('这是什么？')
    expect(parts).to.deep.equal([
      { type: 'text', text: parts[0].text },
      { type: 'image_url', image_url: { url: 'https://img.example/cat.png' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }
    ])
    // history keeps the text only
    expect(env.s.lx.rt.need('conversations').store.history('private:img1').map((m) => m.content)).to.deep.equal(['这是什么？', 'a cat'])
  })

  it('asks again with the images as links when the model refuses image parts', async () => {
    env.fake.enqueue({ status: 400, errorMessage: 'model does not support image input' }, { content: 'I cannot see it, but the link says cat' })
    const r = await env.s.lx.rt.need('conversations').pipeline.reply(scope, 'look', { images: ['https://img.example/cat.png'] })
    expect(r.response).to.equal('I cannot see it, but the link says cat')
    expect(env.fake.chatRequests()).to.have.length(2)
    expect(userText(lastUser().content)).to.equal('look\n[image: https://img.example/cat.png]')
  })

  it('a failing model without images is still a MODEL_ERROR (no second try)', async () => {
    env.fake.enqueue({ status: 400, errorMessage: 'bad' })
    let err: unknown
    try { await env.s.lx.rt.need('conversations').pipeline.reply(scope, 'plain') } catch (e) { err = e }
    expect((err as { code?: string }).code).to.equal('MODEL_ERROR')
    expect(env.fake.chatRequests()).to.have.length(1)
  })
})
