// GET /api/guard (every chat's figure and state, filters, paging, validation) and GET /api/guard/:chat
// through real HTTP; the sends go through the plugin's one watched send path (lib/host/port.ts).
import { expect } from 'chai'
import { watchedSend } from '../../lib/host/port.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('account-risk guard: routes', function () {
  this.timeout(30_000)
  let s: TestServer
  const sent = async (chat: { groupId?: string; userId?: string }, text: string, ok = true): Promise<void> => {
    await watchedSend(chat, text, async () => (ok ? { message_id: 'm1' } : { error: [new Error('blocked')] }))
  }
  before(async () => {
    s = await startTestServer()
    await s.login()
    await s.lx.rt.config.update({ guard: { enabled: true }, groups: { 900: { guard: { maxPerMinute: 5 } } } as never })
  })
  after(async () => { await s?.close() })

  it('lists the chats riskiest first, filtered by state and kind, paged; one chat with its signals', async () => {
    for (let i = 0; i < 5; i++) await sent({ groupId: '900' }, `第${'一二三四五'[i]}句`)
    await sent({ groupId: '901' }, '你好 https://example.com/a', true)
    await sent({ groupId: '901' }, '你好', false)
    await sent({ userId: '20001' }, '私聊一句')

    const all = await s.api('/api/guard')
    expect(all.status, all.text).to.equal(200)
    expect(all.body.code).to.equal(0)
    expect(all.body.data.map((x: any) => x.chat)).to.deep.equal(['900', '901', 'private'])
    expect(all.body.data[0]).to.deep.include({ chat: '900', kind: 'group', state: 'guarded', risk: 100, riskAt: 60, recoverBelow: 30 })
    expect(all.body.data[0].signals).to.deep.include({ perMinute: 5, perHour: 5 })
    expect(all.body.data[1].signals).to.deep.include({ links: 1, failures: 1, perMinute: 2 })
    expect(all.body.data[1].state).to.equal('normal')
    expect(all.body.data[2]).to.deep.include({ chat: 'private', kind: 'private' })

    expect((await s.api('/api/guard?state=atRisk')).body.data.map((x: any) => x.chat)).to.deep.equal(['900'])
    expect((await s.api('/api/guard?state=normal')).body.data.map((x: any) => x.chat)).to.deep.equal(['901', 'private'])
    expect((await s.api('/api/guard?kind=private')).body.data.map((x: any) => x.chat)).to.deep.equal(['private'])
    const page = await s.api('/api/guard?limit=1&offset=1')
    expect(page.body).to.deep.include({ total: 3, limit: 1, offset: 1 })
    expect(page.body.data.map((x: any) => x.chat)).to.deep.equal(['901'])

    const one = await s.api('/api/guard/900')
    expect(one.status).to.equal(200)
    expect(one.body.data).to.deep.include({ chat: '900', state: 'guarded', peak: 100 })
    expect(one.body.data.reasons).to.deep.equal(['perMinute'])
    expect(one.body.data.since).to.be.a('number')
    const quiet = await s.api('/api/guard/12345')
    expect(quiet.body.data).to.deep.include({ chat: '12345', state: 'normal', risk: 0 })
  })

  it('switched off (the default), nothing is counted', async () => {
    await s.lx.rt.config.update({ guard: { enabled: false } })
    try {
      await sent({ groupId: '902' }, '关着呢')
      expect((await s.api('/api/guard')).body.data.map((x: any) => x.chat)).to.not.include('902')
      expect((await s.api('/api/guard/902')).body.data).to.deep.include({ state: 'normal', risk: 0 })
      expect((await s.api('/api/guard/900')).body.data, 'the guarded group of the first test: its figure, no state').to.deep.include({ state: 'normal', risk: 100 })
    } finally {
      await s.lx.rt.config.update({ guard: { enabled: true } })
    }
  })

  it('refuses bad filters and chat ids with 400 and needs a session', async () => {
    for (const q of ['state=angry', 'kind=channel']) {
      const r = await s.api('/api/guard?' + q)
      expect(r.status, q).to.equal(400)
      expect(r.body.code).to.equal(-1)
    }
    expect((await s.api('/api/guard/' + 'x'.repeat(65))).status).to.equal(400)
    expect((await s.api('/api/guard/a.b')).status).to.equal(400)
    const anon = await fetch(`${s.base}/api/guard`)
    expect(anon.status).to.equal(401)
  })
})
