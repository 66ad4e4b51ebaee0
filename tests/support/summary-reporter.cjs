// Mocha's spec reporter plus the plain closing lines CI reads: "N skipped", then "N passed, N failed".
// Two optional outputs for the runner (tests/support/run.ts, see tests/README.md "Running in parallel"):
// LINGXI_TEST_RESULT=<file>: the counts and the failures' titles and errors as JSON, written at the end;
// LINGXI_TEST_TIMES=<file>: per test file the wall time, the tests and the CPU time of this process and of
// the child processes it waited for (Linux /proc, else 0), as JSON (the figures in tests/README.md).
const { readFileSync, writeFileSync } = require('node:fs')
const Mocha = require('mocha')
const { Spec } = Mocha.reporters
const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_FAIL, EVENT_TEST_PASS, EVENT_TEST_PENDING } = Mocha.Runner.constants

/** CPU seconds of this process and of its waited-for children (utime, stime, cutime, cstime of /proc/self/stat). */
function cpuSeconds () {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields 14-17 of proc(5), counted from the state (field 3) here: clock ticks, 100 a second on Linux
    return { self: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 }
  } catch {
    const u = process.cpuUsage()
    return { self: (u.user + u.system) / 1e6, children: 0 }
  }
}

class SummaryReporter extends Spec {
  constructor (runner, options) {
    super(runner, options)
    const failures = []
    const files = new Map()
    const fileOf = (t) => { let s = t; while (s && !s.file && s.parent) s = s.parent; return s?.file ?? t.file ?? '' }
    const entry = (file) => {
      let e = files.get(file)
      if (!e) files.set(file, e = { file, ms: 0, tests: 0, passed: 0, failed: 0, skipped: 0, cpuSelf: 0, cpuChildren: 0, open: 0, t0: 0, c0: null })
      return e
    }
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (!suite.parent?.root) return // per top-level suite of a file
      const e = entry(suite.file ?? '')
      if (e.open++ === 0) { e.t0 = Date.now(); e.c0 = cpuSeconds() }
    })
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!suite.parent?.root) return
      const e = entry(suite.file ?? '')
      if (--e.open > 0) return
      const c = cpuSeconds()
      e.ms += Date.now() - e.t0
      e.cpuSelf += c.self - (e.c0?.self ?? c.self)
      e.cpuChildren += c.children - (e.c0?.children ?? c.children)
    })
    runner.on(EVENT_TEST_PASS, (t) => { const e = entry(fileOf(t)); e.tests++; e.passed++ })
    runner.on(EVENT_TEST_PENDING, (t) => { const e = entry(fileOf(t)); e.tests++; e.skipped++ })
    runner.on(EVENT_TEST_FAIL, (t, err) => {
      const e = entry(fileOf(t))
      if (t.type === 'test') { e.tests++; e.failed++ }
      failures.push({ title: t.fullTitle(), file: fileOf(t), error: String(err?.stack ?? err?.message ?? err) })
    })
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats
      if (process.env.LINGXI_TEST_RESULT) {
        writeFileSync(process.env.LINGXI_TEST_RESULT, JSON.stringify({ passed: s.passes, failed: s.failures, skipped: s.pending, failures }))
      }
      if (process.env.LINGXI_TEST_TIMES) {
        const rows = [...files.values()].map(({ open, t0, c0, ...r }) => ({ ...r, cpuSelf: Math.round(r.cpuSelf * 100) / 100, cpuChildren: Math.round(r.cpuChildren * 100) / 100 }))
        writeFileSync(process.env.LINGXI_TEST_TIMES, JSON.stringify(rows, null, 1))
      }
      process.nextTick(() => { console.log(`${s.pending} skipped`); console.log(`${s.passes} passed, ${s.failures} failed`) })
    })
  }
}
module.exports = SummaryReporter
