// Loads the real plugin (this checkout) through its index.js, as the hosts do, in both profiles.
import { expect } from 'chai'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../../standalone/host.js'
import { stopHost } from '../support/plugin-host.js'
import { MASTER, PROFILES } from './helpers.js'

const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const HAS_ENTRY = existsSync(join(PLUGIN_ROOT, 'index.ts'))

describe('standalone host: the real plugin', function () {
  this.timeout(60_000)

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let host: Host
      let dataDir: string
      before(async () => {
        dataDir = mkdtempSync(join(tmpdir(), 'lingxi-data-'))
        host = createHost({ profile, pluginDir: PLUGIN_ROOT, masters: [MASTER], cooldowns: false, env: { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: '0' } })
        await host.start()
      })
      after(async () => {
        await stopHost(host) // the plugin too: the host does not stop it
        rmSync(dataDir, { recursive: true, force: true })
      })

      it('imports plugins/lingxi-plugin/index.js and exposes `apps`', () => {
        expect(host.module, JSON.stringify(host.loadErrors.map((e) => String(e.error)))).to.not.equal(undefined)
        expect(host.module).to.have.property('apps')
        if (!HAS_ENTRY) return
        expect(host.loadErrors).to.deep.equal([])
        expect(host.plugins.filter((p) => p.key === 'lingxi-plugin')).to.have.length.greaterThan(0)
        expect(host.module?.lingxi).to.have.property('stop')
      })

      it('answers the master\'s #lx面板 with a login link', async function () {
        if (!HAS_ENTRY) this.skip()
        const res = await host.sendPrivate(MASTER, '#lx面板')
        expect(res.stage).to.equal('handled')
        const answer = host.transcript.at(-1)?.text ?? ''
        expect(answer).to.match(/\/login#token=/)
        if (profile === 'trss') expect(answer).to.include(`${host.url}/lingxi`)
      })

      it('refuses #lx面板 to others', async function () {
        if (!HAS_ENTRY) this.skip()
        expect((await host.sendPrivate('20002', '#lx面板')).stage).to.equal('refused')
        expect(host.refusals.at(-1)).to.include({ permission: 'master', text: '暂无权限，只有主人才能操作' })
      })
    })
  }
})
