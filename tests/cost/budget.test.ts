// Monthly channel budgets (issue 20 point 3) through HTTP: once channel A's cost this month reaches its
// budget, chat turns are answered by channel B (failover as when a channel fails), the log line and the
// `channel` event come once, the channel list shows the spending, and A answers again from the first
// moment of the next month in pricing.timezone (sinon fake Date on the runtime clock).
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('cost: monthly channel budgets', function () {
  this.timeout(30_000)
  let s: TestServer
  let a: FakeOpenAI
  let b: FakeOpenAI
  let clock: sinon.SinonFakeTimers | undefined
  const events: Array<{ name: string; status: string; spending?: { month: string; spent: number } }> = []

  before(async () => {
    a = await startFakeOpenAI()
    b = await startFakeOpenAI()
    s = await startTestServer()
    const rt = s.lx.rt
    await rt.config.update({
      memory: { ...rt.config.get().memory, enabled: false },
      pricing: { currency: 'CNY', timezone: 'Asia/Shanghai', models: [{ model: 'gpt-test', input: 2.5, output: 10 }] },
      channels: [
        { name: 'A', baseUrl: a.url, apiKey: 'sk-a', model: 'gpt-test', priority: 10 },
        { name: 'B', baseUrl: b.url, apiKey: 'sk-b', model: 'gpt-test', priority: 0 }
      ]
    })
    rt.bus.on('system', (name, data) => {
      const d = data as { name: string; status: string; spending?: { month: string; spent: number } }
      if (name === 'channel' && d.name === 'A' && d.spending) events.push(d) // the budget's events (not health changes)
    })
  })
  after(async () => { clock?.restore(); await s?.close(); await a?.close(); await b?.close() })

  /** Moves the runtime clock (Date) and logs in again: a session from another day would have expired. */
  const at = async (iso: string): Promise<void> => {
    clock?.restore()
    clock = sinon.useFakeTimers({ now: Date.parse(iso), toFake: ['Date'] })
    await s.login()
  }
  const chat = async (userId: string): Promise<{ status: number; body: any }> => s.api('/api/chat', { method: 'POST', json: { message: `hi from ${userId}`, userId } })
  const spendingOf = async (name: string): Promise<{ month: string; spent: number | null; budget: number; currency: string; exhausted: boolean }> => {
    const list = (await s.api('/api/config/channels')).body.data as Array<{ name: string; spending: any }>
    return list.find((c) => c.name === name)!.spending
  }
  const budgetLines = (): string[] => s.lx.rt.log.query({ level: 'warn', limit: 1000 }).map((e) => e.message).filter((m) => m.includes('monthly budget'))

  it('shows the budget and the spending in the channel list, and takes the view back on PUT', async () => {
    await at('2026-11-30T15:00:00Z') // 23:00 on 30 November in Shanghai
    const view = (await s.api('/api/config/channels/A')).body.data
    const put = await s.api('/api/config/channels/A', { method: 'PUT', json: { ...view, monthlyBudget: 5 } })
    expect(put.status, put.text).to.equal(200)
    expect(await spendingOf('A')).to.deep.equal({ month: '2026-11', spent: 0, budget: 5, currency: 'CNY', exhausted: false })
    expect(s.lx.rt.config.get().channels[0]!.monthlyBudget).to.equal(5)
  })

  it('fails over to the next channel once the budget is spent; the log line and the event come once', async () => {
    // 600,000 × 2.5 + 400,000 × 10 per million = 5.5 CNY, past A's budget of 5
    a.enqueue({ content: 'from A', usage: { prompt_tokens: 600_000, completion_tokens: 400_000 } })
    const first = await chat('u1')
    expect(first.status).to.equal(200)
    expect(first.body.data.response).to.equal('from A')
    expect(await spendingOf('A')).to.deep.include({ month: '2026-11', spent: 5.5, exhausted: true })

    const second = await chat('u2')
    expect(second.status).to.equal(200)
    expect(second.body.data.response).to.equal('echo: hi from u2')
    expect(b.chatRequests()).to.have.length(1)
    await chat('u3')
    expect(a.chatRequests()).to.have.length(1)
    expect(b.chatRequests()).to.have.length(2)
    expect(budgetLines()).to.have.length(1)
    expect(budgetLines()[0]).to.include('Channel A has spent its monthly budget (2026-11: 5.5 of 5 CNY)')
    expect(events.filter((e) => e.status === 'budget')).to.have.length(1)
    expect(events[0]).to.deep.include({ status: 'budget' })
    expect(events[0]!.spending).to.include({ month: '2026-11', spent: 5.5 })
    const stats = (await s.api('/api/stats/channels')).body.data.channels.find((c: { id: string }) => c.id === 'A')
    expect(stats).to.include({ cost: 5.5 })
    expect(stats.spending).to.include({ exhausted: true })
    // the owner's own test of the channel still reaches it
    const test = await s.api('/api/config/channels/A/test', { method: 'POST', json: {} })
    expect(test.status, test.text).to.equal(200)
    expect(a.chatRequests()).to.have.length(2)
  })

  it('answers 503 when every channel has spent its budget', async () => {
    const put = await s.api('/api/config/channels/B', { method: 'PUT', json: { monthlyBudget: 0.000001 } })
    expect(put.status, JSON.stringify(put.body)).to.equal(200)
    const r = await chat('u4')
    expect(r.status).to.equal(503)
    expect(r.body).to.include({ code: 'CHANNEL_UNAVAILABLE' })
    expect(r.body.message).to.include('Every channel has spent its monthly budget')
    await s.api('/api/config/channels/B', { method: 'PUT', json: { monthlyBudget: 0 } })
  })

  it('uses the channel again from the first moment of the next month in the owner\'s timezone', async () => {
    await at('2026-11-30T15:59:59Z') // 23:59:59 on 30 November in Shanghai: still November
    await chat('u5')
    expect(a.chatRequests()).to.have.length(2)
    await at('2026-11-30T16:00:01Z') // 00:00:01 on 1 December in Shanghai (still November in UTC)
    const r = await chat('u6')
    expect(r.body.data.response).to.equal('echo: hi from u6')
    expect(a.chatRequests()).to.have.length(3)
    const spending = await spendingOf('A')
    expect(spending).to.include({ month: '2026-12', exhausted: false })
    expect(spending.spent).to.be.greaterThan(0).and.lessThan(1)
    expect(events.map((e) => e.status)).to.deep.equal(['budget', 'active'])
    expect(s.lx.rt.log.query({ limit: 1000 }).some((e) => e.message.includes('Channel A is used again'))).to.equal(true)
  })
})

describe('cost: the budget month of a moment (monthKey)', () => {
  it('changes at the first minute of the month in the timezone asked, also right after an answer kept for the minute', async () => {
    const { monthKey } = await import('../../lib/stats/cost.js')
    // 2026-12-01 00:00 in Shanghai (UTC+8) is 2026-11-30 16:00 UTC
    const start = Date.UTC(2026, 10, 30, 16, 0)
    expect(monthKey(start - 1, 'Asia/Shanghai')).to.equal('2026-11')
    expect(monthKey(start, 'Asia/Shanghai')).to.equal('2026-12')
    expect(monthKey(start - 1, 'Asia/Shanghai')).to.equal('2026-11')
    expect(monthKey(start + 59_999, 'Asia/Shanghai')).to.equal('2026-12')
    expect(monthKey(start, 'UTC')).to.equal('2026-11')
    // Kathmandu is UTC+5:45: its month starts at 18:15 UTC
    const ktm = Date.UTC(2026, 10, 30, 18, 15)
    expect(monthKey(ktm - 1, 'Asia/Kathmandu')).to.equal('2026-11')
    expect(monthKey(ktm, 'Asia/Kathmandu')).to.equal('2026-12')
  })
})
