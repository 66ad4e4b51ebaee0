// lib/core/read-body.ts: answers of servers the plugin does not control are read up to a limit, against
// real local servers: one that sends without end, one that answers a known body.
import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { errorDetail, readLimited, readStart } from '../../lib/core/read-body.js'
import { startEndlessServer, type EndlessServer } from '../support/endless.js'
import { waitFor } from '../channels/helpers.js'

const MiB = 1024 * 1024
class TooLarge extends Error {}

describe('core: reading an answer up to a limit', () => {
  let endless: EndlessServer
  let known: { url: string; server: Server }
  before(async () => {
    endless = await startEndlessServer()
    // /n/<bytes>: that many bytes of `é` (2 bytes each) after one `a`; /declared: a Content-Length of 100 MiB, then nothing
    const server = createServer((req, res) => {
      const n = Number(/^\/n\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1)
      if (req.url === '/declared') { res.writeHead(200, { 'Content-Length': String(100 * MiB) }); res.write('x'); return }
      if (n < 0) { res.writeHead(404); res.end(); return }
      res.writeHead(500, { 'Content-Type': 'text/plain' })
      res.end(Buffer.concat([Buffer.from('a'), Buffer.alloc(n - 1, 'é')]).subarray(0, n))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    known = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
  })
  after(async () => {
    await endless.close()
    known.server.closeAllConnections()
    known.server.close()
  })

  const outcome = (p: Promise<unknown>): Promise<unknown> => p.then((v) => v, (e: unknown) => e)

  it('readLimited: a body without end is refused once past the limit, and the connection is closed', async () => {
    const e = await outcome(fetch(endless.url).then(async (r) => await readLimited(r, 3 * MiB, () => new TooLarge())))
    expect(e).to.be.instanceOf(TooLarge)
    await waitFor(() => endless.sent.length === 1)
    // what the server wrote before it saw the close: the limit and what the sockets' buffers held
    expect(endless.sent[0]).to.be.greaterThan(3 * MiB).and.lessThan(3 * MiB + 16 * MiB)
  })

  it('readLimited: a Content-Length over the limit is refused at the headers; a body up to the limit is read whole', async () => {
    expect(await outcome(fetch(`${known.url}/declared`).then(async (r) => await readLimited(r, MiB, () => new TooLarge())))).to.be.instanceOf(TooLarge)
    const exact = await readLimited(await fetch(`${known.url}/n/1000`), 1000, () => new TooLarge())
    expect(exact.length).to.equal(1000)
    expect(await outcome(fetch(`${known.url}/n/1001`).then(async (r) => await readLimited(r, 1000, () => new TooLarge())))).to.be.instanceOf(TooLarge)
  })

  it('readStart: the first bytes of a body without end, the rest unread', async () => {
    const before = endless.sent.length
    const { body, truncated } = await readStart(await fetch(endless.url), 100_000)
    expect({ length: body.length, truncated, allX: body.every((b) => b === 0x78) }).to.deep.equal({ length: 100_000, truncated: true, allX: true })
    await waitFor(() => endless.sent.length === before + 1)
    expect(endless.sent[before]).to.be.lessThan(100_000 + 16 * MiB)
    expect(await readStart(await fetch(`${known.url}/n/10`), 100)).to.deep.include({ truncated: false })
  })

  it('errorDetail: the start of an error answer as text, whole characters only, also of one without end', async () => {
    const text = await errorDetail(await fetch(`${known.url}/n/5001`), 200)
    expect(text).to.equal('a' + 'é'.repeat(199))
    const cut = await errorDetail(await fetch(`${known.url}/n/10`), 2) // 8 bytes read: a, three é, then half of one
    expect(cut).to.equal('aé')
    expect(await errorDetail(await fetch(`${known.url}/n/4`), 200), 'a whole body keeps what it says').to.equal('aé\uFFFD')
    expect(await errorDetail(await fetch(`${endless.url}/status/500`), 50)).to.equal('x'.repeat(50))
  })
})
