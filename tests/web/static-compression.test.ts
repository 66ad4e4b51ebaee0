// The dashboard's files are built with brotli and gzip twins (resources/vite.config.ts) and sent as the
// request's Accept-Encoding allows (routes/_http/static.ts), directly and through TRSS's shared mount with
// Express's compression in front. Built here, into a temp folder: the project's resources/dist is read
// by the browser suites running beside this one (tests/README.md, "Running in parallel").
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { expect } from 'chai'
import Koa from 'koa'
import { staticMiddleware } from '../../routes/_http/static.js'
import { sharedMountHandler } from '../../routes/_http/shared-mount.js'

const PLUGIN_DIR = join(import.meta.dirname, '..', '..')

interface Raw { status: number; headers: IncomingHttpHeaders; body: Buffer }

/** One request with node:http, which (unlike fetch) leaves the body as sent. */
function get (base: string, path: string, init: { method?: string; encoding?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {}
    if (init.encoding !== undefined) headers['Accept-Encoding'] = init.encoding
    // the path as written (a URL would resolve its dot segments before sending)
    const url = new URL(base)
    const req = request({ host: url.hostname, port: url.port, path: url.pathname.replace(/\/$/, '') + path, method: init.method ?? 'GET', headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (d: Buffer) => parts.push(d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

function decoded (r: Raw): Buffer {
  const enc = r.headers['content-encoding']
  if (enc === 'br') return brotliDecompressSync(r.body)
  if (enc === 'gzip') return gunzipSync(r.body)
  expect(enc ?? 'identity').to.equal('identity')
  return r.body
}

function listen (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; base: string }> {
  const server = createServer(handler)
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })))
}

function close (server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve()
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

describe('dashboard files precompressed', function () {
  this.timeout(120_000)
  let dir = ''
  let dist = ''
  let direct: { server: Server; base: string } | undefined
  let mounted: { server: Server; base: string } | undefined
  let assets: string[] = []

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lingxi-static-'))
    dist = join(dir, 'resources', 'dist')
    const vite = join(createRequire(join(PLUGIN_DIR, 'package.json')).resolve('vite/package.json'), '..', 'bin', 'vite.js')
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [vite, 'build', '-c', join(PLUGIN_DIR, 'resources', 'vite.config.ts'), '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
        { cwd: PLUGIN_DIR, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } })
      let err = ''
      child.stderr.on('data', (d: Buffer) => { err += d.toString() })
      child.on('error', reject)
      child.on('close', (code) => code === 0 ? resolve() : reject(new Error(`vite build failed: ${err}`)))
    })
    assets = readdirSync(join(dist, 'assets')).filter((f) => /\.(?:js|css|svg)$/.test(f))
    const app = new Koa()
    app.use(staticMiddleware(dir))
    direct = await listen(app.callback())
    // TRSS's Express runs compression before the mount (routes/_http/shared-mount.ts)
    const require = createRequire(import.meta.url)
    type Mw = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void
    const express = require('express') as () => ((req: IncomingMessage, res: ServerResponse) => void) & { use(...a: Array<string | Mw>): unknown }
    const host = express()
    host.use((require('compression') as () => Mw)())
    host.use('/lingxi', sharedMountHandler(app, '/lingxi'))
    const m = await listen(host)
    mounted = { server: m.server, base: `${m.base}/lingxi` }
  })
  after(async () => {
    await close(direct?.server)
    await close(mounted?.server)
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('builds a .br and a .gz beside every script, style and the page, under content-hashed names', () => {
    expect(assets.length).to.be.above(5)
    for (const f of [...assets.map((a) => join('assets', a)), 'index.html']) {
      const raw = readFileSync(join(dist, f))
      expect(brotliDecompressSync(readFileSync(join(dist, `${f}.br`))).equals(raw), `${f}.br`).to.equal(true)
      expect(gunzipSync(readFileSync(join(dist, `${f}.gz`))).equals(raw), `${f}.gz`).to.equal(true)
    }
    for (const a of assets) expect(a, 'a content hash in the name').to.match(/-[\w-]{8}\.(?:js|css|svg)$/)
  })

  for (const where of ['direct', 'shared mount'] as const) {
    it(`sends each asset as br, gzip or plain by Accept-Encoding, with the same bytes (${where})`, async () => {
      const base = (where === 'direct' ? direct : mounted)!.base
      for (const a of assets) {
        const plain = readFileSync(join(dist, 'assets', a))
        const type = a.endsWith('.js') ? /javascript/ : a.endsWith('.css') ? /text\/css/ : /image\/svg/
        // brotli whenever it is acceptable at all (the smaller file), then gzip, else the plain file
        for (const [accept, want] of [['br, gzip', 'br'], ['gzip, deflate, br;q=0.5', 'br'], ['gzip', 'gzip'], ['br;q=0, gzip', 'gzip'], ['identity', undefined], [undefined, undefined]] as const) {
          const r = await get(base, `/assets/${a}`, { encoding: accept })
          const label = `${where} ${a} Accept-Encoding: ${accept ?? '(none)'}`
          expect(r.status, label).to.equal(200)
          expect(r.headers['content-encoding'], label).to.equal(want)
          expect(decoded(r).equals(plain), label).to.equal(true)
          expect(r.headers['content-type'], label).to.match(type)
          expect(r.headers.vary ?? '', label).to.match(/accept-encoding/i)
          expect(r.headers['cache-control'], label).to.equal('public, max-age=31536000, immutable')
          if (r.headers['content-length'] !== undefined) expect(Number(r.headers['content-length']), label).to.equal(r.body.length)
          else expect(where, `${label}: only Express's compression may stream without a length`).to.equal('shared mount')
        }
      }
    })
  }

  it('gives the smaller twin: brotli and gzip bodies are the build\'s files, with their own lengths', async () => {
    const a = assets.find((f) => f.startsWith('index-') && f.endsWith('.js'))!
    const br = await get(direct!.base, `/assets/${a}`, { encoding: 'br' })
    expect(br.body.equals(readFileSync(join(dist, 'assets', `${a}.br`)))).to.equal(true)
    expect(Number(br.headers['content-length'])).to.equal(br.body.length)
    const gz = await get(direct!.base, `/assets/${a}`, { encoding: 'gzip' })
    expect(gz.body.equals(readFileSync(join(dist, 'assets', `${a}.gz`)))).to.equal(true)
    expect(br.body.length).to.be.below(gz.body.length)
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const a = assets[0]
    for (const enc of ['br', 'gzip', 'identity']) {
      const head = await get(direct!.base, `/assets/${a}`, { method: 'HEAD', encoding: enc })
      const full = await get(direct!.base, `/assets/${a}`, { encoding: enc })
      expect(head.status).to.equal(200)
      expect(head.body.length).to.equal(0)
      for (const h of ['content-encoding', 'content-length', 'content-type', 'cache-control', 'vary']) expect(head.headers[h], `${enc} ${h}`).to.equal(full.headers[h])
    }
  })

  it('serves index.html (also for client routes) compressed with no-cache', async () => {
    const page = readFileSync(join(dist, 'index.html'))
    for (const path of ['/', '/login', '/channels']) {
      for (const enc of ['br', 'gzip', 'identity']) {
        const r = await get(direct!.base, path, { encoding: enc })
        expect(r.status, path).to.equal(200)
        expect(decoded(r).equals(page), `${path} ${enc}`).to.equal(true)
        expect(r.headers['content-type'], path).to.match(/text\/html/)
        expect(r.headers['cache-control'], path).to.equal('no-cache')
        expect(r.headers.vary ?? '', path).to.match(/accept-encoding/i)
        expect(r.headers['content-encoding'] ?? 'identity').to.equal(enc)
      }
    }
  })

  it('falls back to the plain file when a twin is missing', async () => {
    const a = assets.find((f) => f.endsWith('.css'))!
    rmSync(join(dist, 'assets', `${a}.br`))
    const r = await get(direct!.base, `/assets/${a}`, { encoding: 'br, gzip' })
    expect(r.headers['content-encoding']).to.equal('gzip')
    rmSync(join(dist, 'assets', `${a}.gz`))
    const plain = await get(direct!.base, `/assets/${a}`, { encoding: 'br, gzip' })
    expect(plain.status).to.equal(200)
    expect(plain.headers['content-encoding']).to.equal(undefined)
    expect(plain.body.equals(readFileSync(join(dist, 'assets', a)))).to.equal(true)
  })

  it('keeps the first load of the login and overview pages under 60 KB of JavaScript gzipped', () => {
    // a chunk and what it imports statically (the chunks the browser fetches before it runs)
    const graph = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen
      seen.add(file)
      const code = readFileSync(join(dist, 'assets', file), 'utf8')
      for (const m of code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+from\s*)?"\.\/([\w.-]+\.js)"/g)) graph(m[1]!, seen)
      return seen
    }
    const html = readFileSync(join(dist, 'index.html'), 'utf8')
    const scripts = [...html.matchAll(/<script[^>]*\ssrc="\.\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]!)
    expect(scripts.some((f) => f.startsWith('index-')), html).to.equal(true)
    const login = new Set(scripts.flatMap((f) => [...graph(f)]))
    const entry = scripts.find((f) => f.startsWith('index-'))!
    const overviewChunk = /"\.\/(overview-[\w-]+\.js)"/.exec(readFileSync(join(dist, 'assets', entry), 'utf8'))?.[1]
    expect(overviewChunk, 'the overview page is a chunk of its own').to.be.a('string')
    const overview = new Set([...login, ...graph(overviewChunk!)])
    const size = (files: Set<string>, ext: '.gz' | '.br'): number => [...files].reduce((n, f) => n + readFileSync(join(dist, 'assets', f + ext)).length, 0)
    for (const [name, files] of [['login', login], ['overview', overview]] as const) {
      const gz = size(files, '.gz')
      console.log(`      first-load JavaScript of the ${name} page: ${[...files].join(', ')}: ${(gz / 1024).toFixed(1)} KB gzip, ${(size(files, '.br') / 1024).toFixed(1)} KB brotli`)
      expect(gz, `${name}: ${[...files].join(', ')}`).to.be.below(60 * 1024)
    }
  })

  it('refuses every spelling of a path out of the dashboard folder', async () => {
    // a file beside dist that must never be reachable
    expect(existsSync(join(PLUGIN_DIR, 'package.json'))).to.equal(true)
    const secret = readFileSync(join(PLUGIN_DIR, 'package.json'))
    const attempts = [
      '/../package.json', '/assets/../../package.json', '/assets/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/assets/%252e%252e%252f%252e%252e%252fpackage.json', '/..%5c..%5cpackage.json',
      '/assets/..\\..\\package.json', '/assets/%5c..%5c..%5cpackage.json', '/%2e%2e%5c%2e%2e%5cpackage.json', '/assets/..%00/package.json',
      '/assets/%c0%ae%c0%ae/package.json', '/.vite/manifest.json', '/assets/.%2e/.%2e/package.json'
    ]
    for (const where of [direct!.base, mounted!.base]) {
      for (const path of attempts) {
        for (const enc of ['br', 'gzip', 'identity']) {
          const r = await get(where, path, { encoding: enc })
          const body = r.status === 200 ? decoded(r) : r.body
          expect(body.includes(Buffer.from('"lingxi-plugin"')), `${where}${path} leaked package.json`).to.equal(false)
          expect(body.equals(secret)).to.equal(false)
          expect([200, 400, 403, 404], `${path}: ${r.status}`).to.include(r.status)
          if (r.status === 200) expect(r.headers['content-type'], `${path} may only answer with the page`).to.match(/text\/html/)
        }
      }
    }
  })
})
