// `#lx忘记我` / `#lx我的记忆` in the standalone host with the real plugin.
import { expect } from 'chai'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'

describe('memory: bot commands', function () {
  this.timeout(60_000)
  let p: PluginHost
  before(async () => { p = await startPluginHost('miao', 'lingxi-memory-bot-') })
  after(async () => { await p?.stop() })
  const mem = () => p.run.rt.need('memory')

  it('#lx我的记忆 lists memories in private and only counts them in a group', async () => {
    await mem().add({ userId: '30001', content: '喜欢猫', category: 'preference' })
    await mem().add({ userId: '30001', content: 'Lives in Hangzhou', category: 'profile' })
    const res = await p.host.sendPrivate('30001', '#lx我的记忆')
    expect(res.stage).to.equal('handled')
    const text = p.host.transcript.at(-1)?.text ?? ''
    expect(text).to.include('喜欢猫').and.include('Lives in Hangzhou')
    await p.host.sendGroup('555', '30001', '#lx my memories')
    const inGroup = p.host.transcript.at(-1)?.text ?? ''
    expect(inGroup).to.include('2').and.not.include('喜欢猫')
  })

  it('#lx忘记我 erases every memory of the sender (and only theirs) and its queued turns', async () => {
    await mem().add({ userId: '30002', content: 'Plays piano' })
    await mem().add({ userId: '30002', content: 'Group fact', groupId: '555' })
    await mem().add({ userId: '30003', content: 'Not the sender' })
    await p.host.sendGroup('555', '30002', '#lx忘记我')
    expect(p.host.transcript.at(-1)?.text).to.include('2 条记忆')
    expect(mem().list({ userId: '30002' })).to.deep.equal([])
    expect([...mem()['store'].values()].some((m) => m.userId === '30002')).to.equal(false) // hard: nothing left on disk
    expect(mem().list({ userId: '30003' })).to.have.length(1)
    await p.host.sendPrivate('30002', '#lx forget me')
    expect(p.host.transcript.at(-1)?.text).to.include('没有关于你的记忆')
  })
})
