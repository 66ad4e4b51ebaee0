// Loaded before every test file (see .mocharc.json): quiet plugin logs, no real data folder. In a run of
// tests/support/run.ts (`npm test`) it is loaded in every worker of `mocha --parallel` as well, where the root
// hooks below run once per test file: with LINGXI_TEST_FILE_TIMES set they append that file's wall time and CPU
// time there (one JSON line per file; the runner orders the next run by them, tests/README.md "Running in parallel").
import { appendFileSync, readFileSync } from 'node:fs'

process.env.LINGXI_QUIET = '1'
process.env.NODE_ENV = 'test'

/** CPU seconds of this process and of the child processes it waited for (Linux /proc, else this process only). */
export function cpuSeconds (): { self: number; children: number } {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime, stime, cutime, cstime (fields 14-17 of proc(5), here counted from the state): ticks of 1/100 s
    return { self: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 }
  } catch {
    const u = process.cpuUsage()
    return { self: (u.user + u.system) / 1e6, children: 0 }
  }
}

let started = 0
let cpu0 = { self: 0, children: 0 }

/** The one file the root suite's tests come from (a parallel worker's run, or a run of one file); else undefined. */
function onlyFile (root: Mocha.Suite | undefined): string | undefined {
  const files = new Set((root?.suites ?? []).map((s) => s.file ?? ''))
  for (const t of root?.tests ?? []) files.add(t.file ?? '')
  return files.size === 1 ? [...files][0] || undefined : undefined
}

export const mochaHooks: Mocha.RootHookObject = {
  beforeAll () {
    started = Date.now()
    cpu0 = cpuSeconds()
  },
  afterAll (this: Mocha.Context) {
    const out = process.env.LINGXI_TEST_FILE_TIMES
    const file = out ? onlyFile(this.test?.parent) : undefined
    if (!out || !file) return
    const c = cpuSeconds()
    const round = (n: number): number => Math.round(n * 100) / 100
    appendFileSync(out, `${JSON.stringify({ file, ms: Date.now() - started, cpuSelf: round(c.self - cpu0.self), cpuChildren: round(c.children - cpu0.children), pid: process.pid })}\n`)
  }
}
