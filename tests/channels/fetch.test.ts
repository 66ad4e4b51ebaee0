// lib/channels/fetch.ts: the channels' fetch (undici's request() behind the fetch signature) must answer
// as Node's global fetch does: compared here request by request against two real local servers (a
// second origin for a redirect across origins).
import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AnswerTooLarge, channelFetch, MAX_ANSWER_BYTES } from '../../lib/channels/fetch.js'
import { jsonBodyOptions } from '../../lib/channels/request-body.js'
import { startEndlessServer } from '../support/endless.js'
import { waitFor } from './helpers.js'

const read = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function serve (handler: (req: IncomingMessage, body: string, res: import('node:http').ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => { void read(req).then((body) => { handler(req, body, res) }) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe('channels: the fetch under the openai client', () => {
  let main: { url: string; server: Server }
  let other: { url: string; server: Server }
  const echo = (req: IncomingMessage, body: string, res: import('node:http').ServerResponse): void => {
    res.setHeader('Content-Type', 'application/json')
    res.end(JSON.stringify({ method: req.method, path: req.url, body, type: req.headers['content-type'] ?? null, auth: req.headers.authorization ?? null, custom: req.headers['x-custom'] ?? null }))
  }
  before(async () => {
    other = await serve(echo)
    main = await serve((req, body, res) => {
      const path = req.url ?? '/'
      if (path === '/echo') return echo(req, body, res)
      const m = /^\/r(30[1-8])$/.exec(path)
      if (m) { res.writeHead(Number(m[1]), { Location: '/echo' }); res.end(); return }
      if (path === '/cross') { res.writeHead(307, { Location: `${other.url}/echo` }); res.end(); return }
      if (path === '/nobody') { res.writeHead(204, { 'X-Custom': 'empty' }); res.end(); return }
      if (path === '/cookies') { res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['X-Custom', 'one'], ['Content-Type', 'text/plain; charset=utf-8']]); res.end('多字节 ✓'); return }
      if (path === '/fail') { res.writeHead(500, { 'Content-Type': 'application/json' }); res.end('{"error":{"message":"upstream broke"}}'); return }
      if (path === '/stream') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' })
        let n = 0
        const tick = setInterval(() => { res.write(`data: ${n}\n\n`); if (++n === 3) { clearInterval(tick); res.end() } }, 20)
        return
      }
      if (path === '/hang') return // never answers
      if (path === '/declared-huge') { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(MAX_ANSWER_BYTES + 1) }); res.write('{"choices":['); return } // then nothing
      if (path === '/partial') { res.writeHead(200, { 'Content-Type': 'application/json' }); res.write('{"choices":['); return } // then nothing
      if (path === '/bom') { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"多字节"}')])); return }
      res.writeHead(404); res.end('no')
    })
  })
  after(() => {
    for (const s of [main, other]) { s.server.closeAllConnections(); s.server.close() }
  })

  const headersOf = (r: Response): Record<string, unknown> => ({
    type: r.headers.get('content-type'), custom: r.headers.get('x-custom'), cookies: r.headers.getSetCookie()
  })
  const answer = async (f: typeof fetch, path: string, init: RequestInit = {}): Promise<unknown> => {
    const r = await f(`${main.url}${path}`, init)
    return { status: r.status, ok: r.ok, headers: headersOf(r), text: await r.text() }
  }
  const post = (body: RequestInit['body'], headers: RequestInit['headers'] = { 'content-type': 'application/json', authorization: 'Bearer sk-secret', 'x-custom': 'c' }): RequestInit => ({ method: 'POST', body, headers })

  it('answers every request as the global fetch does', async () => {
    const json = '{"model":"m","messages":[{"role":"user","content":"你好"}]}'
    const cases: Array<[string, RequestInit]> = [
      ['/echo', post(json)],
      ['/echo', post(Buffer.from(json))],
      ['/echo', post(new TextEncoder().encode(json), new Headers({ 'content-type': 'application/json', 'x-custom': 'from Headers' }))],
      ['/echo', post(json, [['content-type', 'application/json'], ['x-custom', 'from pairs']])],
      ['/echo', { method: 'get' }],
      ['/echo', {}],
      ['/r307', post(json)], ['/r308', post(json)], ['/r301', post(json)], ['/r302', post(json)], ['/r303', post(json)],
      ['/cross', post(json)],
      ['/nobody', {}], ['/cookies', {}], ['/fail', post(json)], ['/missing', {}]
    ]
    // One known difference: after a 301/302 turned a POST into a bodiless GET, fetch also drops the
    // Content-Type header and undici's redirect handler keeps it; harmless on a request without a body.
    const sameAsFetch = (path: string, a: unknown): unknown => {
      if (path !== '/r301' && path !== '/r302') return a
      const x = a as { text: string }
      return { ...x, text: JSON.stringify({ ...JSON.parse(x.text) as object, type: 'dropped' }) }
    }
    let compared = 0
    for (const [path, init] of cases) {
      const [mine, theirs] = [sameAsFetch(path, await answer(channelFetch, path, init)), sameAsFetch(path, await answer(fetch, path, init))]
      expect(mine, `${init.method ?? 'GET'} ${path}`).to.deep.equal(theirs)
      compared++
    }
    expect(compared).to.equal(cases.length)
    // what those answers were, so the comparison cannot pass on two equally wrong answers
    const body = async (path: string): Promise<Record<string, unknown>> => JSON.parse((await answer(channelFetch, path, post(json)) as { text: string }).text) as Record<string, unknown>
    expect(await body('/r307')).to.include({ method: 'POST', body: json, auth: 'Bearer sk-secret' })
    expect(await body('/r302')).to.include({ method: 'GET', body: '' })
    expect(await body('/cross'), 'credentials stay on their origin').to.include({ method: 'POST', body: json, auth: null, custom: 'c' })
    expect(await answer(channelFetch, '/cookies')).to.deep.include({ status: 200, text: '多字节 ✓', headers: { type: 'text/plain; charset=utf-8', custom: 'one', cookies: ['a=1', 'b=2'] } })
    expect(await answer(channelFetch, '/nobody')).to.deep.include({ status: 204, text: '' })
  })

  it('streams the answer as it comes, chunk by chunk', async () => {
    const r = await channelFetch(`${main.url}/stream`)
    expect(r.headers.get('content-type')).to.equal('text/event-stream')
    const seen: string[] = []
    const decoder = new TextDecoder()
    for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) seen.push(decoder.decode(chunk))
    expect(seen.join('')).to.equal('data: 0\n\ndata: 1\n\ndata: 2\n\n')
    expect(seen.length, 'three writes arrive as they are written').to.be.greaterThan(1)
  })

  it('an abort ends a request waiting for its answer, as the global fetch\'s does (AbortError)', async () => {
    const names: string[] = []
    for (const f of [channelFetch, fetch]) {
      const ac = new AbortController()
      const pending = f(`${main.url}/hang`, { signal: ac.signal }).then(() => 'answered', (e: unknown) => (e as Error).name)
      setTimeout(() => { ac.abort() }, 30)
      names.push(await pending)
    }
    expect(names).to.deep.equal(['AbortError', 'AbortError'])
  })

  it('an abort while the body streams ends the reading', async () => {
    const ac = new AbortController()
    const r = await channelFetch(`${main.url}/stream`, { signal: ac.signal })
    const reader = (r.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    ac.abort()
    const rest = await (async () => { try { for (;;) { const x = await reader.read(); if (x.done) return 'ended' } } catch (e) { return (e as Error).name } })()
    expect(rest).to.equal('AbortError')
  })

  it('reads no answer past MAX_ANSWER_BYTES: streamed, or through the global fetch (a multipart upload)', async () => {
    const endless = await startEndlessServer()
    try {
      const streamed = await channelFetch(endless.url, { method: 'POST', body: '{}' })
      let read = 0
      const end = await (async () => { for await (const c of streamed.body as unknown as AsyncIterable<Uint8Array>) read += c.length })().then(() => 'ended', (e: unknown) => e)
      expect(end).to.be.instanceOf(AnswerTooLarge)
      expect(read).to.be.at.most(MAX_ANSWER_BYTES)
      const form = new FormData()
      form.append('image', new Blob([Buffer.from('png')]), 'a.png')
      const uploaded = await channelFetch(endless.url, { method: 'POST', body: form })
      expect(await uploaded.arrayBuffer().then(() => 'read', (e: unknown) => e)).to.be.instanceOf(AnswerTooLarge)
      await waitFor(() => endless.sent.length === 2)
      expect(Math.max(...endless.sent)).to.be.lessThan(MAX_ANSWER_BYTES + 16 * 1024 * 1024)
    } finally { await endless.close() }
  })

  describe('an answer asked for whole (a request body of jsonBodyOptions without stream)', () => {
    const whole = (body: Record<string, unknown> = { model: 'm', messages: [{ role: 'user', content: '你好' }] }): RequestInit => {
      const o = jsonBodyOptions(body)
      return { method: 'POST', body: o.body as Uint8Array<ArrayBuffer>, headers: { ...o.headers, authorization: 'Bearer sk-secret', 'x-custom': 'c' } }
    }

    it('reads as the global fetch\'s answer: status, headers, text, json, arrayBuffer, blob; a body is read once', async () => {
      // (no redirect here: Node 20's fetch cannot resend a byte body after a 307; ours does, below)
      for (const path of ['/echo', '/fail', '/cookies', '/bom', '/missing']) {
        const [mine, theirs] = [await channelFetch(`${main.url}${path}`, whole()), await fetch(`${main.url}${path}`, whole())]
        expect({ status: mine.status, ok: mine.ok, headers: headersOf(mine), used: mine.bodyUsed }, path).to.deep.equal({ status: theirs.status, ok: theirs.ok, headers: headersOf(theirs), used: false })
        const [a, b] = [await mine.text(), await theirs.text()]
        expect(a, path).to.equal(b)
        expect(mine.bodyUsed).to.equal(true)
        const again = await mine.text().then(() => 'read twice', (e: unknown) => (e as Error).name)
        expect(again, 'a second read fails as fetch\'s does').to.equal(await theirs.text().then(() => 'read twice', (e: unknown) => (e as Error).name))
      }
      expect(await (await channelFetch(`${main.url}/bom`, whole())).json(), 'json() drops the byte order mark').to.deep.equal({ text: '多字节' })
      expect(await (await channelFetch(`${main.url}/echo`, whole())).json()).to.include({ method: 'POST', auth: 'Bearer sk-secret' })
      expect(await (await channelFetch(`${main.url}/r307`, whole())).json()).to.include({ method: 'POST', path: '/echo', body: '{"model":"m","messages":[{"role":"user","content":"你好"}]}' })
      const bytes = new Uint8Array(await (await channelFetch(`${main.url}/cookies`, whole())).arrayBuffer())
      expect(Buffer.from(bytes).toString('utf8')).to.equal('多字节 ✓')
      const blob = await (await channelFetch(`${main.url}/cookies`, whole())).blob()
      expect({ type: blob.type, text: await blob.text() }).to.deep.equal({ type: 'text/plain; charset=utf-8', text: '多字节 ✓' })
    })

    it('an abort while the answer is read ends the request (AbortError)', async () => {
      const ac = new AbortController()
      const pending = channelFetch(`${main.url}/partial`, { ...whole(), signal: ac.signal }).then(() => 'answered', (e: unknown) => (e as Error).name)
      setTimeout(() => { ac.abort() }, 50)
      expect(await pending).to.equal('AbortError')
    })

    it('an answer that says it is larger than MAX_ANSWER_BYTES is refused at its headers, without waiting for its body', async () => {
      const outcome = await channelFetch(`${main.url}/declared-huge`, whole()).then(() => 'answered', (e: unknown) => e)
      expect(outcome).to.be.instanceOf(AnswerTooLarge)
    })

    it('a request that asks for a stream still streams, whatever the answer is labelled', async () => {
      const r = await channelFetch(`${main.url}/stream`, whole({ model: 'm', messages: [], stream: true }))
      expect(r.body, 'a stream to read').to.not.equal(null)
      const seen: string[] = []
      const decoder = new TextDecoder()
      for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) seen.push(decoder.decode(chunk))
      expect(seen.join('')).to.equal('data: 0\n\ndata: 1\n\ndata: 2\n\n')
      expect(seen.length).to.be.greaterThan(1)
    })
  })
})
