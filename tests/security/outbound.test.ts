// The outbound fetcher (lib/web/outbound.ts) through each caller that fetches a URL someone else chose:
// a custom HTTP tool, the remote drawing-preset source, the image sent with a drawing request (the
// gateway's images edit path), a voice message's URL, and an image link a drawing API answers with.
// Listeners on loopback COUNT what reaches them: a refused address must never see a request. No
// public-looking name can be had here, so the allowed side is the master's `web.allowPrivateHosts`
// naming 127.0.0.1 (and 127.0.0.3), and the forbidden side is 127.0.0.2, [::1] and the metadata address.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { transcribe } from '../../lib/input/transcribe.js'
import { outboundAccess } from '../../lib/web/outbound.js'
import { startTestServer, type TestServer } from '../support/server.js'

interface Seen { method: string; url: string; headers: IncomingMessage['headers']; body: string }
interface Listener { url: string; hits: Seen[]; server: Server; port: number }

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex')])

/** A listener on `host` that records every request and answers by path (see the routes below). */
async function listen (host: string): Promise<Listener | undefined> {
  const hits: Seen[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => { body += c.toString('utf8') })
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      const u = new URL(req.url ?? '/', 'http://x')
      const to = u.searchParams.get('to')
      if (u.pathname.startsWith('/redirect') && to) {
        res.writeHead(Number(u.searchParams.get('status') ?? 302), { Location: to }).end()
      } else if (u.pathname === '/presets.json') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify([{ uid: 'p1', keywords: ['像素'], prompt: 'pixel {{input}}' }]))
      } else if (u.pathname.endsWith('.png')) {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG)
      } else if (u.pathname.endsWith('/images/generations')) {
        // a drawing API that answers with a link: the link is the query's `img`
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ created: 0, data: [{ url: LINK.current }] }))
      } else {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`ok ${req.method} ${req.url}`)
      }
    })
  })
  try {
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, host, resolve) })
  } catch {
    return undefined // no IPv6 loopback here
  }
  const port = (server.address() as AddressInfo).port
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, hits, server, port }
}
const LINK = { current: '' }

