// MCP while its SDK is missing (lib/mcp/sdk.ts): the loader's report names @modelcontextprotocol/sdk
// (simulated, tests/support/missing-package.ts), so no server connects: its status is `error` with the
// reason naming the package and the install, no reconnect is scheduled, an explicit connect answers
// SERVICE_UNAVAILABLE with the same text, and our endpoint's info says why. Once the report no longer
// names it, the same server connects.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { ConfigService } from '../../lib/config/service.js'
import { AppError } from '../../lib/core/errors.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { McpEndpoint } from '../../lib/mcp/endpoint.js'
import { McpManager } from '../../lib/mcp/manager.js'
import { pretendMissing } from '../support/missing-package.js'
import { ManualClock, quietLog, stdioEverything, TestRegistry } from './helpers.js'

const DEFAULTS = join(process.cwd(), 'config', 'default.yaml')
const SDK = '@modelcontextprotocol/sdk'

describe('MCP: off while the SDK is missing', function () {
  this.timeout(30_000)
  let dir: string
  let clock: ManualClock
  let m: McpManager
  let restore: (() => void) | undefined

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lx-mcp-missing-'))
    const bus = new EventBus()
    const config = new ConfigService({ defaultFile: DEFAULTS, userFile: join(dir, 'config.yaml'), bus, log: quietLog })
    clock = new ManualClock()
    const reg = new TestRegistry()
    m = new McpManager({ config, bus, log: quietLog, clock, version: 'test', tools: () => reg, healthIntervalMs: 30_000, backoffBaseMs: 1000 })
    m.start()
  })
  afterEach(async () => {
    restore?.()
    restore = undefined
    await m.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a server is not connected, its status says why, no retry; connect answers SERVICE_UNAVAILABLE; connected once the SDK is there', async () => {
    restore = pretendMissing(SDK)
    const view = await m.add('ev', stdioEverything())
    expect(view.status).to.equal('error')
    expect(view.error).to.include(SDK).and.include('npm install (test)')
    expect(view.toolCount).to.equal(0)
    expect(m.pidOf('ev'), 'no process started').to.equal(undefined)
    clock.advance(120_000)
    expect(m.get('ev').reconnectAttempts, 'no reconnect scheduled').to.equal(0)
    let err: unknown
    try { await m.connect('ev') } catch (e) { err = e }
    expect(err).to.be.instanceOf(AppError)
    expect((err as AppError).code).to.equal('SERVICE_UNAVAILABLE')
    expect((err as AppError).message).to.include(SDK)
    restore()
    restore = undefined
    const back = await m.connect('ev')
    expect(back.status).to.equal('connected')
    expect(back.toolCount).to.be.greaterThan(0)
  })

  it('our endpoint: its info says why and no session is opened', async () => {
    const endpoint = new McpEndpoint({ version: 'test', tools: () => undefined, exposed: () => [] })
    restore = pretendMissing(SDK)
    const info = await endpoint.info()
    expect(info.unavailable).to.include(SDK)
    expect(info.protocolVersion).to.equal('')
    let err: unknown
    try { await endpoint.createServer(() => 'sid') } catch (e) { err = e }
    expect((err as AppError).code).to.equal('SERVICE_UNAVAILABLE')
    restore()
    restore = undefined
    const ok = await endpoint.info()
    expect(ok.unavailable).to.equal(undefined)
    expect(ok.protocolVersion).to.not.equal('')
  })
})
