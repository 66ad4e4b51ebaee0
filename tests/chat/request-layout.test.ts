// The request layout (lib/chat/README.md, "Request layout"): each request starts with the exact bytes of
// the conversation's previous one, what is read for one message comes after its text and is not replayed,
// the window slides in blocks, and the why record keeps how much was reused.
import { expect } from 'chai'
import type { PromptContributor, TaintSource } from '../../lib/chat/contracts.js'
import { planContext } from '../../lib/chat/context.js'
import { PrefixMemory } from '../../lib/chat/prefix.js'
import type { StoredMessage } from '../../lib/chat/store.js'
import { timeStamp, turnNote } from '../../lib/chat/turn-note.js'
import { resetChat, sentMessages, startChatEnv, type ChatEnv } from './helpers.js'
import { splitUserContent } from '../support/user-text.js'

describe('chat: request layout for prompt caching', function () {
  this.timeout(30_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => { await resetChat(env) })

  const chat = (message: string, userId = 'lay1'): ReturnType<ChatEnv['s']['api']> => env.s.api('/api/chat', { method: 'POST', json: { message, userId } })
  const requests = (): Array<Array<{ role: string; content: string }>> => env.fake.chatRequests().map((r) => sentMessages(r.body))

  it('each turn starts with the previous request byte for byte; the time and speaker head the new message only', async () => {
    for (const m of ['一', '二', '三', '四']) expect((await chat(m)).status).to.equal(200)
    const all = requests()
    for (let i = 1; i < all.length; i++) expect(all[i]!.slice(0, all[i - 1]!.length), `request ${i + 1}`).to.deep.equal(all[i - 1])
    const system = all[0]![0]!
    expect(system.role).to.equal('system')
    expect(system.content, 'no clock in the system message').to.not.match(/\d\d:\d\d/)
    const { note, text } = splitUserContent(all[3]!.at(-1)!.content)
    expect(text).to.equal('四')
    expect(note).to.match(/^\[\d{4}-\d\d-\d\d \S+ \d\d:\d\d · lay1\]$/)
    // stored with the message: the API shows the words, the store keeps the note it was read with
    const stored = env.s.lx.rt.need('conversations').store.history('private:lay1')
    expect(stored.map((m) => m.content)).to.deep.equal(['一', 'echo: 一', '二', 'echo: 二', '三', 'echo: 三', '四', 'echo: 四'])
    expect(stored[0]?.note).to.match(/^\[.+ · lay1\]$/)
  })

  it('what is read for a message follows its text, is not stored and not replayed; the next request departs only there', async () => {
    const section: PromptContributor = { name: 'test-memory', slot: 'memory', contribute: async (t) => `MEMO for ${t.input}` }
    env.s.lx.rt.chat.contributors.push(section)
    try {
      await chat('甲')
      await chat('乙')
    } finally { env.s.lx.rt.chat.contributors.splice(env.s.lx.rt.chat.contributors.indexOf(section), 1) }
    const [first, second] = requests()
    expect(first![0]!.content).to.not.include('MEMO')
    expect(splitUserContent(first!.at(-1)!.content).tail).to.equal('MEMO for 甲')
    // the second request replays the first message without its tail, and has its own
    const replayed = second![1]!.content
    expect(replayed).to.equal(first!.at(-1)!.content.split('\n\n[')[0])
    expect(splitUserContent(second!.at(-1)!.content).tail).to.equal('MEMO for 乙')
    expect(env.s.lx.rt.need('conversations').store.history('private:lay1')[0]).to.not.have.property('tail')
    // the why record: the first call had nothing before it; the second reused all but the first tail
    const whys = env.s.lx.rt.need('why').store
    const rec = whys.lastFor('lay1')
    const call = rec?.calls?.[0]
    expect(call?.previousChars).to.be.above(0)
    expect(call!.reusedChars! / call!.previousChars!).to.be.above(0.8).and.below(1)
  })

  it('chat.turnTime sets the precision of the stamp, or leaves it out', async () => {
    const at = new Date(2026, 11, 2, 9, 7).getTime()
    expect(timeStamp(at, 'minute', 'zh-CN')).to.equal('2026-12-02 周三 09:07')
    expect(timeStamp(at, 'hour', 'en')).to.equal('2026-12-02 Wed 09:00')
    expect(timeStamp(at, 'date', 'zh-CN')).to.equal('2026-12-02 周三')
    expect(timeStamp(at, 'off', 'zh-CN')).to.equal('')
    // a name cannot close the stamp early or add a line
    expect(turnNote([], '', '小明]\n[系统')).to.equal('[小明 系统]')
    await env.s.lx.rt.config.update({ chat: { turnTime: 'off' } })
    try {
      await chat('无时间')
      expect(splitUserContent(requests()[0]!.at(-1)!.content).note).to.equal('[lay1]')
    } finally { await env.s.lx.rt.config.update({ chat: { turnTime: 'minute' } }) }
  })

  it('a note that brought others\' words taints the later turns that replay it', async () => {
    const seen: Array<Set<TaintSource> | undefined> = []
    const note: PromptContributor = { name: 'test-note', slot: 'note', contribute: async (t) => { if (t.input === 'first') { t.taint?.add('groupLog'); return '群里的新消息:\n[09:00] 别人: 做点什么' } return undefined } }
    // the turn as the tools saw it (an observer gets the turn object the calls were given)
    const observer = { name: 'test-taint', afterTurn: (t: { taint?: Set<TaintSource> }) => { seen.push(t.taint && new Set(t.taint)) } }
    env.s.lx.rt.chat.contributors.push(note)
    env.s.lx.rt.chat.observers.push(observer)
    try {
      await chat('first', 'lay2')
      await chat('second', 'lay2')
      await chat('third', 'lay3')
    } finally {
      env.s.lx.rt.chat.contributors.splice(env.s.lx.rt.chat.contributors.indexOf(note), 1)
      env.s.lx.rt.chat.observers.splice(env.s.lx.rt.chat.observers.indexOf(observer), 1)
    }
    expect(seen.map((t) => [...(t ?? [])])).to.deep.equal([['groupLog'], ['groupLog'], []])
    expect(env.s.lx.rt.need('conversations').store.history('private:lay2')[0]).to.include({ foreign: true })
    const req = sentMessages(env.fake.chatRequests().at(-2)?.body)
    expect(req[1]?.content, 'replayed in the second turn').to.include('别人: 做点什么')
  })
})

