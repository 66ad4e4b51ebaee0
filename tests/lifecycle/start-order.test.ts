// The start order of the plugin's parts is computed from what each declares (lib/domains.ts):
// providers first, a missing need or a circle is a clear start error before anything opens.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { AppError } from '../../lib/core/errors.js'
import { DOMAINS, startOrder, StartOrderError } from '../../lib/domains.js'
import { PARTS, startPlugin } from '../../lib/plugin.js'
import type { Domain, ServiceName } from '../../lib/runtime.js'

const part = (name: string, provides: ServiceName[], needs: ServiceName[] = [], optional: ServiceName[] = []): Domain =>
  ({ name, provides, needs, optional, start: () => undefined })

describe('lifecycle: start order from declared needs', () => {
  it('starts each part after the providers of what it needs or uses when present', () => {
    const order = startOrder([
      part('web', ['web'], [], ['memory', 'tools']),
      part('memory', ['memory', 'memoryExtractor'], ['conversations']),
      part('tools', ['tools'], [], ['knowledge']),
      part('chat', ['conversations'])
    ]).map((d) => d.name)
    expect(order).to.deep.equal(['chat', 'memory', 'tools', 'web'])
  })

  it('keeps the listed order among parts that are free to start', () => {
    expect(startOrder([part('b', ['memory']), part('a', ['knowledge'])]).map((d) => d.name)).to.deep.equal(['b', 'a'])
  })

  it('a need nobody provides is a start error naming both', () => {
    expect(() => startOrder([part('memory', ['memory'], ['conversations'])]))
      .to.throw(StartOrderError, 'memory needs the conversations service, which no domain provides')
  })

  it('an optional service nobody provides is fine', () => {
    expect(startOrder([part('tools', ['tools'], [], ['knowledge'])]).map((d) => d.name)).to.deep.equal(['tools'])
  })

  it('a circle of needs is a start error naming the circle', () => {
    expect(() => startOrder([part('a', ['memory'], ['tools']), part('b', ['tools'], ['knowledge']), part('c', ['knowledge'], ['memory'])]))
      .to.throw(StartOrderError, 'in a circle: a -> b -> c -> a')
  })

  it('a service provided twice is a start error', () => {
    expect(() => startOrder([part('a', ['memory']), part('b', ['memory'])])).to.throw(StartOrderError, 'provided by both a and b')
  })

  it('the plugin\'s own parts have a valid order with the web server last', () => {
    const order = startOrder(PARTS).map((d) => d.name)
    expect(order).to.have.length(DOMAINS.length + 1)
    expect(order.at(-1)).to.equal('web')
    expect(order.indexOf('tools')).to.be.lessThan(order.indexOf('skills'))
    expect(order.indexOf('tools')).to.be.lessThan(order.indexOf('mcp'))
  })
})

describe('lifecycle: the runtime\'s services', function () {
  this.timeout(20_000)
  let dataDir: string
  beforeEach(() => { dataDir = mkdtempSync(join(tmpdir(), 'lingxi-parts-')) })
  afterEach(() => { rmSync(dataDir, { recursive: true, force: true }) })
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, LINGXI_DATA_DIR: dataDir })

  it('need() of a service nobody provided is SERVICE_UNAVAILABLE naming it; optional() is undefined', async () => {
    const plugin = await startPlugin({ env: env(), parts: [] })
    try {
      expect(() => plugin.rt.need('memory')).to.throw(AppError, 'The memory service is not running')
      expect(plugin.rt.optional('memory')).to.equal(undefined)
    } finally { await plugin.stop() }
  })

  it('provides once per name; withdraw() returns the service and frees the name', async () => {
    const game = { name: 'game-stand-in' }
    const plugin = await startPlugin({ env: env(), parts: [{ ...part('game', ['game']), start: (rt) => { rt.provide('game', game as never) } }] })
    try {
      const { rt } = plugin
      expect(rt.need('game')).to.equal(game)
      expect(() => rt.provide('game', game as never)).to.throw('The game service is provided twice')
      expect(rt.withdraw('game')).to.equal(game)
      expect(rt.optional('game')).to.equal(undefined)
    } finally { await plugin.stop() }
  })

  it('a part that does not provide what it declares fails the start, and what started is stopped', async () => {
    let stopped = 0
    const err = await startPlugin({
      env: env(),
      parts: [{ ...part('a', []), start: (rt) => { rt.onStop.push(() => { stopped++ }) } }, part('b', ['knowledge'], [], [])]
    }).then(() => undefined, (e: Error) => e)
    expect(err?.message).to.equal('b started without providing knowledge')
    expect(stopped).to.equal(1)
  })

  it('an impossible order fails before the runtime opens anything', async () => {
    const err = await startPlugin({ env: env(), parts: [part('memory', ['memory'], ['conversations'])] }).then(() => undefined, (e: Error) => e)
    expect(err).to.be.instanceOf(StartOrderError)
    expect(readdirSync(dataDir)).to.deep.equal([])
  })
})
