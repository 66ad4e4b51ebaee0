// Context compression and summaries with the real pipeline, the fake model server and the API.
import { userText } from '../support/user-text.js'
import { expect } from 'chai'
import { SUMMARY_HEAD } from '../../lib/chat/context.js'
import { SUMMARY_BATCH } from '../../lib/chat/summary.js'
import { defaultBehavior } from '../support/fake-openai.js'
import { resetChat, sentMessages, startChatEnv, type ChatEnv } from './helpers.js'

const isSummaryRequest = (body: any): boolean => sentMessages(body)[0]?.content.startsWith('You keep the memory') === true

describe('chat: context summaries (cleaningStrategy summarize)', function () {
  this.timeout(30_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })
  afterEach(async () => { await env.s.lx.rt.config.update({ context: { maxMessages: 20, cleaningStrategy: 'sliding' } }) })

  const say = async (text: string): Promise<void> => {
    const r = await env.s.api('/api/chat', { method: 'POST', json: { message: text, userId: 'sum-user' } })
    expect(r.status, r.text).to.equal(200)
  }

  it('folds the messages that left the window into a summary, in the background, once a batch is full', async () => {
    await env.s.lx.rt.config.update({ context: { maxMessages: 4, cleaningStrategy: 'summarize' } })
    env.fake.respond = (body) => isSummaryRequest(body) ? { content: '<think>hmm</think>The user is planning a trip to Hangzhou.' } : defaultBehavior(body)
    const pipeline = env.s.lx.rt.need('conversations').pipeline
    // 4 messages fit the window; each turn adds 2, so after 2 + SUMMARY_BATCH / 2 turns a batch is out
    const turns = 2 + SUMMARY_BATCH / 2
    for (let i = 0; i < turns; i++) await say(`message ${i}`)
    expect(env.fake.chatRequests().filter((r) => isSummaryRequest(r.body))).to.have.length(0) // not yet a full batch
    await say('one more')
    await pipeline.summarizer.idle()
    const asked = env.fake.chatRequests().filter((r) => isSummaryRequest(r.body))
    expect(asked).to.have.length(1)
    expect(sentMessages(asked[0]?.body)[1]?.content).to.include('User: message 0').and.include('Assistant: echo: message 0')
    const conv = env.s.lx.rt.need('conversations').store.get('private:sum-user')
    expect(conv?.summary?.text).to.equal('The user is planning a trip to Hangzhou.') // reasoning not kept

    // the next turn shows the summary in place of the messages it covers
    await say('where am I going?')
    const last = sentMessages(env.fake.chatRequests().filter((r) => !isSummaryRequest(r.body)).at(-1)?.body)
    const summary = last.find((m) => m.role === 'system' && m.content.startsWith(SUMMARY_HEAD))
    expect(summary?.content).to.include('Hangzhou')
    expect(last.map((m) => m.content)).to.not.include('message 0')
    expect(userText(last.at(-1)?.content ?? '')).to.equal('where am I going?')
  })

  it('asks for no summaries with the default sliding strategy', async () => {
    await env.s.lx.rt.config.update({ context: { maxMessages: 2 } })
    for (let i = 0; i < 8; i++) await say(`plain ${i}`)
    await env.s.lx.rt.need('conversations').pipeline.summarizer.idle()
    expect(env.fake.chatRequests().filter((r) => isSummaryRequest(r.body))).to.have.length(0)
    expect(env.s.lx.rt.need('conversations').store.get('private:sum-user')?.summary).to.equal(undefined)
  })

  it('a failing summary is logged and the chat goes on', async () => {
    await env.s.lx.rt.config.update({ context: { maxMessages: 2, cleaningStrategy: 'summarize' } })
    env.fake.respond = (body) => isSummaryRequest(body) ? { status: 500 } : defaultBehavior(body)
    for (let i = 0; i < 2 + SUMMARY_BATCH / 2; i++) await say(`m ${i}`)
    await env.s.lx.rt.need('conversations').pipeline.summarizer.idle()
    expect(env.fake.chatRequests().some((r) => isSummaryRequest(r.body))).to.equal(true)
    expect(env.s.lx.rt.need('conversations').store.get('private:sum-user')?.summary).to.equal(undefined)
    expect(env.s.lx.rt.log.query({ level: 'warn' }).map((e) => e.message)).to.include('Could not summarize the earlier conversation')
    await say('still here?')
  })
})
