// fetch_url through the real plugin (POST /api/tools/call) against a page server on 127.0.0.1. The
// page server is on loopback, which fetch_url refuses by default: the reading tests turn
// webTools.fetch.allowPrivate on, the refusal tests leave it off. Names resolving to chosen addresses
// (DNS rebinding) use an injected resolver on fetchPage itself.
import { expect } from 'chai'
import { systemClock } from '../../lib/core/clock.js'
import { fetchPage, type FetchLimits } from '../../lib/web/fetch-page.js'
import type { Resolver } from '../../lib/web/pinned-lookup.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { ARTICLE_TEXT, startPageServer, type PageServer } from './fakes.js'

const LIMITS: FetchLimits = { maxBytes: 2_000_000, timeoutMs: 15000, maxRedirects: 5, allowPrivate: false, userAgent: 'test-agent' }

describe('web tools: fetch_url', function () {
  this.timeout(60_000)
  let s: TestServer
  let pages: PageServer

  const setFetch = async (patch: Record<string, unknown>): Promise<void> => {
    await s.lx.rt.config.update({ webTools: { fetch: { maxBytes: 2_000_000, maxChars: 12000, timeoutMs: 15000, maxRedirects: 5, allowPrivate: true, ...patch } } })
  }
  const fetchUrl = async (url: string): Promise<{ isError: boolean; text: string }> => {
    const r = await s.api('/api/tools/call', { method: 'POST', json: { name: 'fetch_url', args: { url } } })
    if (r.status === 500 && r.body.code === 'EXECUTION_ERROR') return { isError: true, text: r.body.message }
    expect(r.status, r.text).to.equal(200)
    return { isError: r.body.data.result.isError, text: r.body.data.result.content[0].text }
  }

  before(async () => {
    s = await startTestServer()
    await s.login()
    pages = await startPageServer()
  })
  after(async () => {
    await pages?.close()
    await s?.close()
  })

  describe('reading (allowPrivate on: the page server is on 127.0.0.1)', () => {
    beforeEach(() => setFetch({}))

    it('returns the readable text of an article, without navigation, scripts, styles, sidebar or footer', async () => {
      const out = await fetchUrl(`${pages.url}/article`)
      expect(out.isError, out.text).to.equal(false)
      expect(out.text).to.match(/^URL: http:\/\/127\.0\.0\.1:\d+\/article\nTitle: Fox Facts\n\n/)
      expect(out.text).to.include('All about foxes').and.include(ARTICLE_TEXT.trim().slice(0, 120)).and.include('• Red fox')
      for (const junk of ['HOME-NAV-LINK', 'ABOUT-NAV-LINK', 'SCRIPT-TEXT-MUST-NOT-APPEAR', 'secretTracker', 'color:red', 'SIDEBAR-ADS', 'FOOTER-COPYRIGHT']) {
        expect(out.text, junk).to.not.include(junk)
      }
      expect(pages.hits.at(-1)).to.equal('/article')
    })

    it('plain text and JSON as they are; a GBK page decoded by its meta charset; images and other types refused; 404 is an error', async () => {
      expect((await fetchUrl(`${pages.url}/plain`)).text).to.include('just plain text\nsecond line')
      expect((await fetchUrl(`${pages.url}/json`)).text).to.include('{"hello":"world","n":1}')
      expect((await fetchUrl(`${pages.url}/gbk`)).text).to.include('你好世界')
      expect(await fetchUrl(`${pages.url}/image`)).to.deep.equal({ isError: true, text: 'Only HTML, text and JSON pages are read, not image/png' })
      expect(await fetchUrl(`${pages.url}/missing`)).to.deep.equal({ isError: true, text: 'The server answered HTTP 404' })
      expect((await fetchUrl('ftp://example.com/file')).text).to.equal('Only http and https URLs can be fetched, not ftp:')
      expect((await fetchUrl('not a url')).text).to.equal('Not a valid URL')
    })

    it('size limit: the download stops past maxBytes and the answer says the page was cut; maxChars cuts the text', async () => {
      await setFetch({ maxBytes: 100_000, maxChars: 5000 })
      const out = await fetchUrl(`${pages.url}/big`)
      expect(out.isError).to.equal(false)
      expect(out.text).to.include('[the page is larger than 100000 bytes: only its beginning was read]')
      expect(out.text).to.include('[text cut at 5000 characters]')
      expect(out.text.match(/a/g)?.length).to.be.within(5000, 5100)
      // the server saw its connection closed long before it sent everything (200 x 64 KiB)
      for (let i = 0; i < 50 && !pages.hits.some((h) => h.startsWith('/big closed')); i++) await new Promise((r) => setImmediate(r))
      const closed = pages.hits.find((h) => h.startsWith('/big closed after '))
      expect(closed, 'the client hung up').to.not.equal(undefined)
      expect(Number(closed!.split(' ').at(-1))).to.be.below(200 * 65536)
    })

    it('time limit: a page that never finishes ends with a time-out error', async () => {
      await setFetch({ timeoutMs: 1000 })
      const started = Date.now()
      const out = await fetchUrl(`${pages.url}/slow`)
      expect(out).to.deep.equal({ isError: true, text: 'The page did not load within 1000 ms' })
      expect(Date.now() - started).to.be.within(900, 8000)
    })

    it('redirects are followed (and re-checked) up to maxRedirects', async () => {
      const out = await fetchUrl(`${pages.url}/redirect?to=/article`)
      expect(out.text).to.match(/^URL: http:\/\/127\.0\.0\.1:\d+\/article\n/)
      expect((await fetchUrl(`${pages.url}/loop`)).text).to.equal('Too many redirects (more than 5)')
    })
  })

  describe('refusal (allowPrivate off)', () => {
    beforeEach(() => setFetch({ allowPrivate: false }))

    const PORT = (): string => new URL(pages.url).port
    const SPELLINGS = (): string[] => [
      `http://127.0.0.1:${PORT()}/article`, `http://localhost:${PORT()}/article`, `http://127.1:${PORT()}/article`,
      `http://2130706433:${PORT()}/article`, `http://0x7f000001:${PORT()}/article`, `http://0x7f.0.0.1:${PORT()}/article`,
      `http://0177.0.0.1:${PORT()}/article`, `http://017700000001:${PORT()}/article`, `http://[::1]:${PORT()}/article`,
      `http://[::ffff:127.0.0.1]:${PORT()}/article`, `http://[0:0:0:0:0:ffff:7f00:1]:${PORT()}/article`, `http://[::127.0.0.1]:${PORT()}/article`,
      'http://0.0.0.0/', 'http://[::]/', 'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/', 'http://224.0.0.1/', 'http://255.255.255.255/', 'http://[fe80::1]/', 'http://[fc00::1]/', 'http://[fd00::abcd]/',
      'http://[ff02::1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:c0a8:101::1]/', 'http://[::ffff:a9fe:a9fe]/'
    ]

    it('every private, loopback, link-local, CGNAT, multicast and unspecified spelling is refused before any request', async () => {
      const before = pages.hits.length
      for (const url of SPELLINGS()) {
        const out = await fetchUrl(url)
        expect(out.isError, url).to.equal(true)
        expect(out.text, url).to.match(/is not public|resolves to .* not public/)
      }
      expect(pages.hits.length, 'no request reached the page server').to.equal(before)
    })

    it('a redirect from an allowed page to a private address is refused (each hop is checked)', async () => {
      // only the page server's own address is let through (a test-only allow list): its redirects to
      // other non-public addresses must be refused before any connection
      const only = { clock: systemClock, resolver: async () => [], allowAddresses: new Set(['127.0.0.1']) }
      const page = await fetchPage(`http://127.0.0.1:${PORT()}/redirect?to=/plain`, LIMITS, only)
      expect(page.text, 'an allowed redirect').to.equal('just plain text\nsecond line')
      for (const target of ['http://169.254.169.254/latest/meta-data/', `http://[::1]:${PORT()}/plain`, `http://127.0.0.2:${PORT()}/plain`, `http://0x7f000002:${PORT()}/plain`, 'http://10.0.0.1/']) {
        const hits = pages.hits.length
        let err: unknown
        try { await fetchPage(`http://127.0.0.1:${PORT()}/redirect?to=${encodeURIComponent(target)}`, LIMITS, only) } catch (e) { err = e }
        expect(String(err), target).to.match(/is not public/)
        expect(pages.hits.slice(hits), target).to.deep.equal([`/redirect?to=${encodeURIComponent(target)}`])
      }
    })

    it('the switch allows them again (allowPrivate on)', async () => {
      await setFetch({ allowPrivate: true })
      expect((await fetchUrl(`http://localhost:${PORT()}/plain`)).text).to.include('just plain text')
      expect((await fetchUrl(`http://2130706433:${PORT()}/plain`)).text).to.include('just plain text')
      expect((await fetchUrl(`http://[::ffff:127.0.0.1]:${PORT()}/plain`)).isError).to.equal(false)
    })
  })

  describe('DNS: resolve once, check every address, connect to the checked one', () => {
    it('a name resolving to a private address (or to a mix of public and private) is refused', async () => {
      for (const addrs of [[{ address: '10.1.2.3', family: 4 }], [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }], [{ address: 'fd00::1', family: 6 }]]) {
        const resolver: Resolver = async () => addrs
        let err: unknown
        try { await fetchPage('http://rebind.example/', LIMITS, { clock: systemClock, resolver }) } catch (e) { err = e }
        expect(String(err)).to.match(/resolves to .* which is not public: refused/)
      }
    })

    it('the connection goes to the address that was checked, whatever the name resolves to afterwards (rebinding)', async () => {
      // allowPrivate on so 127.0.0.1 may be the checked address; the resolver answers it once, then
      // a different address every later time: the request still reaches the page server, and the
      // resolver was asked once per hop, so nothing re-resolved between the check and the connect
      let asked = 0
      const resolver: Resolver = async () => (asked++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '203.0.113.9', family: 4 }])
      const page = await fetchPage(`http://rebind.example:${new URL(pages.url).port}/plain`, { ...LIMITS, allowPrivate: true }, { clock: systemClock, resolver })
      expect(page.text).to.equal('just plain text\nsecond line')
      expect(asked).to.equal(1)
    })
  })
})
