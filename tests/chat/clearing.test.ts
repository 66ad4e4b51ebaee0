// lib/chat/conversations.ts, the one owner of clearing: stored messages and the pipeline's in-memory
// context go together, whichever route (variant A or B) asks. The routes' answers are in routes.test.ts.
import { expect } from 'chai'
import { clearAllConversations, clearConversation, clearUserContext, conversationIdParam, type ConversationParts } from '../../lib/chat/conversations.js'
import { AppError } from '../../lib/core/errors.js'
import { resetChat, startChatEnv, type ChatEnv } from './helpers.js'

describe('chat: clearing conversations (lib)', () => {
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })

  const turn = async (userId: string, groupId?: string): Promise<void> => {
    const r = await env.s.api('/api/chat', { method: 'POST', json: { message: 'hi', userId, ...(groupId ? { groupId } : {}) } })
    expect(r.status, r.text).to.equal(200)
  }
  const parts = (): ConversationParts => env.s.lx.rt.need('conversations')
  const active = (): string[] => env.s.lx.rt.need('conversations').pipeline.contexts().map((c) => c.conversationId).sort()

  it('clearConversation removes the stored messages and the in-memory context; false when neither was there', async () => {
    await turn('k1')
    expect(active()).to.deep.equal(['private:k1'])
    expect(await clearConversation(parts(), 'private:k1')).to.equal(true)
    expect(env.s.lx.rt.need('conversations').store.get('private:k1')).to.equal(undefined)
    expect(active()).to.deep.equal([])
    expect(await clearConversation(parts(), 'private:k1')).to.equal(false)
  })

  it('clearUserContext clears a user\'s private conversation or the one named, and never fails when empty', async () => {
    await turn('k2')
    await turn('k3', 'g5')
    expect(await clearUserContext(parts(), { userId: 'k2' })).to.equal(true)
    expect(await clearUserContext(parts(), { conversationId: 'group:g5:k3' })).to.equal(true)
    expect(active()).to.deep.equal([])
    expect(await clearUserContext(parts(), { userId: 'nobody' })).to.equal(false)
  })

  it('clearAllConversations removes every conversation and resets the pipeline', async () => {
    await turn('k4')
    await turn('k5')
    expect(await clearAllConversations(parts())).to.equal(2)
    expect(env.s.lx.rt.need('conversations').store.list()).to.deep.equal([])
    expect(active()).to.deep.equal([])
  })

  it('conversationIdParam takes the id forms of both variants and refuses others with a 400', () => {
    expect(conversationIdParam(' group:g1:u1 ')).to.equal('group:g1:u1')
    for (const bad of [undefined, '', 'a b', 'x'.repeat(201), 'a/b']) {
      expect(() => conversationIdParam(bad), String(bad)).to.throw(AppError).with.property('status', 400)
    }
  })
})
