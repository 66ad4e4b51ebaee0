// docs/api.md, system group: GET /api/system/version and POST /api/system/version/check through real HTTP.
// The version of the running checkout, the answer against the zod schema the route declares, the missing
// packages report; the check against temp git repositories (a bare "remote", the checkout the service
// reads, a second clone that publishes), the origin rule for cookie sessions, and the refusals: 409 for a
// folder that is not a git checkout or follows no remote branch, 502 when the fetch fails; never a 500.
import { expect } from 'chai'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { z } from 'zod'
import { REPORT_KEY } from '../../boot/deps.mjs'
import { PLUGIN_DIR } from '../../lib/core/paths.js'
import { UpdateService } from '../../lib/update/service.js'
import { docsOf } from '../../routes/_http/route-docs.js'
import { systemRoutes } from '../../routes/system.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { gitFixture, gitIn } from './git-fixture.js'

/** The fixture repositories (git-fixture.ts): `publish` pushes a commit of its own and gives its short hash. */
function repos (): { dir: string, remote: string, checkout: string, publish: (subject: string) => string } {
  const f = gitFixture({ version: '9.8.7' })
  let n = 0
  return { dir: f.dir, remote: f.remote, checkout: f.checkout, publish: (subject) => f.publish(subject, { [`change-${++n}.txt`]: `${subject}\n` }).slice(0, 7) }
}

