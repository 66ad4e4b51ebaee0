// One runtime per process (lib/lifecycle.ts): a second copy of the plugin's modules (a host's
// cache-busted re-import, a new bundle after a `git pull`) reuses the running one; after a stop the
// next start begins afresh.
import { expect } from 'chai'
import { copyFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Running } from '../../lib/lifecycle.js'
import { bundleFor } from '../../boot/load-plugin.mjs'
import { PLUGIN_ROOT, startPluginHost, type PluginHost } from '../support/plugin-host.js'

type Lifecycle = typeof import('../../lib/lifecycle.js')
const copyOf = async (n: number): Promise<Lifecycle> => await import(`../../lib/lifecycle.js?copy=${n}`) as Lifecycle

describe('lifecycle: one runtime per process', function () {
  this.timeout(60_000)

  it('two copies of the module share the running instance; a start after a stop is a new one', async () => {
    const [a, b] = [await copyOf(1), await copyOf(2)]
    expect(a).to.not.equal(b) // really two module instances
    let starts = 0
    const fake = (): Promise<Running> => {
      const n = ++starts
      return Promise.resolve({ rt: {} as Running['rt'], baseUrls: () => [], localUrl: `http://instance-${n}`, stop: async () => {} })
    }
    try {
      const first = await a.ensureStarted(fake)
      expect(await b.ensureStarted(fake)).to.equal(first)
      expect(b.running()).to.equal(a.running())
      expect(starts).to.equal(1)
      await b.stopRunning()
      expect(a.running()).to.equal(undefined)
      expect((await a.ensureStarted(fake)).localUrl).to.equal('http://instance-2')
    } finally {
      await a.stopRunning()
    }
  })

  it('a failed start is forgotten: the next call tries again', async () => {
    const a = await copyOf(3)
    let calls = 0
    const start = (): Promise<Running> => (++calls === 1 ? Promise.reject(new Error('port taken')) : Promise.resolve({ rt: {} as Running['rt'], baseUrls: () => [], localUrl: 'ok', stop: async () => {} }))
    try {
      await a.ensureStarted(start).then(() => { throw new Error('should fail') }, (err: Error) => expect(err.message).to.equal('port taken'))
      expect((await a.ensureStarted(start)).localUrl).to.equal('ok')
    } finally {
      await a.stopRunning()
    }
  })

  describe('the real plugin re-imported from another bundle file', () => {
    let p: PluginHost
    let copy: string | undefined
    before(async () => { p = await startPluginHost('miao', 'lingxi-reimport-') })
    after(async () => {
      await p?.stop()
      if (copy) rmSync(copy, { force: true })
    })

    it('reuses the running runtime (same port, same data folder) and stops it once', async () => {
      // the bundle index.js loads, copied under another name: every module of the plugin evaluated again
      const bundle = await bundleFor(PLUGIN_ROOT)
      copy = join(dirname(bundle), `reimport-${process.pid}.mjs`)
      copyFileSync(bundle, copy)
      const again = await import(`${pathToFileURL(copy).href}?t=123`) as { lingxi: { start(): Promise<Running>; running(): Promise<Running> | undefined } }
      const second = await again.lingxi.start()
      expect(second.localUrl).to.equal(p.run.localUrl)
      expect(second.rt).to.equal(p.run.rt)
      expect(second.rt.paths.dataDir).to.equal(p.dataDir)
    })
  })
})
