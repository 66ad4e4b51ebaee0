// Configured MCP servers connect in the background at start (a hung server never delays the plugin)
// and stopping the plugin ends their child processes.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { stringify } from 'yaml'
import { startTestServer, type TestServer } from '../support/server.js'
import { recordEvents, stdioEverything } from './helpers.js'

function alive (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch { return false }
}

describe('MCP at plugin start and stop', function () {
  this.timeout(60_000)
  let s: TestServer | undefined

  afterEach(async () => { await s?.close(); s = undefined })

  it('starts without waiting for servers, connects them in the background, kills children at stop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-mcp-start-'))
    const hung = { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 60_000 }
    writeFileSync(join(dataDir, 'config.yaml'), stringify({ mcp: { servers: { hung, ev: stdioEverything() } } }))
    const t0 = Date.now()
    s = await startTestServer({ dataDir })
    const rt = s.lx.rt
    expect(Date.now() - t0, 'start did not wait for the hung server (60 s timeout)').to.be.below(20_000)
    expect(rt.need('mcp').get('hung').status).to.equal('connecting')
    const ev = recordEvents(rt.bus)
    if (rt.need('mcp').get('ev').status !== 'connected') await ev.wait('server-connected', 'ev')
    const list = await s.api('/api/mcp/servers')
    expect(list.body.data.map((x: { name: string; status: string }) => `${x.name}:${x.status}`)).to.deep.equal(['hung:connecting', 'ev:connected'])
    const pid = rt.need('mcp').pidOf('ev') as number
    const hungPid = rt.need('mcp').pidOf('hung') as number
    expect(alive(pid)).to.equal(true)
    expect(alive(hungPid)).to.equal(true)
    await s.close()
    s = undefined
    expect(alive(pid), 'stdio child ended at stop').to.equal(false)
    expect(alive(hungPid), 'a child still connecting is ended too').to.equal(false)
  })
})
