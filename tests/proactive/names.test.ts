// memberName (lib/proactive/names.ts): the host's member object, its cached name, its getInfo(), and a
// host that never answers (the id is used after 2 s, on fake timers).
import { expect } from 'chai'
import sinon from 'sinon'
import { memberName } from '../../lib/proactive/names.js'
import { systemClock } from '../../lib/core/clock.js'
import { hostChat, type HostChat } from '../../lib/host/session.js'
import type { HostTarget } from '../../lib/host/types.js'

const groupWith = (member: unknown): HostChat =>
  hostChat({ group: { sendMsg: async () => ({}), pickMember: () => member } as HostTarget })

describe('proactive: a member\'s name from the host', () => {
  it('takes the cached card, then the nickname, then what getInfo() answers', async () => {
    expect(await memberName(systemClock, groupWith({ card: '群名片', nickname: 'nick' }), 1)).to.equal('群名片')
    expect(await memberName(systemClock, groupWith({ card: '', nickname: 'nick' }), 1)).to.equal('nick')
    expect(await memberName(systemClock, groupWith({ info: { nickname: 'icqq info' } }), 1)).to.equal('icqq info')
    expect(await memberName(systemClock, groupWith({ getInfo: async () => ({ nickname: 'fetched', card: '' }) }), 1)).to.equal('fetched')
  })

  it('undefined when there is no group, no member, a failing host, or no name', async () => {
    expect(await memberName(systemClock, hostChat({}), 1)).to.equal(undefined)
    expect(await memberName(systemClock, groupWith(undefined), 1)).to.equal(undefined)
    expect(await memberName(systemClock, groupWith({ getInfo: async () => { throw new Error('offline') } }), 1)).to.equal(undefined)
    expect(await memberName(systemClock, groupWith({ getInfo: () => { throw new Error('sync') } }), 1)).to.equal(undefined)
    expect(await memberName(systemClock, groupWith({ getInfo: async () => ({ user_id: 1 }) }), 1)).to.equal(undefined)
  })

  it('a host that never answers: undefined after 2 s', async () => {
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let settled = false
      const name = memberName(systemClock, groupWith({ getInfo: () => new Promise(() => {}) }), 1).then((n) => { settled = true; return n })
      await clock.tickAsync(1999)
      expect(settled).to.equal(false)
      await clock.tickAsync(1)
      expect(await name).to.equal(undefined)
    } finally {
      clock.restore()
    }
  })
})