describe('system routes: version and the remote check', function () {
  this.timeout(60_000)
  let s: TestServer
  let original: UpdateService | undefined
  let versionSchema: z.ZodType
  let checkSchema: z.ZodType
  const temp: string[] = []

  /** Points the `update` service at `root` (the plugin's own one is put back after the suite). */
  const serve = (root: string): void => {
    s.lx.rt.withdraw('update')
    s.lx.rt.provide('update', new UpdateService(s.lx.rt, root))
  }
  const check = (headers: Record<string, string> = { Authorization: `Bearer ${s.token}` }): Promise<Response> =>
    fetch(`${s.base}/api/system/version/check`, { method: 'POST', headers })
  /** A style A error: its status and named code, never a 500. */
  const refused = async (r: Response, status: number, code: string): Promise<string> => {
    const body = await r.json() as { success: boolean, code: string, message: string }
    expect(r.status, body.message).to.equal(status)
    expect(body).to.include({ success: false, code })
    expect(body.message).to.be.a('string').and.not.equal('')
    return body.message
  }
  /** Parses with the route's schema and checks nothing was dropped (no field the schema does not name). */
  const matches = (schema: z.ZodType, data: unknown): void => {
    const parsed = schema.safeParse(data)
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true)
    expect(parsed.data).to.deep.equal(data)
  }

  before(async () => {
    s = await startTestServer()
    original = s.lx.rt.need('update')
    const docs = docsOf(systemRoutes(s.lx.rt))
    versionSchema = docs.get('GET /api/system/version')?.data as z.ZodType
    checkSchema = docs.get('POST /api/system/version/check')?.data as z.ZodType
    expect(versionSchema, 'the route declares its data schema').to.not.equal(undefined)
    expect(checkSchema, 'the check declares its data schema').to.not.equal(undefined)
  })
  after(async () => {
    if (original) { s.lx.rt.withdraw('update'); s.lx.rt.provide('update', original) }
    await s?.close()
    for (const dir of temp) rmSync(dir, { recursive: true, force: true })
  })
  afterEach(() => { delete (globalThis as Record<symbol, unknown>)[REPORT_KEY] })

  it('GET /api/system/version and the check need a session (401 without)', async () => {
    const get = await fetch(`${s.base}/api/system/version`)
    expect(get.status).to.equal(401)
    expect(await get.json()).to.include({ success: false })
    expect((await check({})).status).to.equal(401)
    expect((await check({ Authorization: 'Bearer junk' })).status).to.equal(401)
  })

  it('answers the running checkout: package.json\'s version, its commit, in the declared schema', async () => {
    const r = await s.api('/api/system/version')
    expect(r.status, r.text).to.equal(200)
    expect(r.body.success).to.equal(true)
    const d = r.body.data
    matches(versionSchema, d)
    expect(d.version).to.equal((JSON.parse(readFileSync(join(PLUGIN_DIR, 'package.json'), 'utf8')) as { version: string }).version)
    // the plugin folder is a clone of its own here (as the README installs it) unless copied without .git
    expect(d.git).to.equal(existsSync(join(PLUGIN_DIR, '.git')))
    if (d.git) {
      const head = gitIn(PLUGIN_DIR, 'rev-parse', 'HEAD')
      expect(d).to.include({ commit: head, shortCommit: head.slice(0, 7) })
      expect(Date.parse(d.date)).to.not.be.NaN
      expect(d.dirty).to.be.a('boolean')
    }
    expect(d.dependencies.missing).to.be.an('array')
    expect(d.dependencies.command).to.be.a('string').and.not.equal('')
  })

  it('reports the packages the loader found missing, the features they turn off and the command', async () => {
    (globalThis as Record<symbol, unknown>)[REPORT_KEY] = {
      missing: [{ name: 'chrono-node', range: '^2.10.3' }],
      command: 'cd "/x" && pnpm install',
      install: { attempted: true, ok: false, error: 'pnpm exited with code 1', output: ['ERR_PNPM /home/secret/path'], seconds: 4.2 }
    }
    const r = await s.api('/api/system/version')
    expect(r.status, r.text).to.equal(200)
    const deps = r.body.data.dependencies
    matches(versionSchema, r.body.data)
    expect(deps.missing).to.deep.equal([{ name: 'chrono-node', range: '^2.10.3' }])
    expect(deps.command).to.equal('cd "/x" && pnpm install')
    expect(deps.featuresOff).to.deep.equal([{ feature: 'reminders', packages: ['chrono-node'], text: '提醒与定时任务（时间解析）' }])
    // the install's output (local paths) stays in the log
    expect(deps.install).to.deep.equal({ attempted: true, ok: false, error: 'pnpm exited with code 1', seconds: 4.2 })
    expect(r.text).to.not.include('/home/secret/path')
  })

  describe('against a temp repository with an upstream', () => {
    let g: ReturnType<typeof repos>
    before(() => { g = repos(); temp.push(g.dir); serve(g.checkout) })

    it('the version names the checkout\'s commit, branch and upstream', async () => {
      const d = (await s.api('/api/system/version')).body.data
      matches(versionSchema, d)
      const head = gitIn(g.checkout, 'rev-parse', 'HEAD')
      expect(d).to.include({ version: '9.8.7', git: true, commit: head, shortCommit: head.slice(0, 7), branch: 'main', upstream: 'origin/main', dirty: false })
      expect(d).to.not.have.property('lastCheck')
    })

    it('a cookie session without Origin is refused (403, style A), as other cookie writes are; from its own origin it works', async () => {
      const cookie = `lingxi_session=${s.token}`
      const none = await check({ Cookie: cookie })
      expect(await refused(none, 403, 'FORBIDDEN')).to.match(/Cross-site request refused/)
      expect(s.lx.rt.need('update').lastCheck).to.equal(undefined)
      const foreign = await check({ Cookie: cookie, Origin: 'http://evil.example' })
      await refused(foreign, 403, 'FORBIDDEN')
      const own = await check({ Cookie: cookie, Origin: new URL(s.base).origin })
      expect(own.status, await own.clone().text()).to.equal(200)
    })

    it('with a Bearer token: behind 0, then 1 with its subject after a push; the version then carries it as lastCheck', async () => {
      const first = await check()
      expect(first.status).to.equal(200)
      const a = (await first.json() as { success: boolean, data: { behind: number, ahead: number, commits: unknown[], upstream: string, checkedAt: string } })
      expect(a.success).to.equal(true)
      matches(checkSchema, a.data)
      expect(a.data).to.include({ behind: 0, ahead: 0, upstream: 'origin/main' })
      expect(a.data.commits).to.deep.equal([])
      expect(Date.parse(a.data.checkedAt)).to.not.be.NaN

      const hash = g.publish('Add the lighthouse feature')
      const second = await check()
      expect(second.status).to.equal(200)
      const b = (await second.json() as { data: { behind: number, commits: Array<{ hash: string, date: string, subject: string }> } }).data
      matches(checkSchema, b)
      expect(b.behind).to.equal(1)
      expect(b.commits).to.have.length(1)
      expect(b.commits[0]).to.include({ hash, subject: 'Add the lighthouse feature' })
      expect(Date.parse(b.commits[0]!.date)).to.not.be.NaN
      // only a check fetched: the checkout itself did not move
      expect(gitIn(g.checkout, 'rev-parse', 'HEAD')).to.not.match(new RegExp(`^${hash}`))

      const v = (await s.api('/api/system/version')).body.data
      matches(versionSchema, v)
      expect(v.lastCheck).to.deep.equal(b)
    })

    it('502 CONNECTION_FAILED when the remote is gone (the fetch fails)', async () => {
      rmSync(g.remote, { recursive: true, force: true })
      const message = await refused(await check(), 502, 'CONNECTION_FAILED')
      expect(message).to.match(/git fetch failed/)
    })
  })

  it('409 CONFLICT when the service\'s folder is not a git checkout', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'lingxi-version-plain-'))
    temp.push(plain)
    writeFileSync(join(plain, 'package.json'), '{"version":"1.0.0"}\n')
    serve(plain)
    const v = await s.api('/api/system/version')
    expect(v.status).to.equal(200)
    matches(versionSchema, v.body.data)
    expect(v.body.data).to.include({ version: '1.0.0', git: false })
    expect(await refused(await check(), 409, 'CONFLICT')).to.match(/not a git checkout/)
  })

  it('409 CONFLICT when the branch follows no remote branch', async () => {
    const lone = mkdtempSync(join(tmpdir(), 'lingxi-version-lone-'))
    temp.push(lone)
    gitIn(lone, 'init', '--quiet')
    writeFileSync(join(lone, 'package.json'), '{"version":"1.0.0"}\n')
    gitIn(lone, 'add', '-A')
    gitIn(lone, 'commit', '--quiet', '-m', 'alone')
    serve(lone)
    expect(await refused(await check(), 409, 'CONFLICT')).to.match(/follows no remote branch/)
  })
})
