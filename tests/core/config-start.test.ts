// A broken user config at start: the plugin starts on defaults with a clear error and leaves the
// file untouched until the first save, which moves it aside first.
import { expect } from 'chai'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer } from '../support/server.js'

describe('config file problems at start', () => {
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lingxi-cfg-')) })
  afterEach(() => { rmSync(dir, { recursive: true, force: true }) })

  it('an unparsable config.yaml: starts on defaults, reports it in health and the log, keeps the file', async () => {
    const broken = 'web:\n  port: [2537\n# my settings\n'
    writeFileSync(join(dir, 'config.yaml'), broken)
    const s = await startTestServer({ dataDir: dir, keepData: true })
    try {
      expect(s.lx.rt.config.get().web.port).to.equal(2537)
      const health = await (await fetch(`${s.base}/api/system/health`)).json() as { data: { healthy: boolean; checks: { config: { status: string; message: string } } } }
      expect(health.data.healthy).to.equal(false)
      expect(health.data.checks.config.status).to.equal('error')
      expect(health.data.checks.config.message).to.match(/config\.yaml could not be parsed/)
      expect(health.data.checks.config.message).to.not.include(dir)
      const logs = (await s.api('/api/logs?level=error')).body.data.logs as Array<{ message: string }>
      expect(logs.some((l) => l.message.includes('config.yaml'))).to.equal(true)
      expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).to.equal(broken)

      const r = await s.api('/api/config', { method: 'PUT', json: { trigger: { prefix: '新' } } })
      expect(r.status).to.equal(200)
      const aside = readdirSync(dir).find((f) => f.startsWith('config.yaml.corrupt-'))
      expect(aside, 'moved aside before the first save').to.be.a('string')
      expect(readFileSync(join(dir, aside as string), 'utf8')).to.equal(broken)
      expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).to.include('新')
    } finally { await s.close() }
  })

  it('invalid values: runs on defaults and names the bad keys', async () => {
    writeFileSync(join(dir, 'config.yaml'), 'trigger:\n  randomRate: 5\n')
    const s = await startTestServer({ dataDir: dir, keepData: true })
    try {
      expect(s.lx.rt.config.get().trigger.randomRate).to.equal(0)
      const h = (await s.api('/api/system/health')).body.data
      expect(h.checks.config.message).to.include('trigger.randomRate')
      expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).to.equal('trigger:\n  randomRate: 5\n')
    } finally { await s.close() }
  })
})
