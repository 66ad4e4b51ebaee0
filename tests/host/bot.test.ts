import { expect } from 'chai'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { TrssBot } from '../../standalone/bot.js'
import { createMiniExpress, type MiniExpress } from '../../standalone/express.js'
import type { Host } from '../../standalone/host.js'
import type { StandaloneEvent } from '../../standalone/types.js'
import { MASTER, fixture, fixtureHost } from './helpers.js'

type Globals = { Bot?: Record<string, unknown>; segment?: Record<string, unknown>; redis?: unknown; logger?: unknown }
const globals = (): Globals => globalThis as unknown as Globals

interface ConfigStub {
  masterQQ: unknown[]
  master?: Record<string, string[]>
  getGroup: (...a: unknown[]) => { onlyReplyAt: number }
  package: { name: string }
}
interface CommonStub { makeForwardMsg(e: StandaloneEvent | undefined, msgs: string[]): Promise<{ type: string; data: unknown[] }> }

async function importFromRoot<T>(host: Host, rel: string): Promise<T> {
  return (await import(pathToFileURL(join(host.root, rel)).href) as { default: T }).default
}

describe('standalone host: Bot, globals and host files', () => {
  describe('miao profile', () => {
    let host: Host
    before(async () => { host = await fixtureHost('miao') })
    after(async () => { await host.stop() })

    it('has a single-account Bot with a numeric uin and Bot[uin] === Bot', () => {
      const Bot = globals().Bot as Record<string, unknown>
      expect(Bot.uin).to.equal(10000)
      expect(Bot['10000']).to.equal(Bot)
      expect(fixture().uinAtImport).to.equal(10000) // Miao loads plugins after login
      expect(Bot.sendPrivateMsg).to.be.a('function')
      expect(globals().redis).to.equal(host.kv)
    })

    it('has icqq-style segments (text, no reply)', () => {
      const segment = globals().segment as Record<string, unknown>
      expect(segment.text).to.be.a('function')
      expect(segment.reply).to.equal(undefined)
    })

    it('ships config.js/common.js stubs with the host export shape', async () => {
      const cfg = await importFromRoot<ConfigStub>(host, 'lib/config/config.js')
      expect(cfg.masterQQ).to.deep.equal([10001])
      expect(cfg.package.name).to.equal('miao-yunzai')
      expect(cfg.getGroup('1').onlyReplyAt).to.equal(0)
      const common = await importFromRoot<CommonStub>(host, 'lib/common/common.js')
      const fwd = await common.makeForwardMsg(undefined, ['a', 'b'])
      expect(fwd.type).to.equal('node')
      expect(fwd.data).to.have.length(2)
    })
  })

  describe('trss profile', () => {
    let host: Host
    before(async () => { host = await fixtureHost('trss') })
    after(async () => { await host.stop() })

    it('has a multi-account Bot proxy whose uin was empty during import', () => {
      const Bot = globals().Bot as unknown as TrssBot
      expect(fixture().uinAtImport).to.deep.equal([])
      expect([...Bot.uin]).to.deep.equal(['10000'])
      expect(String(Bot.uin)).to.equal('10000')
      expect(Bot['10000']).to.equal(Bot.bots['10000'])
      expect(Bot.nickname).to.equal('灵犀') // unknown members fall through to an account
      expect(Bot.url).to.equal(host.url)
    })

    it('sends to masters with sendMasterMsg', async () => {
      const Bot = globals().Bot as unknown as TrssBot
      await Bot.sendMasterMsg('hello master')
      expect(host.transcript.at(-1)).to.include({ target: 'private', targetId: MASTER, text: 'hello master' })
    })

    it('has the TRSS segment shim (reply, no text)', () => {
      const segment = globals().segment as Record<string, unknown>
      expect(segment.reply).to.be.a('function')
      expect(segment.text).to.equal(undefined)
    })

    it('serves routes mounted on Bot.express during init(), prefix stripped', async () => {
      const res = await fetch(`${host.url}/fixture/a/b?c=1`)
      expect(await res.text()).to.equal('fixture /fixture /a/b?c=1')
      expect((await fetch(`${host.url}/nothing`)).status).to.equal(404)
    })

    it('runs TRSS\'s body parsers before plugin routes: bodies arrive parsed and consumed', async () => {
      const post = async (type: string, body: string): Promise<{ body: unknown; consumed: boolean }> =>
        await (await fetch(`${host.url}/fixture-body`, { method: 'POST', headers: { 'content-type': type }, body })).json() as { body: unknown; consumed: boolean }
      expect(await post('application/json', '{"a":1}')).to.include({ consumed: true }).and.to.have.deep.property('body', { a: 1 })
      expect((await post('application/x-www-form-urlencoded', 'a=1&b=x')).body).to.deep.equal({ a: '1', b: 'x' })
      expect((await post('text/plain', 'hello')).body).to.equal('hello')
      expect((await post('application/octet-stream', 'raw')).body).to.equal('buffer:raw')
    })

    it('compresses responses (TRSS mounts compression in front of plugin routes)', async () => {
      const res = await fetch(`${host.url}/fixture-body`, { headers: { 'accept-encoding': 'gzip' } })
      expect(res.headers.get('content-encoding')).to.equal('gzip')
      expect(((await res.json()) as { pad: string }).pad).to.have.length(2048) // fetch inflates it
    })

    it('never routes what is mounted after online', async () => {
      const Bot = globals().Bot as unknown as TrssBot
      Bot.express.use('/late', (_req, res) => { res.end('late') })
      expect(Bot.express.late).to.deep.equal(['/late'])
      expect((await fetch(`${host.url}/late`)).status).to.equal(404)
    })

    it('gives config.js a per-bot master map and getGroup(bot_id, group_id)', async () => {
      const cfg = await importFromRoot<ConfigStub>(host, 'lib/config/config.js')
      expect(cfg.master).to.deep.equal({ 10000: [MASTER] })
      expect(cfg.package.name).to.equal('trss-yunzai')
      expect(cfg.getGroup('10000', '1').onlyReplyAt).to.equal(0)
    })
  })

  describe('mini express', () => {
    let server: Server
    let app: MiniExpress
    let url: string
    before(async () => {
      app = createMiniExpress()
      app.use('/api/', (req, res, next) => { if (req.url === '/skip') next(); else res.end(`api ${req.url}`) })
      app.use((req, res) => { res.end(`root ${req.url}`) })
      server = createServer(app)
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    after(async () => {
      server.closeAllConnections()
      await new Promise<void>((ok) => server.close(() => ok()))
    })

    it('holds requests until online, then matches prefixes on path boundaries', async () => {
      let answered = false
      const arrived = once(server, 'request')
      const pending = fetch(`${url}/api`).then(async (r) => { answered = true; return r.text() })
      await arrived
      await new Promise<void>((ok) => setImmediate(ok))
      expect(answered).to.equal(false)
      app.online()
      expect(await pending).to.equal('api /')
      expect(await (await fetch(`${url}/api/x?y=1`)).text()).to.equal('api /x?y=1')
      expect(await (await fetch(`${url}/apix`)).text()).to.equal('root /apix')
      expect(await (await fetch(`${url}/api/skip`)).text()).to.equal('root /api/skip')
    })
  })
})
