// The chat turn as named steps (lib/chat/steps.ts; lib/chat/README.md "The turn, step by step"): the order
// from before/after, the outcomes, the cleanup; and the order the running plugin's domains declare, which
// is the README's table.
import { expect } from 'chai'
import type { ChatTurn, StepOutcome, TurnStep } from '../../lib/chat/contracts.js'
import { newTurn, orderSteps, runTurn, StepOrderError } from '../../lib/chat/steps.js'
import { startTestServer, type TestServer } from '../support/server.js'

/** A step that notes its name in `seen` and says `says`. */
const step = (seen: string[], name: string, more: Partial<TurnStep> = {}, says?: StepOutcome): TurnStep =>
  ({ name, via: ['qq', 'api'], ...more, run: () => { seen.push(name); return says } })

describe('chat: the named steps of a turn', () => {
  it('orders by after and before, keeps the declared order otherwise, ignores names nobody declared', () => {
    const seen: string[] = []
    const steps = [
      step(seen, 'reply', { after: ['admit', 'not-running'] }),
      step(seen, 'note', { before: ['reply'] }),
      step(seen, 'admit'),
      step(seen, 'account', { after: ['reply'] }),
      step(seen, 'web-only', { via: ['api'] })
    ]
    expect(orderSteps(steps, 'qq').map((s) => s.name)).to.deep.equal(['note', 'admit', 'reply', 'account'])
    expect(orderSteps(steps, 'api').map((s) => s.name)).to.deep.equal(['note', 'admit', 'reply', 'account', 'web-only'])
  })

  it('refuses two steps of one name and a circle, naming it', () => {
    const seen: string[] = []
    expect(() => orderSteps([step(seen, 'a'), step(seen, 'a')], 'qq')).to.throw(StepOrderError, 'named a')
    expect(() => orderSteps([step(seen, 'a', { after: ['b'] }), step(seen, 'b', { after: ['c'] }), step(seen, 'c', { before: ['a'], after: ['a'] })], 'qq'))
      .to.throw(StepOrderError, /circle: .*a.*->.*a/)
  })

  it('stops at done; after pass runs only the onPass steps; cleans up last added first', async () => {
    const seen: string[] = []
    const cleanup = (turn: ChatTurn, name: string): TurnStep => ({ name, via: ['qq'], run: () => { turn.cleanup.push(() => { seen.push(`clean ${name}`) }) } })
    const t1 = newTurn('qq', 'hi')
    expect(await runTurn([cleanup(t1, 'c1'), cleanup(t1, 'c2'), step(seen, 'stop', {}, 'done'), step(seen, 'never')], t1)).to.equal('done')
    expect(seen).to.deep.equal(['stop', 'clean c2', 'clean c1'])
    seen.length = 0
    const t2 = newTurn('qq', 'hi')
    expect(await runTurn([step(seen, 'early-join', { onPass: true }), step(seen, 'burst', {}, 'pass'), step(seen, 'admit'), step(seen, 'join', { onPass: true })], t2)).to.equal('pass')
    expect(seen).to.deep.equal(['burst', 'join'])
    seen.length = 0
    expect(await runTurn([step(seen, 'a'), step(seen, 'b')], newTurn('api', 'hi'))).to.equal('done')
    expect(seen).to.deep.equal(['a', 'b'])
  })

  it('a step that throws ends the turn: the cleanup sees the error, then it is thrown', async () => {
    const turn = newTurn('qq', 'hi')
    let sawError: unknown
    const boom = new Error('model down')
    const steps: TurnStep[] = [
      { name: 'delivery', via: ['qq'], run: (t) => { t.cleanup.push(() => { sawError = t.error }) } },
      { name: 'reply', via: ['qq'], run: () => { throw boom } },
      { name: 'accounting', via: ['qq'], run: () => { throw new Error('must not run') } }
    ]
    try {
      await runTurn(steps, turn)
      expect.fail('the error was not thrown')
    } catch (err) {
      expect(err).to.equal(boom)
    }
    expect(sawError).to.equal(boom)
    expect(turn.cleanup).to.have.length(0)
  })

  describe('as the running plugin declares them', () => {
    let s: TestServer
    before(async () => { s = await startTestServer() })
    after(async () => { await s.close() })

    it('a QQ message and the HTTP chat pass the steps in the order of lib/chat/README.md', () => {
      const steps = s.lx.rt.chat.steps
      expect(orderSteps(steps, 'qq').map((x) => x.name)).to.deep.equal(
        ['group-log', 'initiative-seen', 'trigger', 'burst', 'initiative-called', 'admission', 'input', 'moderation', 'scope', 'rate-limit', 'delivery', 'reply', 'join-in', 'accounting'])
      expect(orderSteps(steps, 'api').map((x) => x.name)).to.deep.equal(['preset', 'rate-limit', 'reply'])
    })
  })
})
