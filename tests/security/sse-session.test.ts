// Event streams end with their session (docs/api.md, Server-sent events): logout and refresh revoke the session
// that opened a stream, and a session that expires ends it too (the injectable clock, rt.clock).
import { request, type IncomingMessage } from 'node:http'
import { expect } from 'chai'
import type { Clock } from '../../lib/core/clock.js'
import { startTestServer, type TestServer } from '../support/server.js'

interface OpenStream { status: number; type: string; ended: Promise<'ended'>; close(): void }

function openStream (base: string, path: string, headers: Record<string, string>): Promise<OpenStream> {
  const u = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers }, (res: IncomingMessage) => {
      const ended = new Promise<'ended'>((done) => { res.on('end', () => done('ended')); res.on('close', () => done('ended')) })
      res.resume()
      resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), ended, close: () => req.destroy() })
    })
    req.on('error', reject)
    req.end()
  })
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'still open'> =>
  Promise.race([p, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))])

/** A clock whose time the test moves; timers fire when it passes them. */
function manualClock (start: number): Clock & { advanceTo(t: number): void } {
  let now = start
  let seq = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  const clock = {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => { const id = ++seq; timers.set(id, { at: now + ms, fn }); return { id, unref () {} } as unknown as NodeJS.Timeout },
    clearTimeout: (t: NodeJS.Timeout) => { timers.delete((t as unknown as { id: number }).id) },
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (t: NodeJS.Timeout) => clearInterval(t),
    advanceTo (t: number) {
      now = t
      for (const [id, timer] of [...timers]) if (timer.at <= now) { timers.delete(id); timer.fn() }
    }
  }
  return clock
}

describe('event streams end with their session', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s?.close() })

  const fresh = (): string => s.lx.rt.sessions.issue('10001', true).token
  const STREAMS = ['/api/system/events', '/api/skills/sse']

  for (const path of STREAMS) {
    it(`${path}: logout of the session that opened it (cookie) ends the stream`, async () => {
      const token = fresh()
      const st = await openStream(s.base, path, { Cookie: `lingxi_session=${token}`, Accept: 'text/event-stream' })
      try {
        expect(st.status).to.equal(200)
        expect(st.type).to.include('text/event-stream')
        expect(await within(st.ended, 300)).to.equal('still open')
        const out = await fetch(`${s.base}/api/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
        expect(out.status).to.equal(200)
        expect(await within(st.ended, 5000)).to.equal('ended')
      } finally { st.close() }
    })
  }

  it('refresh revokes the old session and ends its streams; streams of other sessions stay open', async () => {
    const token = fresh()
    const mine = await openStream(s.base, '/api/system/events', { Authorization: `Bearer ${token}` })
    const other = await openStream(s.base, '/api/system/events', { Authorization: `Bearer ${s.token}` })
    try {
      const r = await fetch(`${s.base}/api/auth/refresh`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
      expect(r.status).to.equal(200)
      expect(await within(mine.ended, 5000)).to.equal('ended')
      expect(await within(other.ended, 300)).to.equal('still open')
    } finally { mine.close(); other.close() }
  })

  it('a stream ends when its session expires (rt.clock)', async () => {
    const real = s.lx.rt.clock
    const clock = manualClock(Date.now())
    s.lx.rt.clock = clock
    try {
      const { token, expiresAt } = s.lx.rt.sessions.issue('10001', true)
      const st = await openStream(s.base, '/api/system/events', { Authorization: `Bearer ${token}` })
      try {
        expect(st.status).to.equal(200)
        clock.advanceTo(expiresAt - 1000)
        expect(await within(st.ended, 300)).to.equal('still open')
        clock.advanceTo(expiresAt + 1)
        expect(await within(st.ended, 5000)).to.equal('ended')
      } finally { st.close() }
    } finally { s.lx.rt.clock = real }
  })

  it('a revoked session cannot open a stream at all', async () => {
    const token = fresh()
    await fetch(`${s.base}/api/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
    const st = await openStream(s.base, '/api/system/events', { Authorization: `Bearer ${token}` })
    st.close()
    expect(st.status).to.equal(401)
  })
})
