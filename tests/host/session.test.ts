// lib/host/session.ts: one normalised session from the events of both host profiles (the standalone
// host builds them as Miao/icqq and TRSS/OneBot do), for private and group messages and poke notices.
import { expect } from 'chai'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../../standalone/host.js'
import type { Profile, StandaloneEvent } from '../../standalone/types.js'
import { sessionOf } from '../../lib/host/session.js'
import { chatScopeOf } from '../../lib/chat/scope.js'
import type { HostEvent } from '../../lib/host/types.js'
import { MASTER, PROFILES } from './helpers.js'

const SPY = fileURLToPath(new URL('./fixtures/session-spy/', import.meta.url))
const g = globalThis as { __sessionSpy?: StandaloneEvent[] }
const lastEvent = (): StandaloneEvent => {
  const e = g.__sessionSpy?.at(-1)
  if (!e) throw new Error('the spy saw no event')
  return e
}

describe('host: sessionOf (the normalised session of a host event)', function () {
  this.timeout(30_000)

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      let host: Host
      before(async () => {
        g.__sessionSpy = []
        host = createHost({ profile: profile as Profile, masters: [MASTER], plugins: { spy: SPY }, cooldowns: false, botNickname: 'Lingxi' })
        await host.start()
      })
      after(async () => { await host?.stop() })

      it('private message: string ids, no group, master flag, nickname, reply into the private chat', async () => {
        await host.sendPrivate(MASTER, 'hello there', { nickname: 'Alice' })
        const s = sessionOf(lastEvent())
        expect(s).to.include({ kind: 'message', userId: MASTER, isGroup: false, isMaster: true, nickname: 'Alice', botId: host.botId, botName: 'Lingxi', text: 'hello there', atBot: false, self: false, isGroupAdmin: false })
        expect(s.groupId).to.equal(undefined)
        expect(s.role).to.equal(undefined)
        const before = host.transcript.length
        await s.reply('pong')
        expect(host.transcript.at(before)).to.include({ target: 'private', targetId: MASTER, text: 'pong' })
        expect(chatScopeOf(s)).to.deep.include({ userId: MASTER, conversationId: `private:${MASTER}`, via: 'bot', isMaster: true })
      })

      it('group message: group id as a string, group name, role from the member, not master', async () => {
        await host.sendGroup('30001', '20001', 'hi all', { role: 'admin', nickname: 'Bob' })
        const s = sessionOf(lastEvent())
        expect(s).to.include({ userId: '20001', groupId: '30001', isGroup: true, isMaster: false, role: 'admin', isGroupAdmin: true, nickname: 'Bob', atBot: false })
        expect(s.groupName).to.be.a('string')
        expect(chatScopeOf(s).conversationId).to.equal('group:30001:20001')
        await host.sendGroup('30001', '20002', 'hi')
        expect(sessionOf(lastEvent())).to.include({ role: 'member', isGroupAdmin: false })
        await host.sendGroup('30001', '20003', 'hi', { role: 'owner' })
        expect(sessionOf(lastEvent())).to.include({ role: 'owner', isGroupAdmin: true })
      })

      it('an @ of the bot; one view per event; a reply quotes in the group', async () => {
        await host.sendGroup('30001', '20001', 'are you there', { at: true })
        const at = sessionOf(lastEvent())
        expect(at).to.include({ atBot: true, text: 'are you there' })
        expect(sessionOf(lastEvent()), 'the event is read once').to.equal(at)
        expect(at.chat.quotes).to.equal(false)
        await host.sendGroup('30001', '20001', 'lx tell a joke')
        expect(sessionOf(lastEvent())).to.include({ atBot: false })
        expect(sessionOf(lastEvent())).to.not.equal(at)
        const before = host.transcript.length
        await at.reply('here', true)
        const sent = host.transcript.at(before)
        expect(sent).to.include({ target: 'group', targetId: '30001', text: 'here' })
        expect(sent?.quote).to.not.equal(undefined)
      })

      it('images of a message are listed', async () => {
        await host.sendPrivate('20001', [{ type: 'image', url: 'https://example.invalid/a.png' }, { type: 'text', text: 'look' }])
        expect(sessionOf(lastEvent()).images).to.deep.equal(['https://example.invalid/a.png'])
      })

      it('poke notices: group and friend, no text, the poker is the user', async () => {
        await host.poke({ userId: '20005', groupId: '30002' })
        const gs = sessionOf(lastEvent())
        expect(gs).to.include({ kind: 'notice', userId: '20005', groupId: '30002', isGroup: true, text: '', atBot: false, targetId: host.botId })
        await host.poke({ userId: '20005', groupId: '30002', targetId: '20006' })
        expect(sessionOf(lastEvent()).targetId).to.equal('20006')
        await host.poke({ userId: MASTER })
        const fs = sessionOf(lastEvent())
        expect(fs).to.include({ kind: 'notice', userId: MASTER, isGroup: false, isMaster: true })
        expect(fs.groupId).to.equal(undefined)
        const before = host.transcript.length
        await fs.reply('ouch')
        expect(host.transcript.at(before)).to.include({ target: 'private', targetId: MASTER, text: 'ouch' })
      })

      it('the bot\'s own message is marked self', async () => {
        await host.sendPrivate(host.botId, 'me')
        expect(sessionOf(lastEvent()).self).to.equal(true)
      })
    })
  }

  describe('fields some hosts leave out', () => {
    const base = (extra: Partial<HostEvent> & Record<string, unknown>): HostEvent => ({
      post_type: 'message', self_id: 10000, user_id: 20001, message: [], sender: {}, reply: async () => undefined, ...extra
    })

    it('the role only on e.member (is_owner / is_admin / role / info.role)', () => {
      expect(sessionOf(base({ message_type: 'group', group_id: 1, member: { is_owner: true } }))).to.include({ role: 'owner', isGroupAdmin: true })
      expect(sessionOf(base({ message_type: 'group', group_id: 1, member: { is_admin: true } }))).to.include({ role: 'admin' })
      expect(sessionOf(base({ message_type: 'group', group_id: 1, member: { info: { role: 'member' } } }))).to.include({ role: 'member', isGroupAdmin: false })
      expect(sessionOf(base({ message_type: 'group', group_id: 1, sender: { role: 'weird' } })).role).to.equal(undefined)
    })

    it('a private (temporary) message that carries a group id is private; a role is never given in private', () => {
      const s = sessionOf(base({ message_type: 'private', sub_type: 'group', group_id: 555, sender: { role: 'admin' } }))
      expect(s).to.include({ isGroup: false, isGroupAdmin: false })
      expect(s.groupId).to.equal(undefined)
      expect(s.role).to.equal(undefined)
    })

    it('a group message without isGroup (TRSS notices, raw adapters) is a group by its id; an empty id is none', () => {
      expect(sessionOf(base({ group_id: '777' }))).to.include({ isGroup: true, groupId: '777' })
      expect(sessionOf(base({ group_id: '' })).isGroup).to.equal(false)
    })

    it('nickname: the group card first, none when the host gives neither; an @ of the bot id counts as atBot', () => {
      expect(sessionOf(base({ sender: { nickname: 'n', card: 'c' } })).nickname).to.equal('c')
      expect(sessionOf(base({ sender: { nickname: 'n', card: '' } })).nickname).to.equal('n')
      expect('nickname' in sessionOf(base({}))).to.equal(false)
      expect(sessionOf(base({ at: '10000' }))).to.include({ atBot: true })
      expect(sessionOf(base({ hasAlias: true }))).to.include({ atBot: true })
    })
  })
})
