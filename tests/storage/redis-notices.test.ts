// Redis change notices and the start without a reachable Redis (lib/storage/README.md, "Redis"): two
// runtimes reading one config file reload a change made by the other; an unreachable Redis leaves the
// instance on its own with an error in the owner's words that never shows the password.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { createRuntime, stopRuntime, type Runtime } from '../../lib/runtime.js'
import type { HostLogger } from '../../lib/host/types.js'
import { startRedis, type TestRedis } from '../support/redis.js'

describe('Redis: change notices and an unreachable Redis', function () {
  let redis: TestRedis | undefined
  const dirs: string[] = []
  const runtimes: Runtime[] = []
  const dataDir = (): string => { const d = mkdtempSync(join(tmpdir(), 'lingxi-redis-rt-')); dirs.push(d); return d }
  const runtime = async (env: NodeJS.ProcessEnv): Promise<Runtime> => { const rt = await createRuntime({ env }); runtimes.push(rt); return rt }

  before(async function () { redis = await startRedis(this) })
  after(async () => {
    for (const rt of runtimes) await stopRuntime(rt)
    await redis?.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  it('reloads the config written by another instance that reads the same file', async () => {
    const dir = dataDir()
    const env = { ...process.env, LINGXI_DATA_DIR: dir, LINGXI_REDIS_URL: redis?.url }
    const a = await runtime(env)
    const b = await runtime(env)
    const reloaded = new Promise<void>((resolve) => { const off = b.bus.on('config', () => { off(); resolve() }) })
    await a.config.update({ chat: { userRateLimitPerMinute: 7 } })
    await reloaded
    expect(b.config.get().chat.userRateLimitPerMinute).to.equal(7)
  })

  it('ignores a config notice for another file', async () => {
    const a = await runtime({ ...process.env, LINGXI_DATA_DIR: dataDir(), LINGXI_REDIS_URL: redis?.url })
    const b = await runtime({ ...process.env, LINGXI_DATA_DIR: dataDir(), LINGXI_REDIS_URL: redis?.url })
    // The revocation notice is sent after the config notice on the same connection: once B hears it,
    // it has seen (and ignored) the config notice.
    const heard = new Promise<void>((resolve) => { const off = b.sessions.onRevoke(() => { off(); resolve() }) })
    await a.config.update({ chat: { userRateLimitPerMinute: 9 } })
    await a.sessions.revoke({ jti: 'marker', exp: Math.floor(Date.now() / 1000) + 60 })
    await heard
    expect(b.config.get().chat.userRateLimitPerMinute).to.not.equal(9)
  })

  it('runs on its own when Redis cannot be reached, without showing the password', async () => {
    const lines: string[] = []
    const capture = (...a: unknown[]): void => { lines.push(a.map(String).join(' ')) }
    const saved = globalThis.logger
    globalThis.logger = { trace: capture, debug: capture, info: capture, warn: capture, error: capture, fatal: capture, mark: capture } satisfies HostLogger
    try {
      const rt = await runtime({ ...process.env, LINGXI_DATA_DIR: dataDir(), LINGXI_REDIS_URL: 'redis://lx:s3cret-pw@127.0.0.1:1/0' })
      expect(rt.shared).to.equal(undefined)
      const { token } = rt.loginTokens.issue({ userId: '1', isMaster: true })
      expect(await rt.loginTokens.consume(token)).to.deep.equal({ userId: '1', isMaster: true })
    } finally {
      globalThis.logger = saved
    }
    const text = lines.join('\n')
    expect(text).to.match(/Redis at redis:\/\/127\.0\.0\.1:1\/0 could not be reached/)
    expect(text).to.not.include('s3cret-pw')
  })
})
