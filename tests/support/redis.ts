// A real redis-server for the shared-state tests: a free loopback port, a temp folder, no persistence,
// run in the foreground as our child so stop() ends exactly it. Where redis-server is missing or does not
// come up, startRedis skips the calling test, saying why (.ci/run installs it from Debian).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestRedis { url: string; stop(): Promise<void> }

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

function redisServerBinary (): string | undefined {
  const bin = process.env.LINGXI_TEST_REDIS_SERVER ?? 'redis-server'
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8' })
  return probe.status === 0 ? bin : undefined
}

/** Starts redis-server, or skips `ctx`'s test or suite when it cannot. */
export async function startRedis (ctx: Mocha.Context): Promise<TestRedis> {
  const bin = redisServerBinary()
  if (!bin) {
    console.warn('    skipped: redis-server is not installed (apt-get install redis-server, or set LINGXI_TEST_REDIS_SERVER)')
    ctx.skip()
  }
  const dir = mkdtempSync(join(tmpdir(), 'lingxi-redis-'))
  const port = await freePort()
  const child = spawn(bin as string, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ready = await new Promise<string | undefined>((resolve) => {
    let out = ''
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8')
      if (out.includes('Ready to accept connections')) resolve(undefined)
    })
    child.once('exit', (code) => resolve(`redis-server exited with ${code}: ${out.slice(-500)}`))
    child.once('error', (err) => resolve(err.message))
  })
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) { child.kill('SIGTERM'); await exited }
    rmSync(dir, { recursive: true, force: true })
  }
  if (ready !== undefined) {
    await stop()
    console.warn(`    skipped: redis-server did not start (${ready})`)
    ctx.skip()
  }
  return { url: `redis://127.0.0.1:${port}`, stop }
}
