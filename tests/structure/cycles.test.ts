// No import circles in the server sources (index.ts, apps/, lib/, routes/), checked by
// dependency-cruiser over the TypeScript config. A failure names each circle, file by file.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'chai'

const ROOT = join(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs')

interface Violation { rule: { name: string }; from: string; to: string; cycle?: Array<{ name: string }> }
interface CruiseResult { summary: { violations: Violation[]; totalCruised: number } }

/** The circles dependency-cruiser finds, each as `a.ts -> b.ts -> a.ts` (each circle once). */
export async function importCircles (): Promise<{ circles: string[]; cruised: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--config', 'tests/structure/depcruise.config.cjs', '--output-type', 'json', 'index.ts', 'apps', 'lib', 'routes'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
    .catch((err: { stdout?: string; stderr?: string; message: string }) => {
      // exit code = the number of violations; the report is on stdout all the same
      if (err.stdout) return { stdout: err.stdout }
      throw new Error(`dependency-cruiser failed: ${err.stderr ?? err.message}`)
    })
  const result = JSON.parse(stdout) as CruiseResult
  const seen = new Set<string>()
  const circles: string[] = []
  for (const v of result.summary.violations) {
    if (v.rule.name !== 'no-circular') continue
    const files = [v.from, ...(v.cycle ?? []).map((c) => c.name)]
    const key = [...new Set(files)].sort().join('|')
    if (seen.has(key)) continue
    seen.add(key)
    circles.push(files.join(' -> '))
  }
  return { circles, cruised: result.summary.totalCruised }
}

describe('structure: no import circles', function () {
  this.timeout(120_000)

  it('the server sources import each other in no circle', async () => {
    const { circles, cruised } = await importCircles()
    expect(cruised, 'files read (the check must see the tree)').to.be.greaterThan(100)
    expect(circles, `import circles:\n${circles.join('\n')}`).to.deep.equal([])
  })
})
