// docs/api.md, system group and Server-sent events: status, info, public health, the live event stream.
import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { UpdateService } from '../../lib/update/service.js'
import { METRIC_INTERVAL_MS, HEARTBEAT_MS } from '../../routes/system.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { sseClient, type SseFrame } from '../support/sse.js'
import { gitFixture, gitIn } from '../update/git-fixture.js'

describe('system routes', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('status reports the running plugin', async () => {
    const r = await s.api('/api/system/status')
    expect(r.status).to.equal(200)
    const d = r.body.data
    expect(d.status).to.equal('running')
    expect(d.version).to.match(/^\d+\.\d+\.\d+/)
    expect(d.uptime).to.be.a('number').at.least(0)
    expect(Date.parse(d.startTime)).to.be.closeTo(s.lx.rt.startedAt, 1000)
    expect(d.memory.used).to.be.greaterThan(1_000_000)
    expect(d.memory.percentage).to.be.within(0, 100)
    expect(d.bot).to.have.keys(['connected', 'platform', 'uin'])
  })

  it('info lists features and counts', async () => {
    const d = (await s.api('/api/system/info')).body.data
    expect(d.runtime).to.equal(`Node.js ${process.version}`)
    expect(d.features).to.have.keys(['mcp', 'memory', 'galgame', 'knowledge'])
    expect(d.totalTools).to.be.a('number')
    expect(d.mcpServers).to.be.a('number')
  })

  it('health is public and checks the data folder', async () => {
    const r = await fetch(`${s.base}/api/system/health`)
    expect(r.status).to.equal(200)
    const body = await r.json() as { success: boolean; data: { healthy: boolean; checks: Record<string, { status: string }> } }
    expect(body.success).to.equal(true)
    expect(body.data.healthy).to.equal(true)
    expect(body.data.checks.database?.status).to.equal('ok')
    expect(body.data.checks.config?.status).to.equal('ok')
    expect(body.data.checks).to.have.property('channels')
  })

  it('status and info need a session', async () => {
    for (const p of ['/api/system/status', '/api/system/info', '/api/system/events']) {
      const r = await fetch(s.base + p)
      expect(r.status, p).to.equal(401)
    }
  })

  describe('GET /api/system/events', () => {
    let clock: sinon.SinonFakeTimers | undefined
    afterEach(() => { clock?.restore(); clock = undefined })

    it('sends status and metric at once, metrics on the interval, heartbeats, errors', async () => {
      clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setInterval', 'clearInterval'] })
      const c = sseClient(`${s.base}/api/system/events`, { headers: { Authorization: `Bearer ${s.token}` } })
      const res = await c.response
      expect(res.status).to.equal(200)
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/)
      expect(res.headers.get('cache-control')).to.equal('no-cache, no-transform') // no-transform: compressing hosts pass it through
      const next = async (): Promise<SseFrame> => (await c.frames.next()).value as SseFrame
      const first = await next()
      expect(first.event).to.equal('status')
      expect(first.json().status).to.equal('running')
      const m0 = await next()
      expect(m0.event).to.equal('metric')
      expect(m0.json()).to.include.keys(['timestamp', 'memory', 'uptime'])
      clock.tick(METRIC_INTERVAL_MS)
      expect((await next()).event).to.equal('metric')
      clock.tick(HEARTBEAT_MS - METRIC_INTERVAL_MS)
      const seen: string[] = []
      for (let i = 0; i < 3; i++) { const f = await next(); seen.push(f.event === 'comment' ? `:${f.comment}` : f.event) }
      expect(seen).to.include(':heartbeat')
      s.lx.rt.log.error('Something broke in a test')
      let err: SseFrame | undefined
      while (!err) { const f = await next(); if (f.event === 'error') err = f }
      expect(err.json().message).to.equal('Something broke in a test')
      c.close()
    })

    it('notices a disconnect and releases its listeners and timers', async () => {
      const bus = s.lx.rt.bus
      const before = bus.listenerCount('system')
      const logBefore = bus.listenerCount('log')
      const c = sseClient(`${s.base}/api/system/events`, { headers: { Cookie: `lingxi_session=${s.token}` } })
      expect((await c.response).status).to.equal(200)
      await c.frames.next()
      expect(bus.listenerCount('system')).to.equal(before + 1)
      c.close()
      const deadline = Date.now() + 5000
      while (bus.listenerCount('system') > before && Date.now() < deadline) await new Promise((r) => setImmediate(r))
      expect(bus.listenerCount('system')).to.equal(before)
      expect(bus.listenerCount('log')).to.equal(logBefore)
    })

    it('forwards system events published by other domains', async () => {
      const c = sseClient(`${s.base}/api/system/events`, { headers: { Authorization: `Bearer ${s.token}` } })
      await c.response
      await c.frames.next()
      s.lx.rt.bus.emit('system', 'channel', { name: 'main', status: 'error' })
      let f: SseFrame | undefined
      while (!f) { const x = (await c.frames.next()).value as SseFrame; if (x.event === 'channel') f = x }
      expect(f.json()).to.deep.equal({ name: 'main', status: 'error' })
      c.close()
    })
  })
})

