// The bot runs when the web server cannot start (lib/plugin.ts, routes/index.ts startWeb): every port
// it tries is taken; the start logs it, bot commands keep working and `#lx面板` says why no link.
import { expect } from 'chai'
import { createServer, type Server } from 'node:net'
import { startPluginHost, MASTER, type PluginHost } from '../support/plugin-host.js'

const listen = (port: number): Promise<Server | undefined> => new Promise((resolve) => {
  const s = createServer()
  s.once('error', () => resolve(undefined))
  s.listen(port, '0.0.0.0', () => resolve(s))
})

/** Ten consecutive ports held by this process (the web server tries its port and the next nine). */
async function holdTenPorts (): Promise<{ first: number; servers: Server[] }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = 20000 + Math.floor(Math.random() * 40000)
    const servers: Server[] = []
    for (let p = first; p < first + 10; p++) {
      const s = await listen(p)
      if (!s) break
      servers.push(s)
    }
    if (servers.length === 10) return { first, servers }
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  }
  throw new Error('no ten free consecutive ports found')
}

describe('lifecycle: the bot without the web server', function () {
  this.timeout(60_000)
  let p: PluginHost | undefined
  let held: Server[] = []

  before(async () => {
    const { first, servers } = await holdTenPorts()
    held = servers
    p = await startPluginHost('miao', 'lingxi-web-down-', { env: { LINGXI_PORT: String(first) } })
  })
  after(async () => {
    await p?.stop()
    await Promise.all(held.map((s) => new Promise((r) => s.close(r))))
  })

  it('starts every domain and says why the web server is not running', () => {
    const run = p!.run
    expect(run.webError).to.match(/No free port found/)
    expect(run.localUrl).to.equal('')
    expect(run.baseUrls()).to.deep.equal([])
    expect(run.rt.need('web').server).to.equal(undefined)
    expect(run.rt.optional('memory')).to.not.equal(undefined)
    const logged = run.rt.log.query({ level: 'error' })
    expect(JSON.stringify(logged)).to.match(/web server could not start/)
  })

  it('#lx面板 answers that the web server is not running', async () => {
    const res = await p!.host.sendPrivate(MASTER, '#lx面板')
    expect(res.stage).to.equal('handled')
    const answer = p!.host.transcript.at(-1)?.text ?? ''
    expect(answer).to.include('网页服务没有运行').and.include('No free port').and.not.match(/login#token=/)
  })

  it('other bot commands keep working', async () => {
    const res = await p!.host.sendPrivate(MASTER, '#lx帮助')
    expect(res.stage).to.equal('handled')
    expect(p!.host.transcript.at(-1)?.text ?? '').to.include('#lx')
  })
})
