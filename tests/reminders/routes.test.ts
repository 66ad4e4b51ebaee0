// GET /api/reminders (filters, paging, validation) and DELETE /api/reminders/:id through real HTTP.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ReminderActor } from '../../lib/reminders/service.js'

describe('reminders: routes', function () {
  this.timeout(30_000)
  let s: TestServer
  const svc = () => s.lx.rt.need('reminders')
  const alice: ReminderActor = { userId: '20001', groupId: '555', isMaster: false, isGroupAdmin: false }
  const bob: ReminderActor = { userId: '20002', isMaster: false, isGroupAdmin: false }
  before(async () => {
    s = await startTestServer()
    await s.login()
    await s.lx.rt.config.update({ reminders: { ...s.lx.rt.config.get().reminders, timezone: 'Asia/Shanghai' } })
  })
  after(async () => { await s?.close() })

  it('lists pending reminders soonest first, filtered by user, group or chat, and paged', async () => {
    const a1 = await svc().create(alice, { when: '10分钟后', message: '喝水' })
    const a2 = await svc().create(alice, { when: '5分钟后', message: '收衣服' })
    const b1 = await svc().create(bob, { when: 'every day at 7pm', message: 'pills' })
    const all = await s.api('/api/reminders')
    expect(all.status, all.text).to.equal(200)
    expect(all.body.code).to.equal(0)
    expect(all.body.data.map((r: any) => r.id)).to.deep.equal([a2.id, a1.id, b1.id])
    expect(all.body.data[0]).to.include({ userId: '20001', groupId: '555', message: '收衣服', timeZone: 'Asia/Shanghai' })
    expect(all.body.data[0].next).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d$/)
    expect(all.body.data[2].repeat).to.equal('每天 19:00')
    expect((await s.api('/api/reminders?userId=20002')).body.data.map((r: any) => r.id)).to.deep.equal([b1.id])
    expect((await s.api('/api/reminders?groupId=555')).body.data.map((r: any) => r.id)).to.deep.equal([a2.id, a1.id])
    expect((await s.api('/api/reminders?chat=private')).body.data.map((r: any) => r.id)).to.deep.equal([b1.id])
    const page = await s.api('/api/reminders?limit=1&offset=1')
    expect(page.body).to.deep.include({ total: 3, limit: 1, offset: 1 })
    expect(page.body.data.map((r: any) => r.id)).to.deep.equal([a1.id])
  })

  it('refuses bad filters and ids with 400, unknown ids with 404, and needs a session', async () => {
    for (const q of ['userId=a/b', 'groupId=' + 'x'.repeat(65), 'chat=channel']) {
      const r = await s.api('/api/reminders?' + q)
      expect(r.status, q).to.equal(400)
      expect(r.body.code).to.equal(-1)
    }
    expect((await s.api('/api/reminders/..%2Fx', { method: 'DELETE' })).status).to.equal(400)
    expect((await s.api('/api/reminders/rzzzzz', { method: 'DELETE' })).status).to.equal(404)
    const anon = await fetch(s.base + '/api/reminders')
    expect(anon.status).to.equal(401)
  })

  it('reminders.timezone must be a timezone Intl knows: a typo is refused through the config API', async () => {
    const r = await s.api('/api/config/reminders', { method: 'PUT', json: { ...s.lx.rt.config.get().reminders, timezone: 'Asia/Shanghia' } })
    expect(r.status, r.text).to.equal(400)
    expect(r.text).to.include('timezone')
    expect(s.lx.rt.config.get().reminders.timezone).to.equal('Asia/Shanghai')
    const ok = await s.api('/api/config/reminders', { method: 'PUT', json: { ...s.lx.rt.config.get().reminders, timezone: 'Europe/Berlin' } })
    expect(ok.status, ok.text).to.equal(200)
    expect(s.lx.rt.config.get().reminders.timezone).to.equal('Europe/Berlin')
    expect(svc().timeZone).to.equal('Europe/Berlin')
  })

  it('DELETE cancels any reminder (the dashboard is the master\'s); it is gone from the list', async () => {
    const r = await svc().create(bob, { when: '30分钟后', message: 'call' })
    const del = await s.api(`/api/reminders/${r.id}`, { method: 'DELETE' })
    expect(del.status, del.text).to.equal(200)
    expect(del.body.data).to.deep.include({ success: true })
    expect(del.body.data.reminder).to.include({ id: r.id, status: 'cancelled' })
    expect(svc().get(r.id)).to.equal(undefined)
    expect((await s.api(`/api/reminders/${r.id}`, { method: 'DELETE' })).status).to.equal(404)
  })
})
