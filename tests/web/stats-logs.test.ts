// Stats and logs (docs/api.md): statistics from the daily rollups, the log ring buffer, log files, placeholders.
import { expect } from 'chai'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { startTestServer, type TestServer } from '../support/server.js'
import { systemClock } from '../../lib/core/clock.js'
import { StatsStore } from '../../lib/stats/store.js'

describe('stats routes', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('answers zero figures on a fresh install', async () => {
    const r = await s.api('/api/stats')
    expect(r.status).to.equal(200)
    expect(r.body.data.summary.totalMessages ?? r.body.data.summary.messages ?? 0).to.equal(0)
    expect((await s.api('/api/stats/models')).body.data.models).to.deep.equal([])
  })

  it('aggregates recorded messages, model requests and tool calls by period, group, user, model, channel', async () => {
    const st = s.lx.rt.stats
    const clock = sinon.useFakeTimers({ now: Date.parse('2026-11-01T10:00:00Z'), toFake: ['Date'] })
    try {
      st.recordMessage({ userId: 'u-old', groupId: 'g1' })
      st.recordModelRequest({ source: 'chat', channelId: 'c1', channelName: 'Main', model: 'm-old', latencyMs: 100, success: true, promptTokens: 10, completionTokens: 5, userId: 'u-old', groupId: 'g1' })
      clock.setSystemTime(Date.now() + 20 * 86400_000)
      for (let i = 0; i < 3; i++) st.recordMessage({ userId: 'u1', nickname: 'Alice', groupId: 'g1' })
      st.recordMessage({ userId: 'u2', nickname: 'Bob' })
      st.recordModelRequest({ source: 'chat', channelId: 'c1', channelName: 'Main', model: 'm1', latencyMs: 200, success: true, promptTokens: 100, completionTokens: 50, userId: 'u1', nickname: 'Alice', groupId: 'g1' })
      st.recordModelRequest({ source: 'chat', channelId: 'c1', channelName: 'Main', model: 'm1', latencyMs: 400, success: false, error: 'HTTP 500', userId: 'u2' })
      st.recordToolCall({ name: 'get_time', durationMs: 4, success: true, groupId: 'g1' })
      st.recordToolCall({ name: 'get_time', durationMs: 6, success: false })

      const day = (await s.api('/api/stats?period=day')).body.data
      const all = (await s.api('/api/stats?period=all')).body.data
      const dayJson = JSON.stringify(day.summary)
      expect(JSON.stringify(all.summary)).to.not.equal(dayJson)
      expect(day.daily.reduce((n: number, d: { messages: number }) => n + d.messages, 0)).to.equal(4)
      expect(all.daily.reduce((n: number, d: { messages: number }) => n + d.messages, 0)).to.equal(5)
      expect(day.daily.reduce((n: number, d: { tokens: number }) => n + d.tokens, 0)).to.equal(150)
      const g = (await s.api('/api/stats?period=day&groupId=g1')).body.data
      expect(g.daily.reduce((n: number, d: { messages: number }) => n + d.messages, 0)).to.equal(3)
      // distinct users and groups: 'all' reads the all-time maps, shorter periods the union of their days; both agree
      st.recordToolCall({ name: 'list_skills', durationMs: 1, success: true, groupId: 'g-tools' })
      const month = (await s.api('/api/stats?period=month')).body.data.summary
      const ever = (await s.api('/api/stats?period=all')).body.data.summary
      expect(ever).to.include({ activeUsers: 3, activeGroups: 2 })
      expect(month).to.include({ activeUsers: ever.activeUsers, activeGroups: ever.activeGroups })
      expect((await s.api('/api/stats?period=day')).body.data.summary).to.include({ activeUsers: 2, activeGroups: 2 })
      const g1Ever = (await s.api('/api/stats?period=all&groupId=g1')).body.data.summary
      const g1Month = (await s.api('/api/stats?period=month&groupId=g1')).body.data.summary
      expect(g1Ever).to.include({ activeUsers: 2, activeGroups: 1 })
      expect(g1Month).to.include({ activeUsers: 2, activeGroups: 1 })
      expect((await s.api('/api/stats?period=all&groupId=nope')).body.data.summary).to.include({ activeUsers: 0, activeGroups: 0 })

      const models = (await s.api('/api/stats/models')).body.data.models as Array<{ model: string; requests: number; errors: number; avgLatency: number; tokens: number }>
      const m1 = models.find((m) => m.model === 'm1')
      expect(m1).to.include({ requests: 2, errors: 1, avgLatency: 300, tokens: 150 })
      const tools = (await s.api('/api/stats/tools')).body.data.tools
      expect(tools[0]).to.include({ name: 'get_time', calls: 2, avgDuration: 5, successRate: 0.5 })
      const users = (await s.api('/api/stats/users?limit=1&sort=messages')).body.data.users
      expect(users).to.have.length(1)
      expect(users[0]).to.include({ userId: 'u1', nickname: 'Alice', messages: 3 })
      const byTokens = (await s.api('/api/stats/users?sort=tokens')).body.data.users
      expect(byTokens[0].userId).to.equal('u1')
      const groups = (await s.api('/api/stats/groups')).body.data.groups
      expect(groups[0]).to.include({ groupId: 'g1', messages: 4 })
      const channels = (await s.api('/api/stats/channels')).body.data.channels
      expect(channels.find((c: { id: string }) => c.id === 'c1')).to.include({ requests: 3, errors: 1, status: 'removed' })
    } finally { clock.restore() }
  })

  it('refuses bad query values with INVALID_ARGS', async () => {
    for (const q of ['/api/stats?period=year', '/api/stats?groupId=../x', '/api/stats/users?sort=age']) {
      const r = await s.api(q)
      expect(r.status, q).to.equal(400)
      expect(r.body).to.include({ success: false, code: 'INVALID_ARGS' })
    }
    expect((await s.api('/api/stats/users?limit=abc')).status).to.equal(200)
  })

  it('persists across a restart', async () => {
    await s.lx.rt.stats.flush()
    const again = await startTestServer({ dataDir: s.dataDir, keepData: true })
    try {
      const models = (await again.api('/api/stats/models')).body.data.models as Array<{ model: string }>
      expect(models.map((m) => m.model)).to.include('m1')
    } finally { await again.close() }
  })
})

