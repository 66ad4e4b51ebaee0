// No import circles in the shipped sources (index.js, index.ts, boot/, apps/, lib/, routes/,
// standalone/): the `no-circular` rule of tests/structure/depcruise.config.cjs over the shared cruise
// (cruise.ts). Type-only imports count. A failure names each circle, file by file.
import { expect } from 'chai'
import { cruised } from './cruise.js'

/** The circles dependency-cruiser finds, each as `a.ts -> b.ts -> a.ts` (each circle once). */
async function importCircles (): Promise<{ circles: string[]; cruised: number }> {
  const c = await cruised()
  const seen = new Set<string>()
  const circles: string[] = []
  for (const f of c.findings) {
    if (f.rule !== 'no-circular') continue
    const files = [f.from, ...f.cycle]
    const key = [...new Set(files)].sort().join('|')
    if (seen.has(key)) continue
    seen.add(key)
    circles.push(files.join(' -> '))
  }
  return { circles, cruised: c.result.summary.totalCruised }
}

describe('structure: no import circles', function () {
  this.timeout(180_000)

  it('the shipped sources import each other in no circle', async () => {
    const { circles, cruised } = await importCircles()
    expect(cruised, 'files read (the check must see the tree)').to.be.greaterThan(100)
    expect(circles, `import circles:\n${circles.join('\n')}`).to.deep.equal([])
  })
})
