import { expect } from 'chai'
import sinon from 'sinon'
import type { Host } from '../../standalone/host.js'
import { MASTER, PROFILES, fixture, fixtureHost, resetFixture } from './helpers.js'

const STRANGER = '20002'
const texts = (host: Host): string[] => host.transcript.map((t) => t.text)
/** The fixture's #wait prompt, sent after its awaitContext is armed. */
const prompted = (host: Host, since: number): Promise<unknown> => host.waitForSend((t) => t.text === '说点什么', since)

describe('standalone host: dispatch', () => {
  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let host: Host
      before(async () => { host = await fixtureHost(profile) })
      after(async () => { await host.stop() })
      beforeEach(() => { resetFixture() })

      it('answers a rule and resolves once dispatch finished', async () => {
        const res = await host.sendPrivate(STRANGER, '#echo 你好')
        expect(res).to.deep.equal({ stage: 'handled', plugin: 'echo', fnc: 'echo' })
        expect(host.transcript.at(-1)).to.include({ target: 'private', targetId: STRANGER, text: '你好' })
      })

      it('passes on when a handler returns false, in priority order', async () => {
        const res = await host.sendPrivate(STRANGER, '#pass')
        expect(fixture().calls).to.deep.equal(['pass-first', 'pass-second'])
        expect(res.plugin).to.equal('pass-second')
        expect(texts(host).at(-1)).to.equal('second took it')
      })

      it('refuses a master rule to others, records it and stops dispatch', async () => {
        const before = host.refusals.length
        const res = await host.sendGroup('30003', STRANGER, '#secret')
        expect(res.stage).to.equal('refused')
        expect(texts(host).at(-1)).to.equal('暂无权限，只有主人才能操作')
        expect(host.refusals.slice(before)).to.deep.equal([{
          plugin: 'secret', fnc: 'secret', permission: 'master', user_id: profile === 'miao' ? 20002 : STRANGER,
          group_id: profile === 'miao' ? 30003 : '30003', text: '暂无权限，只有主人才能操作'
        }])
        expect(fixture().calls).to.deep.equal([]) // neither secret nor the lower-priority fallback ran
        await host.sendPrivate(MASTER, '#secret')
        expect(fixture().calls).to.deep.equal(['secret'])
      })

      it('lets TRSS masters bypass admin rules but not Miao masters', async () => {
        await host.sendGroup('30003', MASTER, '#admin')
        if (profile === 'trss') expect(fixture().calls).to.deep.equal(['admin'])
        else expect(texts(host).at(-1)).to.equal('暂无权限，只有管理员才能操作')
        resetFixture()
        await host.sendGroup('30003', STRANGER, '#admin', { role: 'owner' })
        expect(fixture().calls).to.deep.equal(['admin'])
      })

      it(profile === 'trss' ? 'compiles rules once (a g-flag RegExp keeps lastIndex)' : 'builds rule RegExps per event', async () => {
        const stages: string[] = []
        for (let i = 0; i < 3; i++) stages.push((await host.sendPrivate(STRANGER, '#gflag')).stage)
        expect(stages).to.deep.equal(profile === 'trss' ? ['handled', 'unhandled', 'handled'] : ['handled', 'handled', 'handled'])
      })

      it('logs a thrown error and stops', async () => {
        const res = await host.sendPrivate(STRANGER, '#boom')
        expect(res.stage).to.equal('error')
        expect(fixture().calls).to.not.include('fallback')
        expect(host.logs.some((l) => l.level === 'error' && l.text.includes('boom!'))).to.equal(true)
      })

      it('stops everything when accept() returns "return"', async () => {
        const res = await host.sendPrivate(STRANGER, '#blocked')
        expect(res).to.deep.equal({ stage: 'accept', plugin: 'gatekeeper', fnc: 'accept' })
      })

      it('routes the next message of the same user to a stored context', async () => {
        await host.sendPrivate(STRANGER, '#ask')
        const res = await host.sendPrivate(STRANGER, '小明')
        expect(res).to.deep.equal({ stage: 'context', plugin: 'ask', fnc: 'answer' })
        expect(texts(host).slice(-2)).to.deep.equal(['你叫什么？', '你好，小明'])
        expect((await host.sendPrivate(STRANGER, '小明')).stage).to.equal('unhandled') // finished
      })

      it('resolves awaitContext with the next event', async () => {
        const since = host.transcript.length
        const waiting = host.sendPrivate(STRANGER, '#wait')
        await prompted(host, since)
        const res = await host.sendPrivate(STRANGER, 'hello')
        expect(res.fnc).to.equal('resolveContext')
        await waiting
        expect(texts(host).at(-1)).to.equal('got hello')
      })

      it('keeps contexts per user', async () => {
        await host.sendPrivate(STRANGER, '#ask')
        expect((await host.sendPrivate('40004', '小红')).stage).to.equal('unhandled')
        await host.sendPrivate(STRANGER, 'done')
      })

      describe('with fake timers', () => {
        let clock: sinon.SinonFakeTimers
        beforeEach(() => { clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'] }) })
        afterEach(() => { clock.restore() })

        it('sends the context timeout reply quoted', async () => {
          await host.sendPrivate(STRANGER, '#ask')
          const asked = host.transcript.at(-1)
          clock.tick(120_000)
          const timeout = host.transcript.at(-1)
          expect(timeout?.text).to.equal('操作超时已取消')
          expect(timeout?.quote).to.not.equal(undefined)
          expect(timeout?.message_id).to.not.equal(asked?.message_id)
          expect((await host.sendPrivate(STRANGER, '小明')).stage).to.equal('unhandled')
        })

        it('resolves awaitContext with false on timeout', async () => {
          const since = host.transcript.length
          const waiting = host.sendPrivate(STRANGER, '#wait')
          await prompted(host, since)
          clock.tick(30_000)
          await waiting
          expect(texts(host).at(-1)).to.equal('gave up')
        })

        it('applies cooldowns and the duplicate throttle when on', async () => {
          host.cooldowns = true
          try {
            expect((await host.sendGroup('50005', STRANGER, '#echo a')).stage).to.equal('handled')
            expect((await host.sendGroup('50005', STRANGER, '#echo b')).stage).to.equal('cooldown')
            clock.tick(profile === 'trss' ? 2000 : 1000)
            expect((await host.sendGroup('50005', STRANGER, '#echo c')).stage).to.equal('handled')
            clock.tick(5000)
            expect((await host.sendPrivate(STRANGER, '#echo same')).stage).to.equal('handled')
            expect((await host.sendPrivate(STRANGER, '#echo same')).stage).to.equal('duplicate')
          } finally {
            host.cooldowns = false
          }
        })
      })
    })
  }

  it('drops black-listed users and honours group disable lists', async () => {
    const host = await fixtureHost('miao', { other: { blackQQ: ['66666'] }, groups: { 70007: { disable: ['echo'] } } })
    try {
      expect((await host.sendPrivate('66666', '#echo x')).stage).to.equal('blacklist')
      expect((await host.sendGroup('70007', STRANGER, '#echo x')).stage).to.equal('unhandled')
      expect((await host.sendGroup('70008', STRANGER, '#echo x')).stage).to.equal('handled')
    } finally {
      await host.stop()
    }
  })

  it('gates groups on @bot or alias with onlyReplyAt, stripping the alias', async () => {
    const host = await fixtureHost('trss', { groups: { default: { onlyReplyAt: 1, botAlias: ['灵犀'] } } })
    try {
      expect((await host.sendGroup('80008', STRANGER, '#echo hi')).stage).to.equal('gate')
      expect((await host.sendGroup('80008', STRANGER, '#echo hi', { at: true })).stage).to.equal('handled')
      const res = await host.sendGroup('80008', STRANGER, '灵犀#echo 别名')
      expect(res.stage).to.equal('handled')
      expect(host.transcript.at(-1)?.text).to.equal('别名')
      expect(fixture().events.at(-1)?.hasAlias).to.equal(true)
      expect((await host.sendPrivate(STRANGER, '#echo private')).stage).to.equal('handled')
    } finally {
      await host.stop()
    }
  })
})