describe('stats files', () => {
  it('writes the daily rollups one file per month and only the months that changed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-stats-'))
    const clock = sinon.useFakeTimers({ now: Date.parse('2026-10-30T10:00:00Z'), toFake: ['Date'] })
    try {
      const st = await StatsStore.open(dataDir, { clock: systemClock, flushMs: 60_000 })
      st.recordMessage({ userId: 'u1' })
      clock.setSystemTime(Date.parse('2026-11-02T10:00:00Z'))
      st.recordMessage({ userId: 'u2', groupId: 'g1' })
      await st.flush()
      const daysDir = join(dataDir, 'stats-days')
      expect(readdirSync(daysDir).sort()).to.deep.equal(['2026-10.json', '2026-11.json'])
      expect(JSON.parse(readFileSync(join(dataDir, 'stats.json'), 'utf8'))).to.not.have.property('days')
      const october = statSync(join(daysDir, '2026-10.json')).mtimeMs
      const novemberBefore = readFileSync(join(daysDir, '2026-11.json'), 'utf8')
      st.recordMessage({ userId: 'u3' }) // November only
      await st.flush()
      expect(statSync(join(daysDir, '2026-10.json')).mtimeMs).to.equal(october)
      const novemberAfter = readFileSync(join(daysDir, '2026-11.json'), 'utf8')
      expect(novemberAfter).to.not.equal(novemberBefore)
      expect(novemberAfter).to.include('u3')
      const again = await StatsStore.open(dataDir, { clock: systemClock })
      expect(again.summary('all').summary).to.include({ totalMessages: 3, activeUsers: 3, activeGroups: 1 })
      expect(again.summary('all').daily.map((d) => d.date)).to.deep.equal(['2026-10-30', '2026-11-02'])
    } finally {
      clock.restore()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('moves the days of the old single-file layout into month files, figures unchanged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-stats-old-'))
    try {
      const day = (messages: number, users: string[]): unknown => ({ messages, responses: 1, toolCalls: 0, tokens: 10, users: Object.fromEntries(users.map((u) => [u, 1])), groups: {} })
      writeFileSync(join(dataDir, 'stats.json'), JSON.stringify({
        days: { '2026-09-30': day(2, ['a']), '2026-10-01': day(3, ['a', 'b']) },
        models: { m: { requests: 2, tokens: 20, latencySum: 10, errors: 0 } }, tools: {},
        users: { a: { nickname: '', messages: 3, tokens: 0, lastActive: 1 }, b: { nickname: '', messages: 2, tokens: 0, lastActive: 1 } },
        groups: {}, channels: {}
      }))
      const st = await StatsStore.open(dataDir)
      expect(readdirSync(join(dataDir, 'stats-days')).sort()).to.deep.equal(['2026-09.json', '2026-10.json'])
      expect(JSON.parse(readFileSync(join(dataDir, 'stats.json'), 'utf8'))).to.not.have.property('days')
      expect(st.summary('all').summary).to.include({ totalMessages: 5, aiResponses: 2, tokensUsed: 20, activeUsers: 2 })
      expect(st.models()[0]).to.include({ model: 'm', requests: 2 })
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('logs routes', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('GET /api/logs filters by level, limit and before', async () => {
    const log = s.lx.rt.log
    log.info('first info line')
    log.warn('a warning line')
    log.error('an error line', { where: 'test' }, new Error('boom'))
    const all = (await s.api('/api/logs?limit=500')).body.data.logs as Array<{ level: string; message: string; timestamp: string }>
    expect(all.map((l) => l.message)).to.include.members(['first info line', 'a warning line', 'an error line'])
    const errs = (await s.api('/api/logs?level=error')).body.data.logs as Array<{ level: string }>
    expect(errs.length).to.be.greaterThan(0)
    expect(errs.every((l) => l.level === 'error')).to.equal(true)
    expect((await s.api('/api/logs?limit=1')).body.data.logs).to.have.length(1)
    const oldest = all.reduce((a, b) => (a.timestamp < b.timestamp ? a : b))
    const before = (await s.api(`/api/logs?before=${encodeURIComponent(oldest.timestamp)}`)).body.data.logs
    expect(before).to.deep.equal([])
    const bad = await s.api('/api/logs?level=loud')
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('INVALID_ARGS')
    expect((await s.api('/api/logs?before=yesterday')).status).to.equal(400)
  })

  it('errors, recent lines from the daily file, the file list', async () => {
    s.lx.rt.log.error('disk is on fire')
    const errors = (await s.api('/api/logs/errors?limit=5')).body.data.errors as Array<{ error: string; stack: string; timestamp: string; context: object }>
    expect(errors.map((e) => e.error)).to.include('disk is on fire')
    expect(errors[0]).to.have.keys(['timestamp', 'error', 'stack', 'context'])
    const recent = (await s.api('/api/logs/recent?lines=50')).body.data.lines as string[]
    expect(recent.some((l) => l.includes('disk is on fire') && l.includes('[ERROR]'))).to.equal(true)
    const files = (await s.api('/api/logs/files')).body.data as Array<{ name: string; size: number }>
    expect(files[0]?.name).to.match(/^lingxi-\d{4}-\d{2}-\d{2}\.log$/)
    expect(files[0]?.size).to.be.greaterThan(0)
  })

  it('log responses carry no stack traces', async () => {
    s.lx.rt.log.error('with a stack', {}, new Error('inner problem'))
    for (const path of ['/api/logs?level=error', '/api/logs/errors']) {
      const text = (await s.api(path)).text
      expect(text).to.include('inner problem')
      expect(text, path).to.not.match(/\\n\s+at /)
      expect(text, path).to.not.include(s.lx.rt.paths.pluginDir)
    }
    await s.lx.rt.log.flush()
    const files = readdirSync(s.lx.rt.paths.logsDir).map((f) => readFileSync(join(s.lx.rt.paths.logsDir, f), 'utf8')).join('')
    expect(files, 'the log file keeps the full trace').to.match(/with a stack[^\n]*\n\s+Error: inner problem\n\s+at /)
  })

  it('tool logs answer an empty list until a tool registry provides them', async () => {
    const r = await s.api('/api/logs/tools?status=success')
    expect(r.status).to.equal(200)
    expect(r.body.data.logs).to.be.an('array')
    expect((await s.api('/api/logs/tools?status=maybe')).status).to.equal(400)
  })

  it('a tool log entry names its tool `toolName`; GET /api/tools/logs (both variants read it) adds `tool`', async () => {
    const call = await s.api('/api/tools/call', { method: 'POST', json: { name: 'get_current_time', args: {} } })
    expect(call.status, call.text).to.equal(200)
    const spec = (await s.api('/api/logs/tools?toolName=get_current_time')).body.data.logs as Array<Record<string, unknown>>
    expect(spec.length).to.be.greaterThan(0)
    expect(spec[0]).to.include({ toolName: 'get_current_time', status: 'success' })
    expect(spec[0]).to.not.have.property('tool')
    const both = (await s.api('/api/tools/logs?tool=get_current_time')).body.data as { logs: Array<Record<string, unknown>>; total: number }
    expect(both.total).to.be.greaterThan(0)
    expect(both.logs[0]).to.include({ toolName: 'get_current_time', tool: 'get_current_time' })
  })

  it('placeholders: list and preview substitution', async () => {
    const list = (await s.api('/api/logs/placeholders')).body.data.placeholders as Array<{ name: string }>
    expect(list.length).to.be.greaterThan(3)
    const names = list.map((p) => p.name)
    const r = await s.api('/api/logs/placeholders/preview', { method: 'POST', json: { template: 'Bearer {{apiKey}} for {{model}} {{unknown_thing}}', context: { apiKey: 'k-1', model: 'gpt-x' } } })
    expect(r.status).to.equal(200)
    expect(r.body.data.result).to.include('Bearer k-1 for gpt-x')
    expect(names.length).to.equal(new Set(names).size)
    const missing = await s.api('/api/logs/placeholders/preview', { method: 'POST', json: { context: {} } })
    expect(missing.status).to.equal(400)
    expect(missing.body.message).to.match(/template/)
    expect((await s.api('/api/logs/placeholders/preview', { method: 'POST', json: { template: 5 } })).status).to.equal(400)
  })
})
