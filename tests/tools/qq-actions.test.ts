// QQ actions (category qq) through the standalone host, both profiles: what reaches the host's group
// object (standalone/moderation.ts records every management call; sends land in the transcript), the
// rules checked before anything runs or the master is asked (the asker's and the target's roles, the
// bot's own role, qqActions and its per-group override), the master's #lx同意 for high-risk actions,
// and a tool call of the fake model in a real chat turn.
import { expect } from 'chai'
import type { ToolResult } from '../../lib/chat/contracts.js'
import type { Runtime } from '../../lib/runtime.js'
import type { ToolCallContext } from '../../lib/tools/types.js'
import type { Account } from '../../standalone/account.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { sentMessages } from '../chat/helpers.js'
import { PROFILES } from '../host/helpers.js'

const ADMIN = '20001'
const ADMIN2 = '20002'
const OWNER = '20003'
const MEMBER = '20004'
const MEMBER2 = '20005'

for (const profile of PROFILES) describe(`QQ actions through the standalone host, ${profile} profile`, function () {
  this.timeout(60_000)
  let p: PluginHost
  let rt: Runtime
  let fake: FakeOpenAI
  let group = 80000
  let g = ''

  const account = (): Account => p.host.bot as unknown as Account
  const actions = (): Account['actions'] => account().actions
  const role = (userId: string, r: 'owner' | 'admin' | 'member'): void => account().setRole(g, userId, r)
  const ctx = (userId: string, opts: { groupId?: string; isMaster?: boolean } = {}): ToolCallContext => {
    const isMaster = opts.isMaster ?? userId === MASTER
    const groupId = 'groupId' in opts ? opts.groupId : g
    return {
      scope: { userId, ...(groupId ? { groupId } : {}), isMaster, via: 'bot', botId: p.host.botId, conversationId: groupId ? `group:${groupId}:${userId}` : `private:${userId}` },
      userPermission: isMaster ? 'master' : 'member',
      isMaster
    }
  }
  const call = (tool: string, args: Record<string, unknown>, c: ToolCallContext): Promise<ToolResult> => rt.need('tools').registry.call(tool, args, c)
  const textOf = (r: ToolResult): string => r.content.map((c) => (c as { text?: string }).text ?? '').join('')

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-qq-actions-')
    rt = p.run.rt
    await rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => {
    g = String(++group)
    actions().length = 0
    role(p.host.botId, 'admin')
    role(ADMIN, 'admin')
    role(ADMIN2, 'admin')
    role(OWNER, 'owner')
  })

  it('are registered in category qq with their risk tiers, and listed by the tool routes', async () => {
    const reg = rt.need('tools').registry
    const qq = reg.list().filter((t) => t.category === 'qq')
    const risk = Object.fromEntries(qq.map((t) => [t.name, reg.riskOf(t)]))
    expect(risk).to.include({ qq_poke: 'low', qq_send_image: 'low', qq_mute_member: 'medium', qq_recall_message: 'medium', qq_kick_member: 'high', qq_mute_all: 'high', qq_send_notice: 'high' })
    expect(qq.map((t) => t.name)).to.include.members(['qq_unmute_member', 'qq_set_card', 'qq_set_title', 'qq_set_essence', 'qq_send_voice', 'qq_send_file', 'qq_send_face', 'qq_send_music'])
    expect(reg.categories().find((c) => c.key === 'qq')?.toolCount).to.equal(qq.length)
  })

  it('an admin has a member muted: muteMember with the seconds asked, cut to maxMuteSeconds', async () => {
    const r = await call('qq_mute_member', { user_id: MEMBER, seconds: 600 }, ctx(ADMIN))
    expect(r.isError, textOf(r)).to.equal(false)
    expect(textOf(r)).to.include('600')
    const long = await call('qq_mute_member', { user_id: MEMBER, seconds: 10 * 86400 }, ctx(ADMIN))
    expect(textOf(long)).to.include('86400')
    const un = await call('qq_unmute_member', { user_id: MEMBER }, ctx(ADMIN))
    expect(un.isError).to.equal(false)
    expect(actions()).to.deep.equal([
      { action: 'mute', groupId: g, userId: MEMBER, params: { duration: 600 } },
      { action: 'mute', groupId: g, userId: MEMBER, params: { duration: 86400 } },
      { action: 'mute', groupId: g, userId: MEMBER, params: { duration: 0 } }
    ])
  })

  it('refuses before any action: a member not allowed, a member on an admin, an admin on an admin, anyone on the owner, the bot itself', async () => {
    const cases: Array<[string, Record<string, unknown>, ToolCallContext, RegExp]> = [
      ['qq_mute_member', { user_id: MEMBER2, seconds: 60 }, ctx(MEMBER), /没有让我执行群管理操作的权限/],
      ['qq_mute_member', { user_id: ADMIN2, seconds: 60 }, ctx(ADMIN), /管理员不能对其他管理员/],
      ['qq_mute_member', { user_id: OWNER, seconds: 60 }, ctx(ADMIN), /群主/],
      ['qq_mute_member', { user_id: OWNER, seconds: 60 }, ctx(MASTER), /群主/],
      ['qq_kick_member', { user_id: p.host.botId }, ctx(MASTER), /我自己/]
    ]
    await rt.config.update({ qqActions: { allowedUsers: [MEMBER2] } })
    cases.push(['qq_mute_member', { user_id: ADMIN, seconds: 60 }, ctx(MEMBER2), /普通成员不能对管理员/])
    for (const [tool, args, c, why] of cases) {
      const r = await call(tool, args, c)
      expect(r.isError, `${tool} ${JSON.stringify(args)} by ${c.scope.userId}`).to.equal(true)
      expect(textOf(r)).to.match(why)
    }
    expect(actions(), 'nothing reached the host').to.deep.equal([])
    // someone in allowedUsers may mute a member
    const ok = await call('qq_mute_member', { user_id: MEMBER, seconds: 60 }, ctx(MEMBER2))
    expect(ok.isError, textOf(ok)).to.equal(false)
    await rt.config.update({ qqActions: { allowedUsers: [] } })
  })

  it('the bot must be admin (owner for titles and for acting on admins): a clear refusal, nothing done', async () => {
    role(p.host.botId, 'member')
    const r = await call('qq_mute_member', { user_id: MEMBER, seconds: 60 }, ctx(MASTER))
    expect(textOf(r)).to.include('我不是本群管理员')
    role(p.host.botId, 'admin')
    const title = await call('qq_set_title', { user_id: MEMBER, title: '龙王' }, ctx(MASTER))
    expect(textOf(title)).to.include('只有群主能做这件事')
    const onAdmin = await call('qq_mute_member', { user_id: ADMIN, seconds: 60 }, ctx(MASTER))
    expect(textOf(onAdmin)).to.include('只有群主能做这件事')
    expect(actions()).to.deep.equal([])
    role(p.host.botId, 'owner')
    expect((await call('qq_set_title', { user_id: MEMBER, title: '龙王' }, ctx(MASTER))).isError).to.equal(false)
    expect((await call('qq_mute_member', { user_id: ADMIN, seconds: 60 }, ctx(MASTER))).isError).to.equal(false)
    expect(actions().map((a) => a.action)).to.deep.equal(['title', 'mute'])
    expect(actions()[0]?.params).to.deep.equal({ title: '龙王', duration: -1 })
  })

  it('a kick asked by an admin waits for the master\'s #lx同意 and runs after it; refused ones never ask', async () => {
    const refused = p.host.transcript.length
    const no = await call('qq_kick_member', { user_id: ADMIN2 }, ctx(ADMIN))
    expect(no.isError).to.equal(true)
    expect(p.host.transcript.slice(refused).some((e) => e.text.includes('需要主人批准')), 'no approval asked for a refused kick').to.equal(false)

    const since = p.host.transcript.length
    const pending = call('qq_kick_member', { user_id: MEMBER }, ctx(ADMIN))
    const asked = await p.host.waitForSend((e) => e.target === 'group' && e.text.includes('需要主人批准'), since)
    expect(asked.text).to.include('qq_kick_member')
    expect(actions(), 'not before the approval').to.deep.equal([])
    const id = /同意 (\d+)/.exec(asked.text)![1]!
    await p.host.sendGroup(g, MASTER, `#lx同意 ${id}`)
    const r = await pending
    expect(r.isError, textOf(r)).to.equal(false)
    expect(actions()).to.deep.equal([{ action: 'kick', groupId: g, userId: MEMBER, params: {} }])

    // the master's own kick, mute-all and notice run at once
    expect((await call('qq_kick_member', { user_id: MEMBER2 }, ctx(MASTER))).isError).to.equal(false)
    expect((await call('qq_mute_all', { enable: true }, ctx(MASTER))).isError).to.equal(false)
    const notice = await call('qq_send_notice', { content: '明晚八点开会' }, ctx(MASTER))
    expect(notice.isError, textOf(notice)).to.equal(false)
    expect(actions().slice(1)).to.deep.equal([
      { action: 'kick', groupId: g, userId: MEMBER2, params: {} },
      { action: 'muteAll', groupId: g, params: { enable: true } },
      { action: 'notice', groupId: g, params: { content: '明晚八点开会' } }
    ])
  })

  it('the approval follows qqActions.approvalRisk and tools.approvalMode; a refusal by the master leaves nothing done', async () => {
    // the master refuses: the tool says so
    let since = p.host.transcript.length
    const refused = call('qq_mute_all', { enable: true }, ctx(ADMIN))
    const asked = await p.host.waitForSend((e) => e.target === 'group' && e.text.includes('需要主人批准'), since)
    await p.host.sendGroup(g, MASTER, `#lx拒绝 ${/同意 (\d+)/.exec(asked.text)![1]!}`)
    expect(textOf(await refused)).to.include('主人拒绝了这个操作')
    // off: nothing asks; medium: a mute asks too; approvalMode deny: what would ask is refused
    await rt.config.update({ qqActions: { approvalRisk: 'off' } })
    expect((await call('qq_kick_member', { user_id: MEMBER }, ctx(ADMIN))).isError).to.equal(false)
    await rt.config.update({ qqActions: { approvalRisk: 'medium' } })
    since = p.host.transcript.length
    const mute = call('qq_mute_member', { user_id: MEMBER, seconds: 60 }, ctx(ADMIN))
    const askedMute = await p.host.waitForSend((e) => e.target === 'group' && e.text.includes('qq_mute_member'), since)
    await p.host.sendGroup(g, MASTER, `#lx同意 ${/同意 (\d+)/.exec(askedMute.text)![1]!}`)
    expect((await mute).isError).to.equal(false)
    await rt.config.update({ qqActions: { approvalRisk: 'high' }, tools: { approvalMode: 'deny' } })
    expect(textOf(await call('qq_kick_member', { user_id: MEMBER2 }, ctx(ADMIN)))).to.include('批准已关闭')
    await rt.config.update({ tools: { approvalMode: 'auto' } })
    expect(actions()).to.deep.equal([
      { action: 'kick', groupId: g, userId: MEMBER, params: {} },
      { action: 'mute', groupId: g, userId: MEMBER, params: { duration: 60 } }
    ])
  })

  it('recalls a member\'s newest logged message (by QQ id) or a message by id; sets essence and cards', async () => {
    const before = p.host.recalls.length
    await p.host.sendGroup(g, MEMBER, '一条要撤回的消息')
    const logged = rt.need('groupLog').recent(g, 10).find((e) => e.text === '一条要撤回的消息')
    expect(logged?.messageId).to.be.a('string')
    const r = await call('qq_recall_message', { user_id: MEMBER }, ctx(ADMIN))
    expect(r.isError, textOf(r)).to.equal(false)
    expect(p.host.recalls.slice(before)).to.deep.equal([logged!.messageId])
    // an id the log does not know: its author is unknown, so only masters and admins may ask
    await rt.config.update({ qqActions: { allowedUsers: [MEMBER2] } })
    expect(textOf(await call('qq_recall_message', { message_id: 'm-unknown' }, ctx(MEMBER2)))).to.include('没有让我执行')
    await rt.config.update({ qqActions: { allowedUsers: [] } })
    expect((await call('qq_recall_message', { message_id: 'm-unknown' }, ctx(ADMIN))).isError).to.equal(false)
    expect(p.host.recalls.slice(before)).to.deep.equal([logged!.messageId, 'm-unknown'])
    expect(textOf(await call('qq_recall_message', { user_id: MEMBER2 }, ctx(ADMIN))), 'nothing logged of them').to.include('找不到要处理的消息')

    expect((await call('qq_set_essence', { message_id: logged!.messageId }, ctx(ADMIN))).isError).to.equal(false)
    expect((await call('qq_set_card', { user_id: MEMBER, card: '新名片' }, ctx(ADMIN))).isError).to.equal(false)
    expect(actions()).to.deep.equal([
      { action: 'essence', groupId: '', params: { message_id: logged!.messageId } },
      { action: 'card', groupId: g, userId: MEMBER, params: { card: '新名片' } }
    ])
  })

  it('sends a poke, an image, a file, a face; music where the host has it; local links refused', async () => {
    const since = p.host.transcript.length
    expect((await call('qq_poke', { user_id: MEMBER }, ctx(MEMBER2))).isError).to.equal(false)
    const img = await call('qq_send_image', { url: 'https://example.com/cat.png' }, ctx(MEMBER2))
    expect(img.isError, textOf(img)).to.equal(false)
    expect((await call('qq_send_face', { face_id: 14 }, ctx(MEMBER2))).isError).to.equal(false)
    const sent = p.host.transcript.slice(since).filter((e) => e.targetId === g)
    expect(sent.flatMap((e) => e.message.map((s) => s.type))).to.deep.equal(['image', 'face'])
    expect(sent[0]?.message[0]).to.include({ file: 'https://example.com/cat.png' })
    expect(actions()).to.deep.equal([{ action: 'poke', groupId: g, userId: MEMBER, params: {} }])

    const file = await call('qq_send_file', { url: 'https://example.com/a.pdf', name: 'a.pdf' }, ctx(MEMBER2))
    const music = await call('qq_send_music', { song_id: '001' }, ctx(MEMBER2))
    if (profile === 'trss') {
      expect(p.host.transcript.at(-1)?.message[0]).to.include({ type: 'file' })
      expect(music.isError).to.equal(true)
      expect(textOf(music)).to.include('不支持音乐卡片')
    } else {
      expect(file.isError, textOf(file)).to.equal(false)
      expect(music.isError, textOf(music)).to.equal(false)
      expect(actions().slice(1).map((a) => a.action)).to.deep.equal(['file', 'music'])
    }
    for (const url of ['file:///etc/passwd', 'http://127.0.0.1:2537/x.png', 'http://localhost/x.png', 'http://[::1]/x.png', 'http://192.168.1.2/x.png']) {
      const r = await call('qq_send_image', { url }, ctx(MASTER))
      expect(r.isError, url).to.equal(true)
      expect(textOf(r)).to.include('http(s)')
    }
  })

  it('only in group chats; qqActions.enabled and a group\'s own qqActions decide per group', async () => {
    const priv = await call('qq_poke', { user_id: MEMBER }, ctx(MASTER, { groupId: undefined }))
    expect(textOf(priv)).to.include('只能在 QQ 群聊中')
    await rt.config.update({ groups: { [g]: { qqActions: { enabled: false } } } })
    expect(textOf(await call('qq_poke', { user_id: MEMBER }, ctx(MASTER)))).to.include('已关闭群操作')
    await rt.config.update({ groups: { [g]: { qqActions: { enabled: true, allowedUsers: [MEMBER2], membersMaySend: false, adminsMayAsk: false } } } })
    expect((await call('qq_mute_member', { user_id: MEMBER, seconds: 60 }, ctx(MEMBER2))).isError, 'listed in this group').to.equal(false)
    expect(textOf(await call('qq_mute_member', { user_id: MEMBER, seconds: 60 }, ctx(ADMIN)))).to.include('没有让我执行')
    expect(textOf(await call('qq_poke', { user_id: MEMBER2 }, ctx(MEMBER)))).to.include('没有让我执行')
    expect(actions().map((a) => a.action)).to.deep.equal(['mute'])
  })

  it('offered to the model in group chats only: a request from a private chat has none of them, and a call of one there reaches nothing', async () => {
    const groupOnly = ['qq_mute_member', 'qq_kick_member', 'qq_recall_message', 'qq_poke', 'qq_send_music', 'get_group_history', 'get_group_info']
    fake.enqueue({ content: '群里好' })
    await p.host.sendGroup(g, MASTER, '你好', { at: true })
    await p.host.waitForSend((e) => e.targetId === g && e.text.includes('群里好'))
    const inGroup = fake.offeredTools()
    for (const name of groupOnly) expect(inGroup, `${name} in a group`).to.include(name)
    fake.enqueue({ toolCalls: [{ name: 'qq_mute_member', arguments: { user_id: MEMBER, seconds: 300 } }] }, { content: '私聊里做不到' })
    await p.host.sendPrivate(MASTER, `把 ${MEMBER} 禁言五分钟`)
    await p.host.waitForSend((e) => e.text.includes('私聊里做不到'))
    const inPrivate = fake.offeredTools(-2)
    for (const name of groupOnly) expect(inPrivate, `${name} in a private chat`).to.not.include(name)
    expect(inPrivate).to.include.members(['get_current_time', 'send_message', 'set_reminder']) // the others stay: a QQ chat
    expect(inGroup).to.include.members(['send_message', 'set_reminder'])
    const tool = sentMessages(fake.chatRequests().at(-1)?.body).find((m) => m.role === 'tool')?.content ?? ''
    expect(tool).to.include('not available in this chat')
    expect(actions()).to.deep.equal([])
  })

  it('a mute the fake model calls in an admin\'s chat turn reaches the host, and the model gets the result', async () => {
    fake.reset()
    fake.enqueue({ toolCalls: [{ name: 'qq_mute_member', arguments: { user_id: MEMBER, seconds: 300 } }] }, { content: '好的，已经禁言他 5 分钟了' })
    const res = await p.host.sendGroup(g, ADMIN, `把 ${MEMBER} 禁言五分钟`, { at: true, role: 'admin' })
    expect(res.stage).to.equal('handled')
    await p.host.waitForSend((e) => e.targetId === g && e.text.includes('已经禁言他'))
    expect(actions()).to.deep.equal([{ action: 'mute', groupId: g, userId: MEMBER, params: { duration: 300 } }])
    const tool = sentMessages(fake.chatRequests().at(-1)?.body).find((m) => m.role === 'tool')?.content ?? ''
    expect(tool).to.include('300')
  })
})
