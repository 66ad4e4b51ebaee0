// `npm run login-link` (scripts/login-link.ts) as an owner runs it: a child process against the running
// plugin's data folder, whose printed link logs in once, within five minutes.
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sinon from 'sinon'
import { startRedis, type TestRedis } from '../support/redis.js'
import { startTestServer, type TestServer } from '../support/server.js'

const run = promisify(execFile)
const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'login-link.ts')

/** Runs the script (asynchronously: the plugin in this process must answer its probe). */
async function loginLink (dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, LINGXI_DATA_DIR: dataDir }
  try {
    const r = await run(process.execPath, ['--import', 'tsx', SCRIPT], { env, timeout: 30_000 })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
  }
}

function linksOf (stdout: string): URL[] {
  return stdout.split('\n').filter((l) => l.includes('/login#token=')).map((l) => new URL(l.trim()))
}

describe('npm run login-link', function () {
  this.timeout(60_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })
  afterEach(() => sinon.restore())

  const login = (token: string): ReturnType<TestServer['api']> =>
    s.api('/api/auth/login', { method: 'POST', json: { token }, headers: { Authorization: '' } })

  it('prints the links #lx面板 gives, and the token logs in once', async () => {
    const r = await loginLink(s.dataDir)
    expect(r.code, r.stderr).to.equal(0)
    const links = linksOf(r.stdout)
    expect(links.map((u) => `${u.origin}${u.pathname.replace(/\/login$/, '')}`)).to.deep.equal(s.lx.web.baseUrls())
    const token = links[0]!.hash.slice('#token='.length)
    expect(links.every((u) => u.hash === `#token=${token}`)).to.equal(true)

    const first = await login(token)
    expect(first.status).to.equal(200)
    const session = (first.body as { data: { token: string } }).data.token
    const who = await s.api('/api/auth/verify', { headers: { Authorization: `Bearer ${session}` } })
    expect(who.body.data).to.include({ userId: 'terminal', isMaster: true })

    const again = await login(token)
    expect(again.status).to.equal(401)
    expect(again.body).to.include({ success: false, code: 'INVALID_TOKEN' })
  })

  it('refuses a link after five minutes by the plugin\'s clock', async () => {
    const r = await loginLink(s.dataDir)
    const token = linksOf(r.stdout)[0]!.hash.slice('#token='.length)
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    clock.tick(5 * 60_000 + 1)
    const late = await login(token)
    expect(late.status).to.equal(401)
  })

  it('refuses a token the script never wrote', async () => {
    const r = await login('A'.repeat(43))
    expect(r.status).to.equal(401)
  })

  it('says clearly that no plugin runs, for an empty data folder and after the plugin stopped', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lingxi-nolink-'))
    try {
      const r = await loginLink(empty)
      expect(r.code).to.equal(1)
      expect(r.stderr).to.match(/lingxi is not running/).and.match(/灵犀没有在运行/)
      expect(r.stdout).to.not.include('token=')
    } finally { rmSync(empty, { recursive: true, force: true }) }

    const other = await startTestServer({ keepData: true })
    await other.close()
    try {
      const r = await loginLink(other.dataDir)
      expect(r.code).to.equal(1)
      expect(r.stderr).to.match(/lingxi is not running/)
    } finally { rmSync(other.dataDir, { recursive: true, force: true }) }
  })
})

describe('npm run login-link with Redis sharing the login tokens', function () {
  this.timeout(60_000)
  let redis: TestRedis | undefined
  let s: TestServer | undefined
  before(async function () {
    redis = await startRedis(this)
    // startTestServer copies process.env when it starts: only this server gets the address.
    process.env.LINGXI_REDIS_URL = redis.url
    try { s = await startTestServer() } finally { delete process.env.LINGXI_REDIS_URL }
  })
  after(async () => {
    await s?.close()
    await redis?.stop()
  })

  it('logs in once with the printed link, the bot\'s tokens being in Redis', async () => {
    expect(s!.lx.rt.shared?.address).to.equal(redis?.url)
    const r = await loginLink(s!.dataDir)
    const token = linksOf(r.stdout)[0]!.hash.slice('#token='.length)
    const login = (): ReturnType<TestServer['api']> => s!.api('/api/auth/login', { method: 'POST', json: { token }, headers: { Authorization: '' } })
    expect((await login()).status).to.equal(200)
    expect((await login()).status).to.equal(401)
  })
})
