// Cross-site request forgery (README, Security model): a cookie-authenticated request that changes state
// must come from the dashboard's own origin (or web.allowedOrigins); Bearer clients are not checked.
// And the JSON API refuses form and text bodies except where a route reads text or an upload.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

describe('origin rule for cookie sessions', function () {
  this.timeout(60_000)
  let s: TestServer
  let own: string
  before(async () => {
    s = await startTestServer()
    own = new URL(s.base).origin
  })
  after(async () => { await s?.close() })

  const cookie = (): string => `lingxi_session=${s.token}`
  const scripts = async (): Promise<string[]> => ((await s.api('/api/tools/js')).body.data as Array<{ name: string }>).map((f) => f.name)
  const createScript = (name: string, headers: Record<string, string>): Promise<Response> =>
    fetch(`${s.base}/api/tools/js`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ name, source: 'export default {}' }) })

  it('refuses a cookie POST with no Origin nor Referer (403, style B envelope), nothing created', async () => {
    const r = await createScript('csrf_none', { Cookie: cookie() })
    expect(r.status).to.equal(403)
    const body = await r.json() as { code: number; message: string }
    expect(body.code).to.equal(-1)
    expect(body.message).to.match(/Cross-site request refused/)
    expect(await scripts()).to.not.include('csrf_none')
  })

  it('refuses a cookie POST from another port of the same host, and from origin "null"', async () => {
    const other = `http://127.0.0.1:${Number(new URL(s.base).port) + 1}`
    for (const origin of [other, 'null', 'http://evil.example', `${own}.evil.example`]) {
      const r = await createScript('csrf_other', { Cookie: cookie(), Origin: origin })
      expect(r.status, origin).to.equal(403)
    }
    const viaReferer = await createScript('csrf_ref', { Cookie: cookie(), Referer: `${other}/page.html` })
    expect(viaReferer.status).to.equal(403)
    // style A route too: the error is in its group's envelope
    const a = await fetch(`${s.base}/api/config`, { method: 'PUT', headers: { Cookie: cookie(), Origin: other, 'Content-Type': 'application/json' }, body: JSON.stringify({ trigger: { prefix: '#pwn' } }) })
    expect(a.status).to.equal(403)
    expect(await a.json()).to.include({ success: false, code: 'FORBIDDEN' })
    expect(s.lx.rt.config.get().trigger.prefix).to.not.equal('#pwn')
    expect(await scripts()).to.not.include('csrf_other')
  })

  it('accepts a cookie POST from the dashboard\'s own origin (Origin, or Referer alone)', async () => {
    const r = await createScript('own_origin', { Cookie: cookie(), Origin: own })
    expect(r.status, await r.clone().text()).to.equal(201)
    const ref = await createScript('own_referer', { Cookie: cookie(), Referer: `${own}/tools` })
    expect(ref.status).to.equal(201)
    expect(await scripts()).to.include.members(['own_origin', 'own_referer'])
  })

  it('accepts web.publicUrl and web.allowedOrigins', async () => {
    const put = await s.api('/api/config', { method: 'PUT', json: { web: { publicUrl: 'https://bot.example.com/panel/', allowedOrigins: ['https://tools.example.org'] } } })
    expect(put.status, put.text).to.equal(200)
    try {
      expect((await createScript('from_public', { Cookie: cookie(), Origin: 'https://bot.example.com' })).status).to.equal(201)
      expect((await createScript('from_allowed', { Cookie: cookie(), Origin: 'https://tools.example.org' })).status).to.equal(201)
      expect((await createScript('from_other', { Cookie: cookie(), Origin: 'https://tools.example.org:8443' })).status).to.equal(403)
    } finally {
      await s.api('/api/config', { method: 'PUT', json: { web: { publicUrl: '', allowedOrigins: [] } } })
    }
  })

  it('reads (GET) with the cookie need no Origin; Bearer clients are never origin-checked', async () => {
    expect((await fetch(`${s.base}/api/system/status`, { headers: { Cookie: cookie() } })).status).to.equal(200)
    const r = await createScript('bearer_foreign', { Authorization: `Bearer ${s.token}`, Origin: 'http://evil.example' })
    expect(r.status).to.equal(201)
  })

  it('a Bearer header wins over the cookie: a junk Bearer with a valid cookie is not authenticated', async () => {
    const r = await createScript('junk_bearer', { Authorization: 'Bearer junk', Cookie: cookie(), Origin: own })
    expect(r.status).to.equal(401)
  })
})

describe('body media types', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s?.close() })

  it('refuses form-encoded and text bodies on JSON routes with 415 and a clear message', async () => {
    for (const [type, body] of [['application/x-www-form-urlencoded', 'name=x&source=1'], ['text/plain', '{"name":"x"}'], ['multipart/form-data; boundary=zz', '--zz--'], ['application/octet-stream', 'x'], ['text/yaml', 'name: x']]) {
      const r = await fetch(`${s.base}/api/tools/js`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': type as string }, body })
      expect(r.status, type).to.equal(415)
      const b = await r.json() as { code: number; message: string }
      expect(b.code).to.equal(-1)
      expect(b.message).to.match(/JSON body \(Content-Type: application\/json\)/)
    }
    const a = await fetch(`${s.base}/api/config`, { method: 'PUT', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'trigger[prefix]=x' })
    expect(a.status).to.equal(415)
    expect(await a.json()).to.include({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('keeps YAML text where the config and preset imports read it, and multipart for the preset upload', async () => {
    const exported = await s.api('/api/config/export')
    expect(exported.status).to.equal(200)
    const imp = await fetch(`${s.base}/api/config/import`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'text/yaml' }, body: exported.text })
    expect(imp.status, await imp.clone().text()).to.equal(200)
    const form = await fetch(`${s.base}/api/config/import`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=b' })
    expect(form.status).to.equal(415)
    expect(((await form.json()) as { message: string }).message).to.match(/text\/yaml/)
    const yaml = 'id: sec-yaml\nname: Sec YAML\nsystemPrompt: hello\n'
    const text = await fetch(`${s.base}/api/presets/import`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'text/yaml' }, body: yaml })
    expect(text.status, await text.clone().text()).to.be.oneOf([200, 201])
    const fd = new FormData()
    fd.append('file', new Blob([yaml.replace(/sec-yaml/g, 'sec-upload')], { type: 'application/x-yaml' }), 'p.yaml')
    const up = await fetch(`${s.base}/api/presets/import`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}` }, body: fd })
    expect(up.status, await up.clone().text()).to.be.oneOf([200, 201])
  })

  it('a POST with no body at all is still fine (no Content-Type needed)', async () => {
    const r = await fetch(`${s.base}/api/config/reload`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}` } })
    expect(r.status).to.equal(200)
  })
})
