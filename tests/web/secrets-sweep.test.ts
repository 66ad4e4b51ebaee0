// README, "Security model": secrets (channel keys, MCP env and headers, the MCP API key, the JWT secret) are
// never returned. Stores one of each, then reads every GET route of every router (with the names of
// the stored things as path parameters) and the logs, and looks for any of the secrets in the answers.
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildRouters } from '../../routes/index.js'
import { startTestServer, type TestServer } from '../support/server.js'

const SECRETS = {
  channelKey: 'sk-sweep-channel-key-A1B2C3D4',
  channelKey2: 'sk-sweep-second-key-E5F6G7H8',
  mcpEnv: 'sweep-mcp-env-token-5d9e1c',
  mcpHeader: 'sweep-mcp-header-token-7f3a2b',
  mcpApiKey: 'sweep-own-mcp-api-key-0123456789'
}
const STREAMS = /stream|events|\/sse|quick-test|batch-test/

describe('secrets sweep over every GET route', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s?.close() })

  it('stores secrets of every kind and never answers any of them', async () => {
    const stored = [
      await s.api('/api/config/channels', { method: 'POST', json: { name: 'sweepch', baseUrl: 'http://127.0.0.1:9/v1', apiKey: SECRETS.channelKey, apiKeys: [{ name: 'second', key: SECRETS.channelKey2 }], model: 'gpt-4o' } }),
      await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'sweepstdio', config: { type: 'stdio', command: 'lx-missing-cmd-sweep', env: { TOKEN: SECRETS.mcpEnv } } } }),
      await s.api('/api/mcp/servers', { method: 'POST', json: { name: 'sweephttp', config: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${SECRETS.mcpHeader}` } } } }),
      await s.api('/api/config/mcp', { method: 'PUT', json: { server: { apiKey: SECRETS.mcpApiKey } } })
    ]
    for (const r of stored) expect(r.status, r.text).to.be.oneOf([200, 201])
    const jwtSecret = readFileSync(join(s.dataDir, 'jwt-secret'), 'utf8').trim()
    expect(jwtSecret.length).to.be.greaterThan(16)
    // the stored copies are whole (the sweep would pass trivially if they were not stored)
    expect(readFileSync(join(s.dataDir, 'config.yaml'), 'utf8')).to.include(SECRETS.channelKey).and.include(SECRETS.mcpApiKey)

    const needles = [...Object.values(SECRETS), jwtSecret]
    const names = ['sweepch', 'sweepstdio', 'sweephttp', 'default', 'mcp', 'channels']
    const paths = new Set<string>()
    for (const router of buildRouters(s.lx.rt)) {
      for (const layer of router.stack) {
        const path = layer.path
        if (typeof path !== 'string' || !layer.methods.includes('GET') || STREAMS.test(path) || path.startsWith('/mcp')) continue
        if (!path.includes(':')) paths.add(path)
        else for (const n of names) paths.add(path.replace(/:[a-zA-Z]+(\([^)]*\))?\??/g, n))
      }
    }
    paths.add('/api/logs?limit=1000')
    expect(paths.size).to.be.greaterThan(80)
    const leaks: string[] = []
    let ok = 0
    for (const p of paths) {
      const r = await s.api(p)
      if (r.status === 200) ok++
      for (const n of needles) if (r.text.includes(n)) leaks.push(`${p} answers ${n.slice(0, 12)}…`)
    }
    expect(ok, 'the sweep read real answers').to.be.greaterThan(60)
    expect(leaks).to.deep.equal([])
  })
})