describe('security: one outbound fetcher for every chosen address', function () {
  this.timeout(60_000)
  let s: TestServer
  let probe: Listener // 127.0.0.1: forbidden until the master names it
  let probe6: Listener | undefined // [::1]
  let forbidden: Listener // 127.0.0.2: never named
  let other: Listener // 127.0.0.3: named, another origin
  const refusedCalls: string[] = []

  before(async () => {
    s = await startTestServer()
    probe = (await listen('127.0.0.1'))!
    probe6 = await listen('::1')
    forbidden = (await listen('127.0.0.2'))!
    other = (await listen('127.0.0.3'))!
  })
  after(async () => {
    for (const l of [probe, probe6, forbidden, other]) if (l) { l.server.closeAllConnections(); await new Promise((r) => l.server.close(r)) }
    await s?.close()
  })
  const allow = (hosts: string[]): Promise<unknown> => s.lx.rt.config.update({ web: { allowPrivateHosts: hosts } })

  /** Every spelling of loopback (at the probe's port) and of the metadata address. */
  const loopbackForms = (path: string): string[] => {
    const p = probe.port
    return [
      `http://127.0.0.1:${p}${path}`, `http://localhost:${p}${path}`, `http://2130706433:${p}${path}`, `http://0x7f000001:${p}${path}`,
      `http://0x7f.0.0.1:${p}${path}`, `http://0177.0.0.1:${p}${path}`, `http://127.1:${p}${path}`,
      `http://[::ffff:127.0.0.1]:${p}${path}`, `http://[::ffff:7f00:1]:${p}${path}`,
      ...(probe6 ? [`http://[::1]:${probe6.port}${path}`] : [])
    ]
  }
  const metadataForms = (path: string): string[] => [
    `http://169.254.169.254${path}`, `http://2852039166${path}`, `http://0xa9fea9fe${path}`, `http://0251.0376.0251.0376${path}`,
    `http://0xa9.0xfe.0xa9.0xfe${path}`, `http://[::ffff:169.254.169.254]${path}`
  ]
  const hitCount = (): number => probe.hits.length + (probe6?.hits.length ?? 0) + forbidden.hits.length

  // ---- the callers, each answering the error text of a refused fetch ('' when it went through) ----

  let toolN = 0
  /** A custom HTTP tool on `url`, called once: its result text. */
  async function customTool (url: string, extra: Record<string, unknown> = {}, args: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string }> {
    const name = `probe_${++toolN}`
    const created = await s.api('/api/tools/custom', { method: 'POST', json: { name, description: 'probe', action: { type: 'http', url, timeoutMs: 3000, ...extra } } })
    expect(created.status, created.text).to.equal(201)
    const r = await s.api('/api/tools/call', { method: 'POST', json: { name, args } })
    if (r.status === 500) return { isError: true, text: String(r.body.message) }
    expect(r.status, r.text).to.equal(200)
    return { isError: r.body.data.result.isError, text: r.body.data.result.content[0].text }
  }
  const viaTool = async (url: string): Promise<string> => { const r = await customTool(url); return r.isError ? r.text : '' }
  const viaPresets = async (url: string): Promise<string> => {
    await s.lx.rt.config.update({ image: { remotePresetsUrl: url } })
    try { await s.lx.rt.need('drawing').refreshRemote(3000); return '' } catch (err) { return (err as Error).message }
  }
  const viaDrawingImage = async (url: string): Promise<string> => {
    // the image a user sent with 手办化 goes to the images edit API: it is downloaded first
    try {
      await s.lx.rt.need('models').generateImages!({ prompt: 'figure', image: url, api: { name: 'probe', baseUrl: `${probe.url}/v1` }, signal: AbortSignal.timeout(5000) })
      return ''
    } catch (err) { return (err as Error).message }
  }
  const viaVoice = async (url: string): Promise<string> => {
    // transcription is pointed at the probe too: a voice that is downloaded would then be sent there
    try {
      await transcribe({ baseUrl: '', apiKey: '', model: 'whisper-1' }, { type: 'record', url }, outboundAccess(s.lx.rt.config.get()))
      return ''
    } catch (err) { return (err as Error).message }
  }
  const callers: Array<[string, (url: string) => Promise<string>, string]> = [
    ['custom tool', viaTool, '/tool'],
    ['remote preset source', viaPresets, '/presets.json'],
    ['drawing input image', viaDrawingImage, '/cat.png'],
    ['voice URL', viaVoice, '/voice.amr']
  ]

  describe('nothing named: loopback and the metadata address refused in every spelling, before any request', () => {
    before(() => allow([]))
    for (const [label, call, path] of callers) {
      it(`${label}: refused, and no listener saw a request`, async function () {
        const before = hitCount()
        for (const url of [...loopbackForms(path), ...metadataForms(path)]) {
          const err = await call(url)
          expect(err, url).to.match(/refused/)
          refusedCalls.push(url)
        }
        expect(hitCount(), 'requests that reached a refused listener').to.equal(before)
      })
    }
  })

  describe('127.0.0.1 named by the master: it is reached, a redirect out of it is not', () => {
    before(() => allow(['127.0.0.1', '127.0.0.3']))
    for (const [label, call, path] of callers) {
      it(`${label}: a redirect to 127.0.0.2, [::1], localhost's IPv6 or the metadata address is refused (the target never sees it)`, async function () {
        const targets = [`${forbidden.url}${path}`, 'http://169.254.169.254/latest/meta-data/', 'http://2852039166/latest/meta-data/', ...(probe6 ? [`${probe6.url}${path}`] : [])]
        for (const to of targets) {
          for (const status of [302, 307]) {
            const from = `${probe.url}/redirect?status=${status}&to=${encodeURIComponent(to)}`
            const before = forbidden.hits.length + (probe6?.hits.length ?? 0)
            const err = await call(from)
            expect(err, `${from}`).to.match(/refused/)
            expect(forbidden.hits.length + (probe6?.hits.length ?? 0), to).to.equal(before)
          }
        }
      })
    }

    it('the named host is reached: a custom tool, the preset source and the drawing image go through', async () => {
      expect((await customTool(`${probe.url}/tool?q={{q}}`, {}, { q: 'a b' })).text).to.equal('ok GET /tool?q=a%20b')
      expect(await viaPresets(`${probe.url}/presets.json`)).to.equal('')
      expect(s.lx.rt.need('drawing').all().remote.presets.map((p) => p.uid)).to.deep.equal(['p1'])
      // the image downloads, then the (fake, answering text) images API fails: an error that is not a refusal
      expect(await viaDrawingImage(`${probe.url}/cat.png`)).to.not.match(/refused/)
      expect(probe.hits.some((h) => h.url === '/cat.png')).to.equal(true)
    })

    it('a drawing API that answers with a link into 127.0.0.2: the link is not fetched', async () => {
      LINK.current = `${forbidden.url}/drawn.png`
      await s.lx.rt.config.update({ image: { enabled: true, apis: [{ name: 'probe', baseUrl: `${probe.url}/v1`, apiKey: 'sk-probe', models: ['m'] }] } })
      const before = forbidden.hits.length
      const r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'draw_image', args: { prompt: 'a cat' } } })
      expect(r.status, r.text).to.equal(200)
      expect(JSON.stringify(r.body.data.result.content)).to.match(/could not be fetched[^"]*refused/)
      expect(forbidden.hits.length).to.equal(before)
      await s.lx.rt.config.update({ image: { enabled: false, apis: [] } })
    })
  })

  describe('custom tools: credentials, methods and bodies across redirects', () => {
    before(() => allow(['127.0.0.1', '127.0.0.3']))
    const headers = { 'X-Api-Key': 'xk-secret-abc', Authorization: 'Bearer sk-tool-secret', 'X-Custom-Token': 'ct-secret', Accept: 'text/plain' }

    it('a redirect to another origin drops X-Api-Key, Authorization and every configured secret header; the same origin keeps them', async () => {
      other.hits.length = 0
      await customTool(`${probe.url}/redirect?status=302&to=${encodeURIComponent(`${other.url}/landed`)}`, { headers })
      const landed = other.hits.at(-1)!
      expect(landed.url).to.equal('/landed')
      expect(landed.headers).to.not.have.any.keys('x-api-key', 'authorization', 'x-custom-token', 'cookie')
      expect(landed.headers.accept).to.equal('text/plain')
      expect(JSON.stringify(landed.headers)).to.not.include('secret')
      // the first hop had them
      const first = probe.hits.filter((h) => h.url.startsWith('/redirect')).at(-1)!
      expect(first.headers).to.include({ 'x-api-key': 'xk-secret-abc', authorization: 'Bearer sk-tool-secret', 'x-custom-token': 'ct-secret' })
      // a redirect within the first origin keeps them
      await customTool(`${probe.url}/redirect?status=302&to=${encodeURIComponent('/same')}`, { headers })
      expect(probe.hits.at(-1)).to.deep.include({ url: '/same' })
      expect(probe.hits.at(-1)!.headers).to.include({ 'x-api-key': 'xk-secret-abc' })
    })

    it('a POST redirected with 303 goes on as GET without a body; 307 and 308 keep method and body (without the secrets)', async () => {
      const body = '{"q":"{{q}}"}'
      for (const [status, method, sent] of [[303, 'GET', ''], [307, 'POST', '{"q":"x"}'], [308, 'POST', '{"q":"x"}']] as const) {
        await customTool(`${probe.url}/redirect?status=${status}&to=${encodeURIComponent(`${other.url}/after-${status}`)}`, { method: 'POST', headers, body }, { q: 'x' })
        const landed = other.hits.at(-1)!
        expect(landed, String(status)).to.deep.include({ url: `/after-${status}`, method, body: sent })
        expect(landed.headers, String(status)).to.not.have.any.keys('x-api-key', 'authorization', 'x-custom-token')
        if (method === 'GET') expect(landed.headers, String(status)).to.not.have.any.keys('content-type', 'content-length')
      }
    })
  })

  describe('custom tools: arguments encoded for where they stand', () => {
    before(() => allow(['127.0.0.1']))
    const lastBody = (): string => probe.hits.at(-1)!.body

    it('JSON body: a quote in the argument cannot end the string (no extra field); a bare placeholder is a JSON value', async () => {
      const evil = 'x","admin":true,"y":"'
      await customTool(`${probe.url}/json`, { method: 'POST', body: '{"q":"{{q}}"}' }, { q: evil })
      const parsed = JSON.parse(lastBody()) as Record<string, unknown>
      expect(parsed).to.deep.equal({ q: evil })
      expect(probe.hits.at(-1)!.headers['content-type']).to.equal('application/json')
      await customTool(`${probe.url}/json`, { method: 'POST', body: '{"q": {{q}}, "n": {{n}}, "missing": {{none}}, "text": "a \\"{{q}}\\" b"}' }, { q: 'say "hi"\\\n', n: 3 })
      expect(JSON.parse(lastBody())).to.deep.equal({ q: 'say "hi"\\\n', n: 3, missing: null, text: 'a "say "hi"\\\n" b' })
    })

    it('URL: an argument is one percent-encoded component (no extra parameter or path)', async () => {
      await customTool(`${probe.url}/q?term={{t}}&page=1`, {}, { t: 'a&admin=1#/../x' })
      const u = new URL(probe.hits.at(-1)!.url, 'http://x')
      expect(u.pathname).to.equal('/q')
      expect([...u.searchParams.entries()]).to.deep.equal([['term', 'a&admin=1#/../x'], ['page', '1']])
    })

    it('form body: an argument is form-encoded (no extra field)', async () => {
      await customTool(`${probe.url}/form`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'q={{q}}&lang=zh' }, { q: 'a b&admin=true' })
      expect([...new URLSearchParams(lastBody()).entries()]).to.deep.equal([['q', 'a b&admin=true'], ['lang', 'zh']])
    })
  })
})
