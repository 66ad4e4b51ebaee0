// The masters' ids have one rule, lib/host/port.ts `masters`; boot/rescue.mjs (the stand-in that loads when the
// plugin's TypeScript cannot) keeps a plain-JavaScript copy, since it runs exactly when port.ts cannot be loaded.
// Both are run here over the same host configurations (a temp host folder with its `lib/config/config.js`, the
// module both import) under both host kinds: they must give the same ids.
import { expect } from 'chai'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { masterIds } from '../../boot/rescue.mjs'
import { masters } from '../../lib/host/port.js'

type Kind = 'trss' | 'miao'
interface Case { name: string; kind: Kind; config?: Record<string, unknown>; botId?: string; expected: string[] }

const CASES: Case[] = [
  { name: 'Miao: masterQQ, numbers and strings', kind: 'miao', config: { masterQQ: [10001, '10002'] }, expected: ['10001', '10002'] },
  { name: 'Miao: a master map is not Miao\'s, masterQQ counts', kind: 'miao', config: { masterQQ: [10001], master: { 88888: [30003] } }, expected: ['10001'] },
  { name: 'Miao: no masters', kind: 'miao', config: {}, expected: [] },
  { name: 'TRSS: every bot\'s masters, once each', kind: 'trss', config: { master: { 100: [50005, '50006'], 200: ['50006', 50007] }, masterQQ: [90009] }, expected: ['50005', '50006', '50007'] },
  { name: 'TRSS: one bot\'s masters', kind: 'trss', config: { master: { 100: [50005], 200: [50007] } }, botId: '200', expected: ['50007'] },
  { name: 'TRSS: an empty master map falls back to masterQQ', kind: 'trss', config: { master: {}, masterQQ: [90009] }, expected: ['90009'] },
  { name: 'TRSS: a bot without masters falls back to masterQQ', kind: 'trss', config: { master: { 100: [50005] }, masterQQ: [90009] }, botId: '300', expected: ['90009'] },
  { name: 'no config module: nobody', kind: 'miao', expected: [] }
]

describe('lifecycle: the rescue stand-in finds the masters as the host port does', () => {
  const g = globalThis as { __lingxiHostKind?: Kind }
  const saved = { cwd: process.cwd(), kind: g.__lingxiHostKind }
  const roots: string[] = []
  /** A host folder with its package.json and, when given, its config module. */
  const hostFolder = (packageName: string, config?: Record<string, unknown>): string => {
    const root = mkdtempSync(join(tmpdir(), 'lingxi-rescue-masters-'))
    roots.push(root)
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: packageName, type: 'module' }))
    if (config) {
      mkdirSync(join(root, 'lib', 'config'), { recursive: true })
      writeFileSync(join(root, 'lib', 'config', 'config.js'), `export default ${JSON.stringify(config)}\n`)
    }
    return root
  }
  after(() => {
    process.chdir(saved.cwd)
    if (saved.kind === undefined) delete g.__lingxiHostKind
    else g.__lingxiHostKind = saved.kind
    for (const r of roots) rmSync(r, { recursive: true, force: true })
  })

  for (const c of CASES) {
    it(c.name, async () => {
      const root = hostFolder(c.kind === 'trss' ? 'trss-yunzai' : 'miao-yunzai', c.config)
      g.__lingxiHostKind = c.kind // port.ts caches the kind it read once; this setting comes first in both
      process.chdir(root) // port.ts reads the host's folder as the working folder, as hosts run plugins
      try {
        const fromPort = await masters(c.botId)
        const fromRescue = await masterIds(root, c.botId)
        expect(fromRescue, 'rescue.mjs and port.ts differ').to.deep.equal(fromPort)
        expect(fromPort).to.deep.equal(c.expected)
      } finally {
        process.chdir(saved.cwd)
      }
    })
  }

  it('without the kind set, rescue.mjs reads it from the host\'s package.json as port.ts hostKind does', async () => {
    delete g.__lingxiHostKind
    const config = { master: { 100: [50005] }, masterQQ: [90009] }
    expect(await masterIds(hostFolder('trss-yunzai', config))).to.deep.equal(['50005'])
    expect(await masterIds(hostFolder('miao-yunzai', config))).to.deep.equal(['90009'])
  })
})
