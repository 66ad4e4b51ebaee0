// Memories users can trust (README "Memory"), through the QQ path of the standalone host with the real plugin
// and a scripted fake model: where each memory came from, pending inferred ones not used until confirmed,
// a newer stated fact superseding an older one, correction, undo, and scopes that do not leak (prompt and
// search_memory).
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { splitUserContent } from '../support/user-text.js'
import { sentMessages } from '../chat/helpers.js'
import { summarizeMemories } from '../../lib/memory/summarize.js'

describe('memory: provenance, review, scopes (QQ path)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-memory-trust-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { reviewBelow: 0.7, privateInGroups: false }
    })
  })
  after(async () => { await p?.stop(); await fake?.close() })
  const rt = (): PluginHost['run']['rt'] => p.run.rt
  const last = (): string => p.host.transcript.at(-1)?.text ?? ''
  /** The memory lines the model was given with the last chat request: the system message's summary and
   * what follows the user's text (lib/memory/README.md, "Recall"). */
  const memoryInPrompt = (): string => {
    const req = fake.chatRequests().filter((r) => !JSON.stringify(r.body).includes('Extract long-term facts')).at(-1)
    const msgs = sentMessages(req?.body)
    const user = msgs.filter((m) => m.role === 'user').at(-1)?.content ?? ''
    return `${msgs.find((m) => m.role === 'system')?.content ?? ''}\n${splitUserContent(user).tail}`
  }
  /** One extraction round whose model answer is `facts` (JSON). */
  const extract = async (facts: unknown[]): Promise<void> => {
    fake.enqueue({ content: JSON.stringify(facts) })
    await rt().need('memoryExtractor').runOnce()
  }

  it('records where each memory came from; an inferred one below reviewBelow waits and is not used until the user confirms it', async () => {
    fake.enqueue({ content: '好的～' })
    await p.host.sendPrivate('50001', '我在杭州做程序员，每天都加班到很晚')
    await extract([
      { content: '住在杭州', category: 'profile', confidence: 0.95, kind: 'stated' },
      { content: '工作压力可能很大', category: 'custom', confidence: 0.5, kind: 'inferred' }
    ])
    const list = rt().need('memory').list({ userId: '50001' })
    const stated = list.find((m) => m.content === '住在杭州')!
    const inferred = list.find((m) => m.content === '工作压力可能很大')!
    expect(stated.origin).to.deep.include({ kind: 'stated', chat: 'private', conversationId: 'private:50001', model: 'gpt-test' })
    expect(stated.origin?.messageIds?.length, 'the message it came from').to.be.greaterThan(0)
    expect(stated.status).to.equal(undefined)
    expect(inferred).to.include({ status: 'pending' })
    expect(inferred.origin?.kind).to.equal('inferred')

    await p.host.sendPrivate('50001', '#lx我的记忆')
    expect(last()).to.include(`#${stated.id} 你说过：住在杭州`).and.include(`#${inferred.id} 我推测：工作压力可能很大`).and.include('【待确认】')

    fake.enqueue({ content: '加油！' })
    await p.host.sendPrivate('50001', '今天又加班了，压力好大')
    expect(memoryInPrompt()).to.include('住在杭州').and.not.include('工作压力可能很大')

    await p.host.sendPrivate('50001', `#lx记忆确认 ${inferred.id}`)
    expect(last()).to.include('已确认')
    expect(rt().need('memory').get(inferred.id)?.status).to.equal(undefined)
    expect(rt().need('memory').get(inferred.id)?.history?.at(-1)).to.include({ what: 'confirmed', by: 'user', status: 'pending' })
    fake.enqueue({ content: '早点休息' })
    await p.host.sendPrivate('50001', '压力好大怎么办')
    expect(memoryInPrompt()).to.include('工作压力可能很大')
  })

  it('a newer stated fact supersedes the older one it contradicts: kept with its history, no longer used', async () => {
    const old = rt().need('memory').list({ userId: '50001' }).find((m) => m.content === '住在杭州')!
    fake.enqueue({ content: '恭喜搬家！' })
    await p.host.sendPrivate('50001', '我上个月搬到上海了')
    await extract([{ content: '住在上海', category: 'profile', confidence: 0.95, kind: 'stated', replaces: old.id }])
    const now = rt().need('memory').get(old.id)!
    expect(now).to.include({ status: 'superseded' })
    const newer = rt().need('memory').get(now.supersededBy!)!
    expect(newer.content).to.equal('住在上海')
    expect(now.history?.at(-1)).to.include({ what: 'superseded', content: '住在杭州' })
    fake.enqueue({ content: '上海好玩' })
    await p.host.sendPrivate('50001', '我住在哪里来着')
    expect(memoryInPrompt()).to.include('住在上海').and.not.include('住在杭州')
    await p.host.sendPrivate('50001', '#lx我的记忆')
    expect(last()).to.include('【已被新的替代】')
  })

  it('#lx更正记忆 changes the text (the old one kept in history); another user\'s id reads as unknown', async () => {
    const m = rt().need('memory').list({ userId: '50001' }).find((r) => r.content === '住在上海')!
    await p.host.sendPrivate('50001', `#lx更正记忆 ${m.id} 住在上海浦东`)
    expect(last()).to.include('已更正')
    const after = rt().need('memory').get(m.id)!
    expect(after).to.include({ content: '住在上海浦东', confidence: 1 })
    expect(after.origin?.kind).to.equal('stated')
    expect(after.history?.at(-1)).to.include({ what: 'corrected', by: 'user', content: '住在上海' })
    await p.host.sendPrivate('50009', `#lx更正记忆 ${m.id} 被别人改了`)
    expect(last()).to.include(`没有找到你的第 ${m.id} 条记忆`)
    await p.host.sendPrivate('50009', `#lx记忆删除 ${m.id}`)
    expect(rt().need('memory').get(m.id)?.content).to.equal('住在上海浦东')
    await p.host.sendPrivate('50001', '#lx更正记忆')
    expect(last()).to.include('更正记忆 编号 新内容')
  })

  it('#lx撤销记忆 takes back the last extraction: added ones erased, changed ones restored', async () => {
    const mem = rt().need('memory')
    const known = mem.list({ userId: '50001' }).find((r) => r.content === '住在上海浦东')!
    fake.enqueue({ content: '嗯嗯' })
    await p.host.sendPrivate('50001', '我其实在北京，养了一只猫')
    await extract([
      { content: '养了一只猫', category: 'relation', confidence: 0.9, kind: 'stated' },
      { content: '住在北京', category: 'profile', confidence: 0.9, kind: 'stated', replaces: known.id }
    ])
    expect(mem.get(known.id)?.status).to.equal('superseded')
    await p.host.sendPrivate('50001', '#lx撤销记忆')
    expect(last()).to.include('已撤销')
    const contents = mem.list({ userId: '50001' }).map((r) => r.content)
    expect(contents).to.not.include('养了一只猫').and.not.include('住在北京')
    expect(mem.get(known.id)?.status, 'the superseded one is back in use').to.equal(undefined)
    await p.host.sendPrivate('50001', '#lx撤销记忆')
    expect(last()).to.include('没有可以撤销')
  })

  it('scopes: private memories stay out of groups unless the user allows it; a group\'s stay in that group (prompt and search_memory)', async () => {
    // learnt in group 901
    fake.enqueue({ content: '好' })
    await p.host.sendGroup('901', '50001', '我是这个群的管理员', { at: true })
    await extract([{ content: '是901群的管理员', category: 'profile', confidence: 0.9, kind: 'stated' }])
    expect(rt().need('memory').list({ userId: '50001' }).find((r) => r.content === '是901群的管理员')?.groupId).to.equal('901')

    // in another group: neither the private ones nor group 901's
    fake.enqueue({ content: '你好' })
    await p.host.sendGroup('902', '50001', '大家好，我是谁', { at: true })
    let mem = memoryInPrompt()
    expect(mem).to.not.include('住在上海浦东').and.not.include('是901群的管理员')
    // search_memory there finds nothing of them either
    const tool = rt().need('tools').registry.get('search_memory')!
    const scope = { userId: '50001', groupId: '902', isMaster: false, via: 'bot' as const, conversationId: 'group:902:50001' }
    const found = await tool.execute({ query: '上海 管理员' }, { scope, userPermission: 'member', isMaster: false })
    expect(found.content[0]).to.deep.equal({ type: 'text', text: '[]' })

    // in group 901: its own memory, still not the private ones
    fake.enqueue({ content: '你好' })
    await p.host.sendGroup('901', '50001', '我在群里是什么身份', { at: true })
    mem = memoryInPrompt()
    expect(mem).to.include('是901群的管理员').and.not.include('住在上海浦东')
    // in private: not the group's
    fake.enqueue({ content: '嗯' })
    await p.host.sendPrivate('50001', '我是什么身份')
    expect(memoryInPrompt()).to.include('住在上海浦东').and.not.include('是901群的管理员')

    // the user allows private memories in groups
    await p.host.sendPrivate('50001', '#lx记忆公开 开')
    expect(last()).to.include('在群里也会用上')
    fake.enqueue({ content: '你好' })
    await p.host.sendGroup('902', '50001', '我住哪里', { at: true })
    expect(memoryInPrompt()).to.include('住在上海浦东').and.not.include('是901群的管理员')
    const again = await tool.execute({ query: '上海' }, { scope, userPermission: 'member', isMaster: false })
    expect(again.content[0]).to.have.property('text').that.includes('住在上海浦东')
    await p.host.sendPrivate('50001', '#lx记忆公开 关')
    await p.host.sendPrivate('50001', '#lx记忆公开')
    expect(last()).to.include('只在私聊用')
  })

  it('a summary of a user\'s memories keeps their scope: a group\'s untouched, what was learnt in private stays out of groups', async () => {
    const mem = rt().need('memory')
    const before = mem.list({ userId: '50001' })
    const groupOnes = before.filter((r) => r.groupId !== '').map((r) => r.id)
    const pending = before.filter((r) => r.status !== undefined).map((r) => r.id)
    fake.enqueue({ content: '[profile] 住在上海浦东，是程序员' })
    await summarizeMemories(mem, rt().optional('models'), '50001', { useLLM: true, cleanup: false })
    const after = mem.list({ userId: '50001' })
    for (const id of [...groupOnes, ...pending]) expect(mem.get(id), `memory ${id} is left as it was`).to.not.equal(undefined)
    const line = after.find((r) => r.source === 'summary')!
    expect(line.origin).to.include({ chat: 'private' })
    await p.host.sendPrivate('50001', '#lx记忆公开 关')
    fake.enqueue({ content: '你好' })
    await p.host.sendGroup('902', '50001', '我是做什么的', { at: true })
    expect(memoryInPrompt()).to.not.include('住在上海浦东，是程序员')
  })

  it('#lx忘记我 erases everything, histories and the memory choice included', async () => {
    await p.host.sendPrivate('50001', '#lx记忆公开 开')
    await p.host.sendPrivate('50001', '#lx忘记我')
    expect(rt().need('memory').list({ userId: '50001' })).to.deep.equal([])
    expect([...rt().need('memory')['store'].values()].some((m) => m.userId === '50001')).to.equal(false)
    expect(rt().need('memoryPrefs').privateInGroups('50001', false)).to.equal(false)
  })
})