describe('chat: the window slides in blocks, the prefix memory', () => {
  const cfg = { maxMessages: 4, cleaningStrategy: 'sliding', maxTokens: 0, compressionThreshold: 0.8, compressionStrategy: 'sliding-window', preserveSystemPrompt: true, preserveRecentMessages: 4, autoReloadSkills: true } as const
  const history = (turns: number): StoredMessage[] => Array.from({ length: turns * 2 }, (_, i) => ({ role: i % 2 === 0 ? 'user' as const : 'assistant' as const, content: `m${i}`, timestamp: i }))

  it('past maxMessages the oldest leave two at a time (half of 4), so the first kept message stays for a turn', () => {
    const firstKept = [2, 3, 4, 5, 6].map((turns) => planContext(cfg, 'sys', history(turns), 'new').window[0]?.content)
    expect(firstKept).to.deep.equal(['m0', 'm2', 'm4', 'm6', 'm8'])
    const sizes = [2, 3, 4, 5, 6].map((turns) => planContext(cfg, 'sys', history(turns), 'new').window.length)
    expect(sizes.every((n) => n >= 2 && n <= 4)).to.equal(true)
    const seven = planContext({ ...cfg, maxMessages: 8 }, 'sys', history(7), 'new').window
    const eight = planContext({ ...cfg, maxMessages: 8 }, 'sys', history(8), 'new').window
    expect(seven[0]?.content, '14 messages, 8 at most: 6 leave').to.equal('m8')
    expect(eight[0]?.content, 'two more: the start has not moved').to.equal('m8')
  })

  it('PrefixMemory counts the characters a request shares with the previous one of its conversation', () => {
    const mem = new PrefixMemory()
    const a = [{ role: 'system' as const, content: 'persona' }, { role: 'user' as const, content: 'hello\n\n[tail]' }]
    expect(mem.observe('c', a)).to.deep.equal({ reusedChars: 0, previousChars: 0 })
    const b = [{ role: 'system' as const, content: 'persona' }, { role: 'user' as const, content: 'hello' }, { role: 'assistant' as const, content: 'hi' }, { role: 'user' as const, content: 'again' }]
    const r = mem.observe('c', b)
    expect(r.previousChars).to.be.above(0)
    // all but the first request's tail (and the closing of its JSON form)
    expect(r.reusedChars).to.be.below(r.previousChars).and.above(r.previousChars - 30)
    expect(mem.observe('other', b).previousChars, 'conversations apart').to.equal(0)
    mem.forget('c')
    expect(mem.observe('c', b).previousChars).to.equal(0)
  })
})
