// Mocha's spec reporter plus the plain closing line CI reads: "N passed, N failed, N skipped".
const Mocha = require('mocha')
const { Spec } = Mocha.reporters

class SummaryReporter extends Spec {
  constructor (runner, options) {
    super(runner, options)
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats
      process.nextTick(() => console.log(`${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`))
    })
  }
}
module.exports = SummaryReporter
