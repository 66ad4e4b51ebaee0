// The MCP client manager under failure (issue 19, point 6): a server that never answers initialize
// holds up only its own management calls (and a disconnect ends its connect), and a call in flight
// when a remote server's process is killed fails at once with a clear error instead of waiting for
// the next health check (the manual clock never runs one here).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { ConfigService } from '../../lib/config/service.js'
import { AppError } from '../../lib/core/errors.js'
import { EventBus } from '../../lib/core/event-bus.js'
import { McpManager } from '../../lib/mcp/manager.js'
import { ManualClock, quietLog, startEverything, stdioEverything, TestRegistry, type RemoteEverything } from './helpers.js'

const DEFAULTS = join(process.cwd(), 'config', 'default.yaml')
const ctx = { scope: { userId: 't', isMaster: true, via: 'admin-test' as const, conversationId: 't' }, userPermission: 'master' as const, isMaster: true }
/** A stdio "server" that reads its input and never answers: initialize hangs until the time-out (10 min). */
const hanging = (): Record<string, unknown> => ({ type: 'stdio', command: process.execPath, args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1e9)'], timeoutMs: 600_000 })

/** How long a promise takes to settle, and how. */
async function timed<T> (p: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const t0 = Date.now()
  try { return { ms: Date.now() - t0, value: await p } } catch (error) { return { ms: Date.now() - t0, error } }
}

describe('MCP manager under failure', function () {
  this.timeout(60_000)
  let dir: string
  let clock: ManualClock
  let reg: TestRegistry
  let m: McpManager
  const remotes: RemoteEverything[] = []

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lx-mcp-fail-'))
    const bus = new EventBus()
    const config = new ConfigService({ defaultFile: DEFAULTS, userFile: join(dir, 'config.yaml'), bus, log: quietLog })
    clock = new ManualClock()
    reg = new TestRegistry()
    m = new McpManager({ config, bus, log: quietLog, clock, version: 'test', tools: () => reg, healthIntervalMs: 30_000, backoffBaseMs: 1000 })
    m.start()
  })
  afterEach(async () => {
    await m.stop()
    for (const x of remotes.splice(0)) await x.kill()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a server hanging in connect holds up only its own calls; its disconnect ends the connect at once', async () => {
    const hangingAdd = m.add('stuck', hanging())
    // wait until its connect is under way (the child process runs)
    const running = (): boolean => m.names().includes('stuck') && m.pidOf('stuck') !== undefined
    for (let i = 0; i < 250 && !running(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(running()).to.equal(true)
    expect(m.get('stuck').status).to.equal('connecting')
    // another server is added, connected, disconnected and reconnected meanwhile
    const other = await timed(m.add('ev', stdioEverything()))
    expect(other.value?.status).to.equal('connected')
    expect((await timed(m.disconnect('ev'))).value?.status).to.equal('disconnected')
    expect((await timed(m.reconnect('ev'))).value?.status).to.equal('connected')
    const trusted = await timed(m.setTrust('ev', true))
    expect(trusted.value?.trusted).to.equal(true)
    expect(trusted.ms).to.be.below(5_000)
    expect(m.get('stuck').status).to.equal('connecting')
    // the stuck one's disconnect does not wait for the 10-minute time-out: it ends the connect
    const disc = await timed(m.disconnect('stuck'))
    expect(disc.error).to.equal(undefined)
    expect(disc.value?.status).to.equal('disconnected')
    expect(disc.ms).to.be.below(10_000)
    const added = await timed(hangingAdd)
    expect(added.value?.status).to.equal('disconnected')
    expect(m.pidOf('stuck')).to.equal(undefined)
    // and it can be removed, while the other stays connected
    await m.remove('stuck')
    expect(m.names()).to.deep.equal(['ev'])
    expect(m.get('ev').status).to.equal('connected')
  })

  it('a remote server killed during a call: the call fails at once with a clear error, a reconnect is scheduled', async () => {
    const remote = await startEverything('streamableHttp')
    remotes.push(remote)
    expect((await m.add('rem', { type: 'http', url: remote.url })).status).to.equal('connected')
    const name = 'mcp:rem:trigger-long-running-operation'
    expect(reg.get(name)).to.not.equal(undefined)
    const call = timed(reg.call(name, { duration: 30, steps: 30 }, ctx))
    await new Promise((resolve) => setTimeout(resolve, 500))
    const pendingBefore = clock.pending()
    const t0 = Date.now()
    await remote.kill()
    const r = await call
    // the call's 30 s time-out and the 30 s health check (never run: manual clock) are not what ended it
    expect(Date.now() - t0).to.be.below(8_000)
    expect(r.error).to.be.instanceOf(AppError)
    expect((r.error as AppError).code).to.equal('CONNECTION_FAILED')
    expect((r.error as AppError).message).to.match(/MCP server rem was lost during the call of trigger-long-running-operation/)
    expect(m.get('rem').status).to.equal('error')
    expect(clock.pending()).to.equal(pendingBefore + 1) // the reconnect's timer
    expect(reg.get(name)).to.equal(undefined) // its tools left the registry
  })

  it('a stdio server killed during a call: the same at once', async () => {
    await m.add('ev', stdioEverything())
    const call = timed(reg.call('mcp:ev:trigger-long-running-operation', { duration: 30, steps: 30 }, ctx))
    await new Promise((resolve) => setTimeout(resolve, 500))
    const pid = m.pidOf('ev') as number
    const t0 = Date.now()
    process.kill(pid, 'SIGKILL')
    const r = await call
    expect(Date.now() - t0).to.be.below(8_000)
    expect((r.error as AppError).code).to.equal('CONNECTION_FAILED')
    expect(m.get('ev').status).to.equal('error')
  })
})
