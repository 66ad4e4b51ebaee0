// Pretending a package is missing: the loader's report (boot/deps.mjs, REPORT_KEY) is what
// lib/core/packages.ts reads, so setting it turns off the features of the named packages without
// touching node_modules. Every test that sets it puts the previous report back (afterEach).
import { REPORT_KEY, type DependencyReport } from '../../boot/deps.mjs'

const slot = globalThis as Record<symbol, unknown>

/** A report saying `names` could not be installed; returns the function that puts the previous report (or none) back. */
export function pretendMissing (...names: string[]): () => void {
  const had = Object.hasOwn(slot, REPORT_KEY)
  const before = slot[REPORT_KEY]
  const report: DependencyReport = { missing: names.map((name) => ({ name, range: '^1' })), command: 'npm install (test)' }
  slot[REPORT_KEY] = report
  return () => {
    if (had) slot[REPORT_KEY] = before
    else delete slot[REPORT_KEY]
  }
}
