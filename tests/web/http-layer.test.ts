// docs/api.md (Envelopes, Errors), README "Security model", through the real server: envelopes and statuses of failures, body limits,
// malformed JSON, unknown routes, CORS, security headers, the dashboard's static files.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

describe('HTTP layer', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('malformed JSON is a 400 with a clear message, never a 500', async () => {
    const r = await s.api('/api/config', { method: 'PUT', body: '{"trigger": {', headers: { 'Content-Type': 'application/json' } })
    expect(r.status).to.equal(400)
    expect(r.body).to.include({ success: false, code: 'INVALID_ARGS' })
    expect(r.body.message).to.match(/Malformed JSON/)
    const login = await s.api('/api/auth/login', { method: 'POST', body: 'token=', headers: { 'Content-Type': 'application/json' } })
    expect(login.status).to.equal(400)
  })

  it('an oversized body is a 413 PAYLOAD_TOO_LARGE and the limit follows the config', async () => {
    await s.lx.rt.config.update({ web: { bodyLimitKb: 16 } })
    try {
      const big = JSON.stringify({ template: 'x'.repeat(32 * 1024) })
      const r = await s.api('/api/logs/placeholders/preview', { method: 'POST', body: big, headers: { 'Content-Type': 'application/json' } })
      expect(r.status).to.equal(413)
      expect(r.body).to.include({ success: false, code: 'PAYLOAD_TOO_LARGE' })
      const small = await s.api('/api/logs/placeholders/preview', { method: 'POST', json: { template: 'ok' } })
      expect(small.status).to.equal(200)
    } finally { await s.lx.rt.config.update({ web: { bodyLimitKb: 1024 } }) }
  })

  it('unknown /api paths are JSON 404s in the style of their group', async () => {
    const a = await s.api('/api/nothing/here')
    expect(a.status).to.equal(404)
    expect(a.headers.get('content-type')).to.match(/json/)
    expect(a.body).to.include({ success: false, code: 'NOT_FOUND' })
    const b = await s.api('/api/knowledge/zzz/yyy/xxx')
    expect(b.status).to.equal(404)
    expect(b.body).to.deep.include({ code: -1, data: null })
    const unauth = await fetch(`${s.base}/api/nothing/here`)
    expect(unauth.status).to.equal(401)
  })

  it('a wrong method is 405 in JSON', async () => {
    const r = await s.api('/api/system/status', { method: 'DELETE' })
    expect(r.status).to.equal(405)
    expect(r.body).to.include({ success: false, code: 'METHOD_NOT_ALLOWED' })
  })

  it('wrong types in a body are 400 with field paths', async () => {
    const r = await s.api('/api/config/groups/42', { method: 'PUT', json: { enabled: 'yes' } })
    expect(r.status).to.equal(400)
    expect(r.body.errors[0].path).to.equal('enabled')
  })

  it('sets security headers and no-store on the API', async () => {
    const r = await s.api('/api/system/status')
    expect(r.headers.get('x-content-type-options')).to.equal('nosniff')
    expect(r.headers.get('x-frame-options')).to.equal('DENY')
    expect(r.headers.get('cache-control')).to.equal('no-store')
  })

  it('CORS: only configured origins get the headers; preflight answered for them', async () => {
    const other = await fetch(`${s.base}/api/system/health`, { headers: { Origin: 'https://evil.example' } })
    expect(other.headers.get('access-control-allow-origin')).to.equal(null)
    await s.lx.rt.config.update({ web: { allowedOrigins: ['https://panel.example'] } })
    try {
      const ok = await fetch(`${s.base}/api/system/health`, { headers: { Origin: 'https://panel.example' } })
      expect(ok.headers.get('access-control-allow-origin')).to.equal('https://panel.example')
      expect(ok.headers.get('access-control-allow-credentials')).to.equal('true')
      const pre = await fetch(`${s.base}/api/config`, { method: 'OPTIONS', headers: { Origin: 'https://panel.example', 'Access-Control-Request-Method': 'PUT' } })
      expect(pre.status).to.equal(204)
      expect(pre.headers.get('access-control-allow-methods')).to.include('PUT')
      const evilPre = await fetch(`${s.base}/api/config`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'PUT' } })
      expect(evilPre.headers.get('access-control-allow-origin')).to.equal(null)
    } finally { await s.lx.rt.config.update({ web: { allowedOrigins: [] } }) }
  })

  it('serves the dashboard without a session, with the SPA fallback, and refuses traversal', async () => {
    const root = await fetch(`${s.base}/`)
    expect(root.status).to.equal(200)
    expect(root.headers.get('content-type')).to.match(/html/)
    const login = await fetch(`${s.base}/login`)
    expect(login.status).to.equal(200)
    expect(await login.text()).to.match(/<html/i)
    const trav = await fetch(`${s.base}/..%2f..%2fpackage.json`)
    expect(trav.status).to.be.oneOf([400, 403, 404])
    expect(await trav.text()).to.not.include('"dependencies"')
  })

  it('survives a burst of bad requests and keeps answering', async () => {
    const bad = Array.from({ length: 40 }, (_, i) => s.api(i % 2 ? '/api/config' : '/api/stats?period=' + i, { method: i % 2 ? 'PUT' : 'GET', body: i % 2 ? '{{{' : null, headers: { 'Content-Type': 'application/json' } }))
    const res = await Promise.all(bad)
    expect(res.every((r) => r.status === 400)).to.equal(true)
    expect((await s.api('/api/system/status')).status).to.equal(200)
  })
})