describe('graceful stop', () => {
  it('ends open SSE streams, flushes the stats and frees the port', async () => {
    const s = await startTestServer()
    const c = sseClient(`${s.base}/api/system/events`, { headers: { Authorization: `Bearer ${s.token}` } })
    await c.response
    await c.frames.next()
    s.lx.rt.stats.recordMessage({ userId: 'u-stop' })
    const { port } = s.lx.web
    await s.lx.stop()
    // The loop ends only when the server closed the stream (else the test times out).
    const rest: string[] = []
    for await (const f of c.frames) rest.push(f.event)
    expect(rest.every((e) => e !== 'status')).to.equal(true)
    const { readFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    expect(readFileSync(join(s.dataDir, 'stats.json'), 'utf8')).to.include('u-stop')
    const again = await fetch(`http://127.0.0.1:${port}/api/system/health`).then(() => 'answered', () => 'refused')
    expect(again).to.equal('refused')
    await s.close()
  })
})

// docs/api.md, Version and updates: a refused check names why in details.reason (lib/update/version.ts
// RefusalReason), which the dashboard's version card decides on instead of the English message.
describe('system routes: a refused version check says why in details.reason', function () {
  this.timeout(60_000)
  let s: TestServer
  let original: UpdateService | undefined
  const temp: string[] = []
  before(async () => { s = await startTestServer(); original = s.lx.rt.need('update') })
  after(async () => {
    if (original && s) { s.lx.rt.withdraw('update'); s.lx.rt.provide('update', original) }
    await s?.close()
    for (const t of temp) rmSync(t, { recursive: true, force: true })
  })
  const refusal = async (root: string): Promise<{ status: number, body: { success: boolean, code: string, message: string, details?: unknown } }> => {
    s.lx.rt.withdraw('update')
    s.lx.rt.provide('update', new UpdateService(s.lx.rt, root))
    const r = await s.api('/api/system/version/check', { method: 'POST' })
    return { status: r.status, body: r.body }
  }

  it('noGit, noUpstream (409 CONFLICT) and fetchFailed (502 CONNECTION_FAILED)', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'lingxi-system-plain-'))
    temp.push(plain)
    writeFileSync(join(plain, 'package.json'), '{"version":"1.0.0"}\n')
    const noGit = await refusal(plain)
    expect(noGit.status).to.equal(409)
    expect(noGit.body).to.deep.include({ success: false, code: 'CONFLICT', details: { reason: 'noGit' } })

    const lone = mkdtempSync(join(tmpdir(), 'lingxi-system-lone-'))
    temp.push(lone)
    gitIn(lone, 'init', '--quiet')
    writeFileSync(join(lone, 'package.json'), '{"version":"1.0.0"}\n')
    gitIn(lone, 'add', '-A')
    gitIn(lone, 'commit', '--quiet', '-m', 'alone')
    const noUpstream = await refusal(lone)
    expect(noUpstream.status).to.equal(409)
    expect(noUpstream.body).to.deep.include({ code: 'CONFLICT', details: { reason: 'noUpstream' } })

    const repo = gitFixture()
    temp.push(repo.dir)
    rmSync(repo.remote, { recursive: true, force: true })
    const fetchFailed = await refusal(repo.checkout)
    expect(fetchFailed.status).to.equal(502)
    expect(fetchFailed.body).to.deep.include({ code: 'CONNECTION_FAILED', details: { reason: 'fetchFailed' } })
    expect(fetchFailed.body.message).to.match(/^git fetch failed/)
  })

  it('other failures carry no details', async () => {
    const r = await s.api('/api/config/channels/nope', { method: 'DELETE' })
    expect(r.status).to.equal(404)
    expect(r.body).to.not.have.property('details')
  })
})
