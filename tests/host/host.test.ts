import { expect } from 'chai'
import { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHost } from '../../standalone/host.js'
import { FIXTURES, MASTER, fixture, rejection, resetFixture } from './helpers.js'

const STOPPABLE = join(FIXTURES, 'stoppable')
const g = globalThis as unknown as Record<string, unknown>

describe('standalone host: lifecycle', () => {
  beforeEach(() => { resetFixture() })

  it('runs in a temp root, then restores cwd, env and globals and removes the root, never calling lingxi.stop() (the hosts do not)', async () => {
    const cwd = process.cwd()
    const host = createHost({ profile: 'miao', pluginDir: STOPPABLE, masters: [MASTER], env: { LINGXI_STANDALONE_TEST: 'yes' } })
    await host.start()
    try {
      expect(readlinkSync(join(host.root, 'plugins', 'lingxi-plugin'))).to.equal(STOPPABLE)
      expect(process.env.LINGXI_STANDALONE_TEST).to.equal('yes')
      expect(host.module?.lingxi).to.be.an('object')
      await host.sendPrivate(MASTER, 'hi')
      expect(host.transcript.at(-1)?.text).to.equal(`hi from ${host.root}`)
    } finally {
      await host.stop()
    }
    expect(fixture().calls, 'Miao-Yunzai and TRSS-Yunzai call no stop hook of a plugin').to.deep.equal([])
    expect(process.cwd()).to.equal(cwd)
    expect(process.env.LINGXI_STANDALONE_TEST).to.equal(undefined)
    expect(g.plugin).to.equal(undefined)
    expect(g.Bot).to.equal(undefined)
    expect(existsSync(host.root)).to.equal(false)
    expect(existsSync(STOPPABLE)).to.equal(true) // the link was removed, not its target
  })

  it('keeps a given root and allows one running host at a time', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lingxi-root-'))
    const first = createHost({ profile: 'trss', root, pluginDir: STOPPABLE, masters: [MASTER] })
    const second = createHost({ profile: 'miao', pluginDir: STOPPABLE, masters: [MASTER] })
    try {
      await first.start()
      expect((await rejection(second.start())).message).to.match(/another standalone host is running/)
    } finally {
      await first.stop()
    }
    expect(existsSync(join(root, 'config/config/other.yaml'))).to.equal(true)
    rmSync(root, { recursive: true, force: true })
  })
})
