import { expect } from 'chai'
import sinon from 'sinon'
import type { Host } from '../../standalone/host.js'
import type { PluginClass, SendResult } from '../../standalone/types.js'
import { MASTER, PROFILES, fixtureHost, lastEvent } from './helpers.js'

const USER = '20002'
const GROUP = '30003'

describe('standalone host: events', () => {
  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let host: Host
      before(async () => { host = await fixtureHost(profile) })
      after(async () => { await host.stop() })

      it('concatenates and normalises text segments into msg; collects images', async () => {
        await host.sendPrivate(USER, [
          { type: 'text', text: '  ＃帮助 ' }, { type: 'image', url: 'http://img.test/a.png', file: 'a.png' }, { type: 'text', text: ' 更多 ' }
        ])
        const e = lastEvent()
        expect(e.msg).to.equal('#帮助更多')
        expect(e.img).to.deep.equal(['http://img.test/a.png'])
        expect(e.raw_message).to.be.a('string')
        await host.sendPrivate(USER, '※ 抽卡')
        expect(lastEvent().msg).to.equal('#星铁抽卡') // ※ → *, then the Star Rail prefix rewrite
      })

      it('leaves msg undefined when there is no text', async () => {
        await host.sendPrivate(USER, [{ type: 'image', url: 'http://img.test/b.png' }])
        const e = lastEvent()
        expect(e.msg).to.equal(undefined)
        expect('msg' in e && e.msg === undefined).to.equal(true)
      })

      it(profile === 'trss' ? 'turns a leading / into #' : 'keeps a leading /', async () => {
        await host.sendPrivate(USER, '/帮助')
        expect(lastEvent().msg).to.equal(profile === 'trss' ? '#帮助' : '/帮助')
      })

      it('derives at, atBot, isGroup and ids of the profile type', async () => {
        await host.sendGroup(GROUP, USER, [{ type: 'at', qq: '55555' }, { type: 'text', text: 'hi' }], { at: true })
        const e = lastEvent()
        expect(e.atBot).to.equal(true)
        expect(String(e.at)).to.equal('55555')
        expect(e.isGroup).to.equal(true)
        expect(e.isPrivate).to.equal(undefined)
        expect(e.user_id).to.equal(profile === 'miao' ? 20002 : USER)
        expect(e.group_id).to.equal(profile === 'miao' ? 30003 : GROUP)
        expect(e.sender).to.include({ nickname: `user${e.user_id}`, card: `user${e.user_id}` })
        expect(e.member?.role).to.equal('member')
        expect(e.group?.pickMember).to.be.a('function')
        await host.sendPrivate(USER, 'hi')
        expect(lastEvent().isPrivate).to.equal(true)
        expect(lastEvent().isGroup).to.equal(undefined)
      })

      it('sets isMaster from the configured masters only (true or absent)', async () => {
        await host.sendPrivate(MASTER, 'hi')
        expect(lastEvent().isMaster).to.equal(true)
        await host.sendPrivate(USER, 'hi')
        expect('isMaster' in lastEvent()).to.equal(false)
        const view = host.config.view()
        if (profile === 'trss') expect(view.master).to.deep.equal({ 10000: [MASTER] })
        else expect(view.masterQQ).to.deep.equal([10001])
      })

      it('rewrites game prefixes and sets game flags', async () => {
        await host.sendPrivate(USER, '*抽卡记录')
        expect(lastEvent()).to.include({ msg: '#星铁抽卡记录', game: 'sr', isSr: true, isGs: false })
        await host.sendPrivate(USER, '%面板')
        expect(lastEvent()).to.include({ msg: '#绝区零面板', game: 'zzz' })
        await host.sendPrivate(USER, '#面板')
        expect(lastEvent()).to.include({ game: 'gs', isGs: true })
      })

      it('gives e.bot (non-enumerable on Miao) and lets the bot see its own messages', async () => {
        await host.sendPrivate(host.botId, 'self')
        const e = lastEvent()
        expect(String(e.user_id)).to.equal(String(e.self_id))
        expect(e.bot?.pickFriend).to.be.a('function')
        expect(Object.keys(e).includes('bot')).to.equal(profile === 'trss')
      })

      describe('e.reply', () => {
        it('returns false for an empty message', async () => {
          await host.sendPrivate(USER, 'hi')
          const e = lastEvent()
          expect(await e.reply('')).to.equal(false)
          expect(await e.reply([])).to.equal(false)
        })

        it('quotes the triggering message and prepends an @ in groups', async () => {
          await host.sendGroup(GROUP, USER, 'hi')
          const e = lastEvent()
          const res = await e.reply('pong', true, { at: true }) as SendResult
          const sent = host.transcript.at(-1)
          expect(sent?.message_id).to.equal(res.message_id)
          expect(sent?.quote).to.equal(e.message_id)
          expect(sent?.message.slice(0, 2)).to.deep.equal([{ type: 'at', qq: e.user_id }, { type: 'text', text: '\n' }])
          expect(sent).to.include({ target: 'group', targetId: GROUP })
        })

        it('does not @ in private chat', async () => {
          await host.sendPrivate(USER, 'hi')
          await lastEvent().reply('pong', false, { at: true })
          expect(host.transcript.at(-1)?.message).to.deep.equal([{ type: 'text', text: 'pong' }])
        })

        it(`returns ${profile === 'trss' ? '{error}' : 'undefined'} when sending fails`, async () => {
          await host.sendPrivate(USER, 'hi')
          const failure = new Error('network down')
          host.failSends(failure)
          try {
            const res = await lastEvent().reply('pong')
            if (profile === 'trss') expect(res).to.deep.equal({ error: [failure] })
            else expect(res).to.equal(undefined)
            expect(host.logs.some((l) => l.level === 'error' && l.text.includes('network down'))).to.equal(true)
          } finally {
            host.failSends()
          }
        })

        it('recalls after recallMsg seconds (TRSS also recalls the trigger)', async () => {
          await host.sendGroup(GROUP, USER, 'hi')
          const e = lastEvent()
          const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'] })
          try {
            const res = await e.reply('short-lived', false, { recallMsg: 5 }) as SendResult
            clock.tick(4999)
            expect(host.recalls).to.not.include(res.message_id)
            clock.tick(1)
            expect(host.recalls).to.include(res.message_id)
            expect(host.recalls.includes(String(e.message_id))).to.equal(profile === 'trss')
            expect(host.transcript.at(-1)?.recalled).to.equal(true)
          } finally {
            clock.restore()
          }
        })
      })

      describe('global plugin base class', () => {
        const Base = (): PluginClass => (globalThis as unknown as { plugin: PluginClass }).plugin

        it('has the option defaults of the hosts', () => {
          const p = new (Base())()
          expect(p).to.include({ name: 'your-plugin', dsc: '无', event: 'message', priority: 5000 })
          expect(p.rule).to.deep.equal([])
          expect(p.reply('no event')).to.equal(false)
        })

        it(profile === 'miao' ? 'drops the task name given to the constructor' : 'keeps the task given to the constructor', () => {
          const fnc = (): void => {}
          const p = new (Base())({ name: 't', task: { name: 'named', cron: '0 * * * * *', fnc } })
          expect(p.task).to.deep.equal(profile === 'miao' ? { name: '', fnc, cron: '0 * * * * *' } : { name: 'named', cron: '0 * * * * *', fnc })
        })

        it('builds context keys in the profile format', () => {
          const p = new (Base())({ name: 'k' })
          p.e = { ...lastEvent(), self_id: '10000', user_id: '1', group_id: '2' }
          expect(p.conKey()).to.equal(profile === 'miao' ? 'k.1' : 'k.10000.1')
          expect(p.conKey(true)).to.equal(profile === 'miao' ? 'k.2' : 'k.10000.2')
        })
      })
    })
  }
})
