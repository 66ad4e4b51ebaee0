import { expect } from 'chai'
import { discover } from '../../standalone/loader.js'
import type { Host } from '../../standalone/host.js'
import { BASIC, FIXTURES, LOOSE, PROFILES, fixture, fixtureHost, rejection } from './helpers.js'

describe('standalone host: discovery and loading', () => {
  it('imports only index.js when present, else top-level .js files (no .mjs, no recursion)', () => {
    const found = discover(FIXTURES).map((f) => f.key)
    expect(found).to.deep.equal(['basic', 'builtins/add.js', 'builtins/announce.js', 'loose/a.js', 'loose/b.js', 'stoppable'])
  })

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let host: Host
      before(async () => { host = await fixtureHost(profile, { plugins: { basic: BASIC, loose: LOOSE } }) })
      after(async () => { await host.stop() })

      it('uses only the values of `apps`, skips values without a prototype and init() "return"', () => {
        const names = host.plugins.filter((p) => p.key === 'basic').map((p) => p.name)
        expect(names).to.include.members(['spy', 'echo', 'ask', 'fallback'])
        expect(names).to.not.include('not-in-apps')
        expect(names).to.not.include('skipped-by-init')
        expect(names).to.have.length(13)
        expect(host.loadErrors).to.deep.equal([])
      })

      it('treats every export as a candidate without `apps`', () => {
        const loose = host.plugins.filter((p) => p.key.startsWith('loose/')).map((p) => p.name)
        expect(loose).to.have.members(['loose-a', 'loose-b', 'loose-c'])
      })

      it('sorts by ascending priority, stable for ties', () => {
        const priorities = host.plugins.map((p) => p.priority)
        expect(priorities).to.deep.equal([...priorities].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        expect(host.plugins[0].name).to.equal('spy') // -Infinity
        const ties = host.plugins.filter((p) => p.priority === 100).map((p) => p.name)
        expect(ties).to.deep.equal(['echo', 'ask', 'g-flag', 'boom']) // load order kept
        const sevens = host.plugins.filter((p) => p.priority === 7).map((p) => p.name)
        expect(sevens).to.deep.equal(['loose-a', 'loose-b'])
      })

      it('runs the plugin through the host root (cwd, package.json name)', async () => {
        expect(process.cwd()).to.equal(host.root)
        const { readFileSync } = await import('node:fs')
        const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string }
        expect(pkg.name).to.equal(profile === 'miao' ? 'miao-yunzai' : 'trss-yunzai')
      })

      it('collects tasks per profile; fnc is called unbound', async () => {
        const names = host.tasks.map((t) => t.name)
        if (profile === 'miao') expect(names).to.deep.equal(['assigned-task', 'unbound-check']) // super({task}) loses its name
        else expect(names).to.deep.equal(['super-task', 'assigned-task', 'unbound-check'])
        expect(await host.runTask('unbound-check')).to.equal(1)
        await host.runTask('assigned-task')
        expect(fixture().calls).to.include.members(['unbound', 'assigned-task'])
        if (profile === 'miao') expect((await rejection(host.runTask('super-task'))).message).to.match(/no task named/)
      })
    })
  }
})
