// The QQ actions in the management API (issue 19 point 7): the tool routes, the skills listings and
// the category switch list them as category qq with their risk tiers, as the dashboard's tool page
// reads them; outside a QQ group chat (the API, the test panel) they answer that they need one.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

const QQ_TOOLS = ['qq_mute_member', 'qq_unmute_member', 'qq_mute_all', 'qq_kick_member', 'qq_recall_message', 'qq_set_card', 'qq_set_title',
  'qq_set_essence', 'qq_send_notice', 'qq_poke', 'qq_send_image', 'qq_send_voice', 'qq_send_file', 'qq_send_face', 'qq_send_music']

describe('QQ actions in the tool routes and skills listings', function () {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('GET /api/tools/list and /api/tools/builtin/categories: every QQ action, category qq, risk tiers', async () => {
    const r = await s.api('/api/tools/list')
    const qq = (r.body.data as Array<{ name: string; category: string; risk: string; dangerous: boolean }>).filter((t) => t.category === 'qq')
    expect(qq.map((t) => t.name).sort()).to.deep.equal([...QQ_TOOLS].sort())
    const risk = Object.fromEntries(qq.map((t) => [t.name, t.risk]))
    expect(risk).to.include({ qq_poke: 'low', qq_send_image: 'low', qq_mute_member: 'medium', qq_set_card: 'medium', qq_kick_member: 'high', qq_mute_all: 'high', qq_send_notice: 'high' })
    // offered without allowDangerous: the rules and the master's approval gate them instead
    expect(qq.every((t) => t.dangerous === false)).to.equal(true)
    const c = await s.api('/api/tools/builtin/categories')
    expect(c.body.data.find((x: { key: string }) => x.key === 'qq')).to.deep.include({ key: 'qq', toolCount: QQ_TOOLS.length, enabled: true })
  })

  it('GET /api/skills/categories and /api/skills/tools list them; switching the category off turns them off', async () => {
    const cats = await s.api('/api/skills/categories')
    expect(cats.body.data.find((x: { key: string }) => x.key === 'qq')).to.deep.include({ toolCount: QQ_TOOLS.length, enabled: true })
    const tools = await s.api('/api/skills/tools')
    const names = JSON.stringify(tools.body.data)
    for (const n of QQ_TOOLS) expect(names).to.include(n)
    const off = await s.api('/api/skills/categories/qq/toggle', { method: 'POST', json: { enabled: false } })
    expect(off.status).to.equal(200)
    const reg = s.lx.rt.need('tools').registry
    expect(QQ_TOOLS.filter((n) => reg.isEnabled(n))).to.deep.equal([])
    await s.api('/api/skills/categories/qq/toggle', { method: 'POST', json: { enabled: true } })
    expect(QQ_TOOLS.filter((n) => reg.isEnabled(n))).to.deep.equal(QQ_TOOLS)
  })

  it('their settings: GET/PUT /api/config/qqActions (validated), and a group\'s own in the config', async () => {
    const r = await s.api('/api/config/qqActions')
    expect(r.body.data).to.deep.equal({ enabled: true, allowedUsers: [], adminsMayAsk: true, membersMaySend: true, maxMuteSeconds: 86400, approvalRisk: 'high' })
    const put = await s.api('/api/config/qqActions', { method: 'PUT', json: { allowedUsers: ['123456'], approvalRisk: 'medium' } })
    expect(put.status).to.equal(200)
    expect(s.lx.rt.config.get().qqActions).to.include({ approvalRisk: 'medium', adminsMayAsk: true })
    for (const bad of [{ allowedUsers: ['not-a-qq-id'] }, { maxMuteSeconds: 10 }, { approvalRisk: 'sometimes' }, { nope: true }]) {
      const res = await s.api('/api/config/qqActions', { method: 'PUT', json: bad })
      expect(res.status, JSON.stringify(bad)).to.equal(400)
    }
    // the group route sets and unsets a group's own (null = the global value again)
    const g = await s.api('/api/config/groups/4242', { method: 'PUT', json: { qqActions: { adminsMayAsk: false, membersMaySend: false } } })
    expect(g.status).to.equal(200)
    expect(s.lx.rt.config.get().groups['4242']?.qqActions).to.deep.equal({ adminsMayAsk: false, membersMaySend: false })
    await s.api('/api/config/groups/4242', { method: 'PUT', json: { qqActions: { membersMaySend: null } } })
    expect(s.lx.rt.config.get().groups['4242']?.qqActions).to.deep.equal({ adminsMayAsk: false })
    // the mute cap and the approval tier are the master's alone: not per group
    expect((await s.api('/api/config/groups/4242', { method: 'PUT', json: { qqActions: { maxMuteSeconds: 600 } } })).status).to.equal(400)
    await s.api('/api/config/qqActions', { method: 'PUT', json: { allowedUsers: [], approvalRisk: 'high' } })
  })

  it('called outside a QQ group chat (the master through the API) they say so and do nothing', async () => {
    const r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'qq_mute_member', args: { user_id: '12345', seconds: 60 } } })
    expect(r.body.code).to.equal('EXECUTION_ERROR')
    expect(JSON.stringify(r.body)).to.include('只能在 QQ 群聊中执行群操作')
  })
})
