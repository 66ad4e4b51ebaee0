// Under TRSS with web.sharePort the API and dashboard are also served on the host's own server at /lingxi.
// The real host (tests/realhost) runs Express body parsers and compression in front of the mount; the
// second suite here puts the same middleware (Express 5, its body parsers, compression) in front of the
// plugin's app so those fixes are tested in every run.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { expect } from 'chai'
import Koa from 'koa'
import type { Host } from '../../standalone/host.js'
import { SHARED_MOUNT as SHARED_MOUNT_PATH } from '../../routes/_http/server.js'
import { sharedMountHandler } from '../../routes/_http/shared-mount.js'
import { MASTER, startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { sseClient, type SseFrame } from '../support/sse.js'

describe('TRSS shared port', function () {
  this.timeout(60_000)
  let host: Host
  let ph: PluginHost
  before(async () => {
    ph = await startPluginHost('trss', 'lingxi-trss-')
    host = ph.host
    await host.sendPrivate(MASTER, '#lx面板')
  })
  after(async () => { await ph?.stop() })

  it('answers the API, logs in and serves the dashboard under /lingxi on the host port', async () => {
    const base = `${host.url}/lingxi`
    const health = await fetch(`${base}/api/system/health`)
    expect(health.status).to.equal(200)
    expect(((await health.json()) as { success: boolean }).success).to.equal(true)
    const text = host.transcript.at(-1)?.text ?? ''
    const token = /\/lingxi\/login#token=([\w-]+)/.exec(text)?.[1]
    expect(token, text).to.be.a('string')
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(login.status).to.equal(200)
    const session = ((await login.json()) as { data: { token: string } }).data.token
    const status = await fetch(`${base}/api/system/status`, { headers: { Authorization: `Bearer ${session}` } })
    expect(status.status).to.equal(200)
    const page = await fetch(`${base}/`)
    expect(page.status).to.equal(200)
    expect(page.headers.get('content-type')).to.match(/html/)
    expect((await fetch(`${base}/api/nowhere`, { headers: { Authorization: `Bearer ${session}` } })).status).to.equal(404)
  })

  it('redirects /lingxi to /lingxi/ (keeping the query) so the relative assets resolve', async () => {
    for (const [path, location] of [['/lingxi', 'lingxi/'], ['/lingxi?lang=en', 'lingxi/?lang=en']]) {
      const res = await fetch(`${host.url}${path}`, { redirect: 'manual' })
      expect(res.status, path).to.equal(301)
      expect(res.headers.get('location'), path).to.equal(location)
    }
    const followed = await fetch(`${host.url}/lingxi`)
    expect(followed.url).to.equal(`${host.url}/lingxi/`)
    expect(followed.headers.get('content-type')).to.match(/html/)
  })
})

type Mw = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void
interface ExpressApp { (req: IncomingMessage, res: ServerResponse): void; use(...a: Array<string | Mw>): ExpressApp }
interface ExpressModule { (): ExpressApp; json(): Mw; urlencoded(o: { extended: boolean }): Mw; raw(): Mw; text(): Mw }

describe('TRSS shared port behind Express body parsers and compression', function () {
  this.timeout(60_000)
  const require = createRequire(import.meta.url)
  let s: TestServer
  let server: Server
  let base = ''
  before(async () => {
    s = await startTestServer()
    // Express 5 (installed with the MCP SDK) and compression (a dependency of the standalone host)
    const express = require('express') as ExpressModule
    const app = express()
    // the middleware TRSS-Yunzai mounts before plugin routes, in its order (see tests/realhost/README.md)
    app.use((require('compression') as () => Mw)())
    app.use(express.urlencoded({ extended: false })).use(express.json()).use(express.raw()).use(express.text())
    app.use(SHARED_MOUNT_PATH, sharedMountHandler(s.lx.web.app, SHARED_MOUNT_PATH))
    server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${SHARED_MOUNT_PATH}`
  })
  after(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server ? server.close(resolve) : resolve(undefined))
    await s?.close()
  })

  const auth = (): Record<string, string> => ({ Authorization: `Bearer ${s.token}` })

  it('logs in with a JSON body the host already parsed', async () => {
    const { token } = s.lx.rt.loginTokens.issue({ userId: '10001', isMaster: true })
    const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(res.status, await res.clone().text()).to.equal(200)
    const session = ((await res.json()) as { data: { token: string } }).data.token
    expect((await fetch(`${base}/api/auth/verify`, { headers: { Authorization: `Bearer ${session}` } })).status).to.equal(200)
  })

  it('saves the config through the mount', async () => {
    const res = await fetch(`${base}/api/config`, { method: 'PUT', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ path: 'trigger.prefix', value: '小犀' }) })
    expect(res.status, await res.clone().text()).to.equal(200)
    expect(s.lx.rt.config.get().trigger.prefix).to.equal('小犀')
  })

  it('takes a text body the host parsed where a route wants text', async () => {
    const yaml = s.lx.rt.config.exportYaml()
    const res = await fetch(`${base}/api/config/import`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'text/plain' }, body: yaml })
    expect(res.status, await res.clone().text()).to.equal(200)
  })

  it('answers form and octet-stream bodies on JSON routes with a client error, never a 500', async () => {
    for (const [type, body] of [['application/x-www-form-urlencoded', 'path=trigger.prefix&value=x'], ['application/octet-stream', 'abc'], ['text/plain', '{"path":"trigger.prefix","value":"y"}']]) {
      const res = await fetch(`${base}/api/config`, { method: 'PUT', headers: { ...auth(), 'Content-Type': type }, body })
      expect(res.status, `${type}: ${await res.clone().text()}`).to.be.within(400, 499)
    }
    expect(s.lx.rt.config.get().trigger.prefix).to.not.equal('x')
  })

  it('streams events unbuffered: no-transform, and each frame arrives while the stream stays open', async () => {
    const c = sseClient(`${base}/api/system/events`, { headers: { ...auth(), 'Accept-Encoding': 'gzip, deflate, br' } })
    const res = await c.response
    expect(res.status).to.equal(200)
    expect(res.headers.get('cache-control')).to.match(/\bno-transform\b/)
    expect(res.headers.get('content-encoding'), 'the stream must not be compressed').to.equal(null)
    const next = async (): Promise<SseFrame> => {
      const r = await Promise.race([c.frames.next(), new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no frame within 3 s: buffered')), 3000))])
      return r.value as SseFrame
    }
    expect((await next()).event).to.equal('status')
    s.lx.rt.log.error('frame through the mount')
    let f: SseFrame
    do { f = await next() } while (f.event !== 'error')
    expect(f.json().message).to.equal('frame through the mount')
    c.close()
  })

  it('passes any event stream through the mount unbuffered, also one written without openSse (the MCP SDK)', async () => {
    const raw = new Koa()
    raw.use((ctx) => {
      ctx.respond = false
      ctx.res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      ctx.res.write('data: {"n":1}\n\n')
    })
    const express = require('express') as ExpressModule
    const app = express().use((require('compression') as () => Mw)())
    app.use(SHARED_MOUNT_PATH, sharedMountHandler(raw, SHARED_MOUNT_PATH))
    const srv = createServer(app)
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
    const c = sseClient(`http://127.0.0.1:${(srv.address() as AddressInfo).port}${SHARED_MOUNT_PATH}/stream`, { headers: { 'Accept-Encoding': 'gzip' } })
    try {
      const res = await c.response
      expect(res.headers.get('cache-control')).to.equal('no-cache, no-transform')
      expect(res.headers.get('content-encoding')).to.equal(null)
      let timer: NodeJS.Timeout | undefined
      const first = await Promise.race([c.frames.next(), new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('no frame within 3 s: buffered')), 3000) })])
      clearTimeout(timer)
      expect((first.value as SseFrame).json()).to.deep.equal({ n: 1 })
    } finally {
      c.close()
      srv.closeAllConnections()
      await new Promise((resolve) => srv.close(resolve))
    }
  })

})
