// The chat pipeline and its routes through real HTTP, against the fake model server.
import { expect } from 'chai'
import sinon from 'sinon'
import type { ToolProvider, TurnContext } from '../../lib/chat/contracts.js'
import { readSse, post, waitFor } from '../channels/helpers.js'
import { contextOf, resetChat, sentMessages, spokenMessages, startChatEnv, type ChatEnv } from './helpers.js'

describe('chat: pipeline and routes', function () {
  this.timeout(20_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })

  const chat = (json: unknown): ReturnType<ChatEnv['s']['api']> => env.s.api('/api/chat', { method: 'POST', json })

  describe('POST /api/chat (style A)', () => {
    it('answers, stores both messages and reports usage', async () => {
      env.fake.enqueue({ content: 'hello there', usage: { prompt_tokens: 7, completion_tokens: 3 } })
      const r = await chat({ message: 'hi', userId: 'u1' })
      expect(r.status, r.text).to.equal(200)
      expect(r.body).to.deep.include({ success: true })
      const { whyId, ...rest } = r.body.data
      expect(rest).to.deep.equal({ response: 'hello there', conversationId: 'private:u1', usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 } })
      expect(whyId, 'the answer\'s why record (lib/why)').to.match(/^w[a-z0-9]+$/)
      const conv = await env.s.api('/api/conversations/private%3Au1')
      expect(conv.body.data.messages.map((m: any) => [m.role, m.content])).to.deep.equal([['user', 'hi'], ['assistant', 'hello there']])
      expect(conv.body.data.messages[0].timestamp).to.be.a('number')
    })

    it('sends the history of the conversation as context on the next turn', async () => {
      await chat({ message: 'first', userId: 'u2', groupId: 'g1' })
      await chat({ message: 'second', userId: 'u2', groupId: 'g1' })
      const last = env.fake.chatRequests().at(-1)
      const msgs = spokenMessages(last?.body).filter((m) => m.role !== 'system')
      expect(msgs).to.deep.equal([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'echo: first' }, { role: 'user', content: 'second' }])
      // the first turn's message is replayed byte for byte, note included: the request starts as the last one did
      const before = sentMessages(env.fake.chatRequests().at(-2)?.body)
      expect(sentMessages(last?.body).slice(0, before.length)).to.deep.equal(before)
      expect(sentMessages(last?.body)[0]?.role).to.equal('system')
    })

    it('offers no tool that only works in a QQ chat (send, speak, reminders, QQ actions); group tools with a groupId', async () => {
      await chat({ message: 'hi', userId: 'u3', groupId: 'g3' })
      const inGroup = env.fake.offeredTools()
      expect(inGroup).to.include.members(['get_current_time', 'get_group_history', 'get_group_info'])
      for (const name of ['send_message', 'speak', 'set_reminder', 'list_reminders', 'cancel_reminder', 'qq_mute_member', 'qq_poke']) expect(inGroup, name).to.not.include(name)
      await chat({ message: 'hi', userId: 'u3' })
      expect(env.fake.offeredTools()).to.include('get_current_time').and.not.include('get_group_history')
    })

    it('rejects bad input with 400 and field errors', async () => {
      for (const body of [{}, { message: '' }, { message: 5 }, { message: 'x'.repeat(20001) }, { message: 'hi', userId: 'a/b' }, { message: 'hi', groupId: 7 }]) {
        const r = await chat(body)
        expect(r.status, JSON.stringify(body)).to.equal(400)
        expect(r.body).to.include({ success: false, code: 'INVALID_ARGS' })
      }
      const bad = await env.s.api('/api/chat', { method: 'POST', body: '{nope', headers: { 'Content-Type': 'application/json' } })
      expect(bad.status).to.equal(400)
      expect(bad.body.success).to.equal(false)
      expect(env.fake.chatRequests()).to.have.length(0)
    })

    it('answers an unknown preset with 404 PRESET_NOT_FOUND, never with another preset (also the stream, as JSON)', async () => {
      const r = await chat({ message: 'hi', userId: 'u7', preset: 'no-such-preset' })
      expect(r.status, r.text).to.equal(404)
      expect(r.body).to.include({ success: false, code: 'PRESET_NOT_FOUND' })
      const s = await post(env.s, '/api/chat/stream', { message: 'hi', userId: 'u7', preset: 'no-such-preset' })
      expect(s.status).to.equal(404)
      expect(await s.json()).to.include({ success: false, code: 'PRESET_NOT_FOUND' })
      expect(env.fake.chatRequests()).to.have.length(0)
      expect(env.s.lx.rt.need('conversations').store.get('private:u7')).to.equal(undefined)
      const ok = await chat({ message: 'hi', userId: 'u7', preset: 'default' })
      expect(ok.status, ok.text).to.equal(200)
    })

    it('maps a failing model to 502 MODEL_ERROR and stores nothing', async () => {
      env.fake.enqueue({ status: 400, errorMessage: 'bad request upstream' })
      const r = await chat({ message: 'hi', userId: 'u3' })
      expect(r.status, r.text).to.be.oneOf([502])
      expect(r.body).to.include({ success: false, code: 'MODEL_ERROR' })
      expect(env.s.lx.rt.need('conversations').store.get('private:u3')).to.equal(undefined)
    })

    it('ends a turn that outlives chat.timeoutSeconds with 504 TIMEOUT and stores nothing', async () => {
      const rt = env.s.lx.rt
      const chatCfg = rt.config.get().chat
      await rt.config.update({ chat: { ...chatCfg, timeoutSeconds: 5 } })
      env.fake.enqueue({ delayMs: 600_000 })
      const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldClearNativeTimers: true })
      try {
        const answer = chat({ message: 'slow', userId: 'u9' })
        await waitFor(() => env.fake.chatRequests().length > 0)
        await clock.tickAsync(4_900)
        expect(await Promise.race([answer.then(() => 'answered'), Promise.resolve('pending')])).to.equal('pending')
        await clock.tickAsync(200)
        const r = await answer
        expect(r.status, r.text).to.equal(504)
        expect(r.body).to.include({ success: false, code: 'TIMEOUT' })
        expect(r.body.message).to.match(/chat\.timeoutSeconds \(5 s\)/)
        expect(rt.need('conversations').store.get('private:u9')).to.equal(undefined)
      } finally {
        clock.restore()
        await rt.config.update({ chat: chatCfg })
      }
    })

    it('answers 503 CHANNEL_UNAVAILABLE without channels', async () => {
      const rt = env.s.lx.rt
      const saved = rt.config.get().channels
      await rt.config.update({ channels: [] })
      try {
        const r = await chat({ message: 'hi', userId: 'u4' })
        expect(r.status).to.equal(503)
        expect(r.body).to.include({ success: false, code: 'CHANNEL_UNAVAILABLE' })
      } finally {
        await rt.config.update({ channels: saved })
      }
    })

    it('limits a user\'s messages per minute with 429 RATE_LIMITED', async () => {
      const rt = env.s.lx.rt
      await rt.config.update({ chat: { userRateLimitPerMinute: 2 } })
      try {
        expect((await chat({ message: 'a', userId: 'rl' })).status).to.equal(200)
        expect((await chat({ message: 'b', userId: 'rl' })).status).to.equal(200)
        const r = await chat({ message: 'c', userId: 'rl' })
        expect(r.status).to.equal(429)
        expect(r.body).to.include({ success: false, code: 'RATE_LIMITED' })
        expect((await chat({ message: 'd', userId: 'other' })).status, 'other users are not limited').to.equal(200)
        const stream = await env.s.api('/api/chat/stream', { method: 'POST', json: { message: 'e', userId: 'rl' } })
        expect(stream.status, 'the stream answers 429 before its first frame').to.equal(429)
        expect(stream.headers.get('content-type')).to.match(/json/)
        expect(JSON.parse(stream.text)).to.include({ success: false, code: 'RATE_LIMITED' })
      } finally {
        await rt.config.update({ chat: { userRateLimitPerMinute: 20 } })
      }
    })
  })

  describe('prompt contributors and observers', () => {
    it('adds contributors\' sections to the system prompt; failing contributors and observers cost nothing', async () => {
      const hooks = env.s.lx.rt.chat
      const seen: string[] = []
      const added = [
        { name: 'test-section', slot: 'extra' as const, contribute: async () => 'SECTION-FROM-TEST' },
        { name: 'test-broken', slot: 'extra' as const, contribute: async (): Promise<string> => { throw new Error('broken contributor') } }
      ]
      const observers = [
        { name: 'test-throws', afterTurn: () => { throw new Error('sync observer failure') } },
        { name: 'test-rejects', afterTurn: async () => { throw new Error('async observer failure') } },
        { name: 'test-records', afterTurn: (_t: unknown, ex: { user: string; assistant: string }) => { seen.push(`${ex.user}->${ex.assistant}`) } }
      ]
      hooks.contributors.push(...added)
      hooks.observers.push(...observers)
      try {
        const r = await chat({ message: 'obs', userId: 'p1' })
        expect(r.status, r.text).to.equal(200)
        const body = env.fake.chatRequests()[0]?.body
        const system = sentMessages(body)[0]
        expect(system?.role).to.equal('system')
        // an `extra` section is read for this message: after its text, not in the system message
        expect(system?.content).to.not.include('SECTION-FROM-TEST')
        expect(contextOf(body)).to.include('SECTION-FROM-TEST')
        expect(seen).to.deep.equal(['obs->echo: obs'])
      } finally {
        for (const a of added) hooks.contributors.splice(hooks.contributors.indexOf(a), 1)
        for (const o of observers) hooks.observers.splice(hooks.observers.indexOf(o), 1)
      }
    })
  })

  describe('ordering', () => {
    it('serialises one conversation and runs different conversations in parallel', async () => {
      const svc = env.s.lx.rt.need('conversations').pipeline
      env.fake.respond = (body) => {
        const user = spokenMessages(body).filter((m) => m.role === 'user').at(-1)?.content ?? ''
        return { content: `re ${user}`, delayMs: user === 'one' ? 300 : 5 }
      }
      const scope = { userId: 'o1', isMaster: false, via: 'api' as const, conversationId: 'private:o1' }
      const done: string[] = []
      const track = <T>(name: string, p: Promise<T>): Promise<T> => p.then((v) => { done.push(name); return v })
      const all = [
        track('one', svc.reply(scope, 'one')),
        track('two', svc.reply(scope, 'two')),
        track('three', svc.reply(scope, 'three')),
        track('other', svc.reply({ ...scope, userId: 'o2', conversationId: 'private:o2' }, 'other'))
      ]
      const results = await Promise.all(all)
      expect(results.map((r) => r.response)).to.deep.equal(['re one', 're two', 're three', 're other'])
      expect(done).to.deep.equal(['other', 'one', 'two', 'three'])
      // The second turn saw the first exchange: it started only after the first was stored.
      const reqTwo = env.fake.chatRequests().find((r) => spokenMessages(r.body).at(-1)?.content === 'two')
      expect(spokenMessages(reqTwo?.body).map((m) => m.content)).to.include.members(['one', 're one'])
      const stored = env.s.lx.rt.need('conversations').store.history('private:o1').map((m) => m.content)
      expect(stored).to.deep.equal(['one', 're one', 'two', 're two', 'three', 're three'])
    })
  })

  describe('tool loop', () => {
    let saved: ToolProvider | undefined
    const calls: Array<{ name: string; args: Record<string, unknown> }> = []
    let inFlight = 0
    let maxInFlight = 0
    const waiting: Array<() => void> = []
    const releaseAll = (): void => { for (const w of waiting.splice(0)) w() }
    beforeEach(() => {
      saved = env.s.lx.rt.chat.tools
      calls.length = 0
      maxInFlight = 0
      const provider: ToolProvider = {
        definitionsFor: async (_turn: TurnContext) => [{ name: 'get_time', description: 'time', parameters: { type: 'object', properties: {} } }, { name: 'add', description: 'add', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }],
        execute: async (name, args) => {
          calls.push({ name, args })
          inFlight++
          maxInFlight = Math.max(maxInFlight, inFlight)
          // Waits until a second call started (parallel) or briefly (sequential or a single call).
          await Promise.race([new Promise<void>((r) => { if (inFlight >= 2) { releaseAll(); r() } else waiting.push(r) }), new Promise<void>((r) => setTimeout(r, 100))])
          inFlight--
          if (name === 'add') return { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }], isError: false }
          return { content: [{ type: 'text', text: '12:00' }], isError: false }
        }
      }
      env.s.lx.rt.chat.tools = provider
    })
    afterEach(async () => {
      env.s.lx.rt.chat.tools = saved
      await env.s.lx.rt.config.update({ tools: { maxRounds: 5 } })
    })

    it('offers the tools, runs the model\'s calls in parallel and feeds the results back', async () => {
      env.fake.enqueue({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }, { name: 'get_time', arguments: {} }] }, { content: 'It is 12:00 and 2+3=5' })
      const r = await chat({ message: 'what time, and 2+3?', userId: 't1' })
      expect(r.status, r.text).to.equal(200)
      expect(r.body.data.response).to.equal('It is 12:00 and 2+3=5')
      expect(calls).to.deep.equal([{ name: 'add', args: { a: 2, b: 3 } }, { name: 'get_time', args: {} }])
      expect(maxInFlight, 'both tool calls ran at the same time').to.equal(2)
      const reqs = env.fake.chatRequests()
      expect(reqs).to.have.length(2)
      expect(env.fake.offeredTools(0)).to.deep.equal(['get_time', 'add'])
      const second = reqs[1]?.body.messages as any[]
      const toolMsgs = second.filter((m) => m.role === 'tool')
      expect(toolMsgs.map((m) => m.content)).to.deep.equal(['5', '12:00'])
      const assistant = second.find((m) => m.role === 'assistant' && m.tool_calls)
      expect(assistant.tool_calls.map((c: any) => c.id)).to.deep.equal(toolMsgs.map((m) => m.tool_call_id))
      // Only the user message and the final answer are stored.
      expect(env.s.lx.rt.need('conversations').store.history('private:t1').map((m) => m.content)).to.deep.equal(['what time, and 2+3?', 'It is 12:00 and 2+3=5'])
    })

    it('stops offering tools after tools.maxRounds rounds', async () => {
      await env.s.lx.rt.config.update({ tools: { maxRounds: 2 } })
      env.fake.respond = (body) => body.tools ? { toolCalls: [{ name: 'get_time', arguments: {} }] } : { content: 'final' }
      const r = await chat({ message: 'loop', userId: 't2' })
      expect(r.body.data.response).to.equal('final')
      const reqs = env.fake.chatRequests()
      expect(reqs).to.have.length(3)
      expect(reqs.map((q) => Boolean(q.body.tools))).to.deep.equal([true, true, false])
      expect(calls).to.have.length(2)
    })

    it('gives the model an error text for invalid tool arguments instead of failing', async () => {
      env.fake.enqueue({ toolCalls: [{ name: 'add', arguments: '{not json' }] }, { content: 'sorry' })
      const r = await chat({ message: 'x', userId: 't3' })
      expect(r.body.data.response).to.equal('sorry')
      expect(calls).to.have.length(0)
      const tool = (env.fake.chatRequests()[1]?.body.messages as any[]).find((m) => m.role === 'tool')
      expect(tool.content).to.match(/^Error: tool arguments/)
    })
  })

  describe('tool loop with the real tools domain', () => {
    it('runs a built-in tool (get_current_time) offered by rt.chat.tools', async () => {
      const rt = env.s.lx.rt
      expect(rt.chat.tools, 'tools domain registered').to.not.equal(undefined)
      env.fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: {} }] }, { content: 'done' })
      const r = await chat({ message: 'what time is it', userId: 'rt1' })
      expect(r.status, r.text).to.equal(200)
      expect(r.body.data.response).to.equal('done')
      const reqs = env.fake.chatRequests()
      expect(env.fake.offeredTools(0)).to.include('get_current_time')
      const tool = (reqs[1]?.body.messages as any[]).find((m) => m.role === 'tool')
      expect(tool?.content).to.be.a('string').and.not.match(/^Error/)
    })
  })

  describe('POST /api/chat/stream (SSE)', () => {
    it('sends start, content frames and end with usage, in that order', async () => {
      env.fake.enqueue({ content: 'streamed answer here', usage: { prompt_tokens: 4, completion_tokens: 5 } })
      const res = await post(env.s, '/api/chat/stream', { message: 'stream please', userId: 's1' })
      expect(res.status).to.equal(200)
      expect(res.headers.get('content-type')).to.match(/text\/event-stream/)
      const frames = await readSse(res)
      const types = frames.map((f) => f.data.type)
      expect(types[0]).to.equal('start')
      expect(types.at(-1)).to.equal('end')
      expect(types.slice(1, -1)).to.satisfy((t: string[]) => t.length > 0 && t.every((x) => x === 'content'))
      expect(frames.every((f) => f.event === 'message'), 'data-only frames').to.equal(true)
      expect(frames[0]?.data.conversationId).to.equal('private:s1')
      expect(frames.slice(1, -1).map((f) => f.data.text).join('')).to.equal('streamed answer here')
      expect(frames.at(-1)?.data.usage).to.deep.equal({ promptTokens: 4, completionTokens: 5, totalTokens: 9 })
    })

    it('validates before streaming (JSON 400) and reports a model failure as an error frame', async () => {
      const bad = await post(env.s, '/api/chat/stream', { userId: 's2' })
      expect(bad.status).to.equal(400)
      expect(await bad.json()).to.include({ success: false, code: 'INVALID_ARGS' })
      env.fake.enqueue({ status: 400, errorMessage: 'nope' })
      const frames = await readSse(await post(env.s, '/api/chat/stream', { message: 'hi', userId: 's2' }))
      expect(frames.map((f) => f.data.type)).to.deep.equal(['start', 'error'])
      expect(frames[1]?.data.code).to.equal('MODEL_ERROR')
    })
  })

  describe('conversations and context', () => {
    beforeEach(async () => {
      await chat({ message: 'a1', userId: 'c1' })
      await chat({ message: 'a2', userId: 'c1' })
      await chat({ message: 'b1', userId: 'c2', groupId: 'g9' })
    })

    it('B: GET /api/conversations/list and /:id/messages with limit', async () => {
      const list = await env.s.api('/api/conversations/list')
      expect(list.status).to.equal(200)
      expect(list.body).to.include({ code: 0, message: 'ok' })
      expect(list.body.data.map((c: any) => c.id).sort()).to.deep.equal(['group:g9:c2', 'private:c1'])
      const msgs = await env.s.api('/api/conversations/private:c1/messages?limit=2')
      expect(msgs.body.data.map((m: any) => m.content)).to.deep.equal(['a2', 'echo: a2'])
      const invalid = await env.s.api('/api/conversations/private:c1/messages?limit=abc')
      expect(invalid.body.data).to.have.length(4)
      const missing = await env.s.api('/api/conversations/private:none/messages')
      expect(missing.status).to.equal(404)
      expect(missing.body).to.deep.equal({ code: -1, data: null, message: 'Conversation not found' })
      const bad = await env.s.api(`/api/conversations/${'x'.repeat(201)}/messages`)
      expect(bad.status).to.equal(400)
      expect(bad.body.code).to.equal(-1)
    })

    it('B: DELETE /api/conversations/:id, then 404', async () => {
      const r = await env.s.api('/api/conversations/private:c1', { method: 'DELETE' })
      expect(r.body).to.deep.equal({ code: 0, data: { success: true }, message: 'ok' })
      expect(env.s.lx.rt.need('conversations').store.get('private:c1')).to.equal(undefined)
      const again = await env.s.api('/api/conversations/private:c1', { method: 'DELETE' })
      expect(again.status).to.equal(404)
      expect(again.body.code).to.equal(-1)
    })

    it('B: GET /api/context/list and POST /api/context/clear (by userId or conversationId)', async () => {
      const list = await env.s.api('/api/context/list')
      expect(list.body.data.map((c: any) => c.conversationId).sort()).to.deep.equal(['group:g9:c2', 'private:c1'])
      expect(list.body.data.find((c: any) => c.conversationId === 'private:c1')).to.include({ userId: 'c1', turns: 2, processing: false })
      const r = await env.s.api('/api/context/clear', { method: 'POST', json: { userId: 'c1' } })
      expect(r.body).to.deep.equal({ code: 0, data: { success: true, message: 'Context cleared' }, message: 'Context cleared' })
      expect(env.s.lx.rt.need('conversations').store.get('private:c1')).to.equal(undefined)
      const r2 = await env.s.api('/api/context/clear', { method: 'POST', json: { conversationId: 'group:g9:c2' } })
      expect(r2.status).to.equal(200)
      expect((await env.s.api('/api/context/list')).body.data).to.deep.equal([])
      for (const body of [{}, { userId: '' }, { userId: 5 }, { conversationId: 'a b' }, { userId: 'c1', extra: 1 }]) {
        const bad = await env.s.api('/api/context/clear', { method: 'POST', json: body })
        expect(bad.status, JSON.stringify(body)).to.equal(400)
        expect(bad.body).to.include({ code: -1, data: null })
      }
    })

    it('B: DELETE /api/conversations/clear-all deletes everything and resets in-memory state', async () => {
      const r = await env.s.api('/api/conversations/clear-all', { method: 'DELETE' })
      expect(r.body).to.deep.equal({ code: 0, data: { success: true, deletedCount: 2 }, message: 'ok' })
      expect(env.s.lx.rt.need('conversations').store.list()).to.deep.equal([])
      expect((await env.s.api('/api/context/list')).body.data).to.deep.equal([])
    })

    it('A: GET /api/conversations with filters and paging, GET /:id, POST /:id/clear', async () => {
      const all = await env.s.api('/api/conversations')
      expect(all.body.success).to.equal(true)
      expect(all.body.data.total).to.equal(2)
      const c1 = all.body.data.conversations.find((c: any) => c.id === 'private:c1')
      expect(c1).to.include({ userId: 'c1', groupId: '', messageCount: 4, lastMessage: 'echo: a2' })
      expect(c1.updatedAt).to.be.a('number')
      const byGroup = await env.s.api('/api/conversations?groupId=g9')
      expect(byGroup.body.data.conversations.map((c: any) => c.id)).to.deep.equal(['group:g9:c2'])
      const paged = await env.s.api('/api/conversations?limit=1&offset=1')
      expect(paged.body.data.conversations).to.have.length(1)
      expect(paged.body.data.total).to.equal(2)
      const junk = await env.s.api('/api/conversations?limit=x&offset=-3')
      expect(junk.status).to.equal(200)
      const one = await env.s.api('/api/conversations/private:c1')
      expect(one.body).to.deep.include({ success: true })
      expect(one.body.data.id).to.equal('private:c1')
      expect(one.body.data.messages).to.have.length(4)
      const missing = await env.s.api('/api/conversations/private:nobody')
      expect(missing.status).to.equal(404)
      expect(missing.body).to.include({ success: false, code: 'CONVERSATION_NOT_FOUND' })
      const cleared = await env.s.api('/api/conversations/private:c1/clear', { method: 'POST' })
      expect(cleared.body).to.deep.equal({ success: true, message: 'Context cleared' })
      const again = await env.s.api('/api/conversations/private:c1/clear', { method: 'POST' })
      expect(again.status).to.equal(404)
      expect(again.body).to.include({ success: false, code: 'CONVERSATION_NOT_FOUND' })
      const bad = await env.s.api('/api/conversations/a%20b/clear', { method: 'POST' })
      expect(bad.status).to.equal(400)
      expect(bad.body).to.include({ success: false })
    })

    it('unknown paths answer 404 in the group\'s style', async () => {
      const b = await env.s.api('/api/context/nope')
      expect(b.status).to.equal(404)
      expect(b.body.code).to.equal(-1)
      const a = await env.s.api('/api/chat/nope')
      expect(a.status).to.equal(404)
      expect(a.body.success).to.equal(false)
    })
  })
})
