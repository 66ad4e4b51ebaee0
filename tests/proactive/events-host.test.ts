// Event reactions through the standalone host: pokes (per-type probability), new members
// (notice.group.increase) and recalls (notice.group.recall / notice.friend.recall), each at
// probability 1 and 0, never for the bot's own actions, and never repeating a recalled message.
import { expect } from 'chai'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { spokenMessages } from '../chat/helpers.js'
import { PROFILES } from '../host/helpers.js'

const BOT = '10000'

for (const profile of PROFILES) describe(`event reactions through the standalone host, ${profile} profile`, function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-events-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => { fake.reset() })
  afterEach(async () => { await p.run.rt.config.update({ tools: { eventProbability: 0.1, eventProbabilities: { poke: null, join: 0, recall: 0 } }, groups: {} } as never) })

  const lastInput = (): string => spokenMessages(fake.chatRequests().at(-1)?.body).at(-1)?.content ?? ''
  const sentSince = (i: number) => p.host.transcript.slice(i)
  const events = async (values: { poke?: number; join?: number; recall?: number }, probability = 0.1): Promise<void> => {
    await p.run.rt.config.update({ tools: { eventProbability: probability, eventProbabilities: values } })
  }

  it('a new member at join=1 gets a welcome with their name; at 0 none; the bot joining never', async () => {
    await events({ join: 1 })
    let before = p.host.transcript.length
    await p.host.memberJoined({ groupId: '800', userId: '30001', nickname: '小明' })
    expect(sentSince(before)).to.have.length(1)
    expect(sentSince(before)[0]).to.include({ target: 'group', targetId: '800' })
    expect(lastInput()).to.equal('（小明刚加入了群聊，请用一两句话简短地欢迎一下）')
    expect(sentSince(before)[0]?.text).to.equal(`echo: ${lastInput()}`)

    before = p.host.transcript.length
    await p.host.memberJoined({ groupId: '800', userId: BOT })
    expect(sentSince(before), 'the bot itself joined').to.deep.equal([])
    await events({ join: 0 }, 1)
    await p.host.memberJoined({ groupId: '800', userId: '30002', nickname: '小红' })
    expect(sentSince(before), 'join=0, although the default is 1').to.deep.equal([])
    expect(fake.chatRequests()).to.have.length(1)
  })

  it('a group can set its own probabilities (groups.<id>.events)', async () => {
    await p.run.rt.config.update({ tools: { eventProbabilities: { join: 0 } }, groups: { 801: { events: { join: 1 } } } })
    const before = p.host.transcript.length
    await p.host.memberJoined({ groupId: '802', userId: '30003' })
    await p.host.memberJoined({ groupId: '801', userId: '30004' })
    expect(sentSince(before).map((t) => t.targetId)).to.deep.equal(['801'])
    expect(lastInput()).to.include('user30004')
  })

  it('pokes follow events.poke (probability 1: a reaction; 0: none, whatever the default)', async () => {
    await events({ poke: 0 }, 1)
    let before = p.host.transcript.length
    await p.host.poke({ userId: '30005', groupId: '803' })
    expect(sentSince(before)).to.deep.equal([])
    await events({ poke: 1 }, 0)
    before = p.host.transcript.length
    await p.host.poke({ userId: '30005', groupId: '803' })
    expect(sentSince(before)).to.have.length(1)
    expect(lastInput()).to.include('戳了戳你')
  })

  it('a recall at recall=1 gets a remark that does not hold the recalled text; at 0 none', async () => {
    await events({ recall: 1 })
    const secret = '我的银行卡密码是 778899 千万别告诉别人'
    const e = p.host.makeEvent({ kind: 'group', groupId: '804', userId: '30006', message: secret, nickname: '阿强' })
    await p.host.dispatch(e) // an ordinary message: the group log keeps it
    const before = p.host.transcript.length
    await p.host.recalled({ groupId: '804', userId: '30006', messageId: String(e.message_id) })
    expect(sentSince(before)).to.have.length(1)
    expect(lastInput()).to.equal('（阿强撤回了一条消息）')
    expect(sentSince(before)[0]?.text).to.not.include('778899')
    expect(sentSince(before)[0]?.text).to.not.include('银行卡')
    // the model was never shown it: not in the input, not in the group log context
    expect(JSON.stringify(fake.chatRequests().at(-1)?.body)).to.not.include('778899')

    // someone else recalled it (an admin): named as the operator
    await p.host.recalled({ groupId: '804', userId: '30006', operatorId: '30007', messageId: String(e.message_id) })
    expect(lastInput()).to.equal('（user30007撤回了阿强的一条消息）')

    await events({ recall: 0 }, 1)
    const after = p.host.transcript.length
    await p.host.recalled({ groupId: '804', userId: '30006', messageId: String(e.message_id) })
    expect(sentSince(after)).to.deep.equal([])
  })

  it('a poke in a group with one shared conversation is answered in that conversation', async () => {
    await p.run.rt.config.update({ tools: { eventProbabilities: { poke: 1 } }, groups: { 810: { conversation: 'group' } } })
    await p.host.poke({ userId: '30014', groupId: '810' })
    const store = p.run.rt.need('conversations').store
    expect(store.history('group:810').map((m) => m.content).join('\n')).to.include('戳了戳你')
    expect(store.get('group:810:30014')).to.equal(undefined)
  })

  it('a recalled message leaves the group log: a later @bot turn does not get it as context (also with no remark)', async () => {
    await events({ recall: 0 })
    const e = p.host.makeEvent({ kind: 'group', groupId: '809', userId: '30012', message: '撤回前的秘密内容 5566' })
    await p.host.dispatch(e)
    await p.host.dispatch(p.host.makeEvent({ kind: 'group', groupId: '809', userId: '30013', message: '留下的普通消息' }))
    const log = p.run.rt.need('groupLog')
    expect(log.recent('809', 10).map((x) => x.text)).to.include('撤回前的秘密内容 5566')
    await p.host.recalled({ groupId: '809', userId: '30012', messageId: String(e.message_id) })
    expect(log.recent('809', 10).map((x) => x.text)).to.deep.equal(['留下的普通消息'])
    fake.reset()
    await p.host.dispatch(p.host.makeEvent({ kind: 'group', groupId: '809', userId: '30013', message: '刚才大家说了什么？', atBot: true }))
    const body = JSON.stringify(fake.chatRequests().at(-1)?.body)
    expect(body).to.include('留下的普通消息')
    expect(body).to.not.include('5566')
  })

  it('a model that repeats the recalled text sends nothing (the group log knows the text); failures are only logged', async () => {
    await events({ recall: 1 })
    const secret = '明天下午三点在老地方见面'
    const e = p.host.makeEvent({ kind: 'group', groupId: '805', userId: '30008', message: secret })
    await p.host.dispatch(e)
    fake.enqueue({ content: `哈哈，你刚才说"${secret.slice(2, 11)}"，我都看到了` })
    const before = p.host.transcript.length
    await p.host.recalled({ groupId: '805', userId: '30008', messageId: String(e.message_id) })
    expect(sentSince(before)).to.deep.equal([])
    expect(p.run.rt.log.query({ level: 'warn' }).map((l) => l.message)).to.include('A reaction repeated a recalled message; not sent')

    fake.enqueue({ status: 500 })
    await p.host.memberJoined({ groupId: '805', userId: '30009' }) // join is 0: nothing asked
    await events({ recall: 1, join: 1 })
    await p.host.memberJoined({ groupId: '805', userId: '30009' })
    expect(sentSince(before), 'a failing model: no error message in the group').to.deep.equal([])
    expect(p.run.rt.log.query({ level: 'warn' }).map((l) => l.message)).to.include('No reaction to an event')
  })

  it('never for the bot\'s own actions: its own message recalled, or a recall by the bot; friend recalls answer privately', async () => {
    await events({ recall: 1 })
    const before = p.host.transcript.length
    await p.host.recalled({ groupId: '806', userId: BOT, operatorId: '30010', messageId: '1' })
    await p.host.recalled({ groupId: '806', userId: '30010', operatorId: BOT, messageId: '2' })
    expect(sentSince(before)).to.deep.equal([])
    expect(fake.chatRequests()).to.have.length(0)
    await p.host.recalled({ userId: '30011', messageId: '3' })
    expect(sentSince(before)).to.have.length(1)
    expect(sentSince(before)[0]).to.include({ target: 'private', targetId: '30011' })
  })

  it('a disabled group gets no reaction', async () => {
    await p.run.rt.config.update({ tools: { eventProbabilities: { join: 1, recall: 1 } }, groups: { 807: { enabled: false } } })
    const before = p.host.transcript.length
    await p.host.memberJoined({ groupId: '807', userId: '30012' })
    await p.host.recalled({ groupId: '807', userId: '30012', messageId: '4' })
    expect(sentSince(before)).to.deep.equal([])
  })
})
