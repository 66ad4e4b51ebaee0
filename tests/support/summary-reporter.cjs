// Mocha's spec reporter plus the plain closing line CI reads: "N passed, N failed" (skips on the line before).
const Mocha = require('mocha')
const { Spec } = Mocha.reporters

class SummaryReporter extends Spec {
  constructor (runner, options) {
    super(runner, options)
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats
      process.nextTick(() => { console.log(`${s.pending} skipped`); console.log(`${s.passes} passed, ${s.failures} failed`) })
    })
  }
}
module.exports = SummaryReporter
